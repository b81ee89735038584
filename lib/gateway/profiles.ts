/**
 * Profiles: which of the applying server grants a caller may use. The host connected
 * to `poly mcp` uses the `default` profile; a delegated worker is handed another one
 * (`POLY_GATEWAY_PROFILE=<name>` in the environment of the `poly mcp` it talks to), so
 * it sees only the tools granted to it.
 *
 * @module
 */
import type { DatabaseSync } from "../store/mod.ts";
import type { GatewayConfig } from "./config.ts";
import { GatewayError } from "./errors.ts";
import { grantStates } from "./grants.ts";
import { catalogOf, listServerRecords } from "./store.ts";

/** The environment variable naming the profile of a `poly mcp` process. */
export const PROFILE_ENV = "POLY_GATEWAY_PROFILE";

/** The default profile's name. */
export const DEFAULT_PROFILE = "default";

/** A profile as used at run time. */
export interface ResolvedProfile {
  name: string;
  description?: string;
  read: string[];
  call: string[];
  /** True for a `default` profile that poly.toml does not configure (it may use every applying grant). */
  implicit: boolean;
}

/** The profile name of this process: `$POLY_GATEWAY_PROFILE`, else `default`. */
export function currentProfileName(): string {
  try {
    return Deno.env.get(PROFILE_ENV)?.trim() || DEFAULT_PROFILE;
  } catch {
    return DEFAULT_PROFILE;
  }
}

/** Reads the `[gateway]` section governing `dir` (poly.toml cascade, poly.local.toml, extends). */
export async function loadGatewayConfig(dir: string, explicit?: string): Promise<GatewayConfig | undefined> {
  const { openConfig } = await import("../config/mod.ts");
  const configs = await openConfig({ cwd: dir, explicit });
  return (await configs.forDir(dir)).data.gateway;
}

/** Resolves a profile by name; an unconfigured `default` may use every applying grant. */
export function resolveProfile(config: GatewayConfig | undefined, name: string): ResolvedProfile {
  const spec = config?.profiles?.[name];
  if (spec) return { name, description: spec.description, read: spec.read, call: spec.call, implicit: false };
  if (name === DEFAULT_PROFILE) return { name, read: ["*"], call: ["*"], implicit: true };
  const known = Object.keys(config?.profiles ?? {});
  throw new GatewayError(
    "profile",
    `Profile "${name}" is not defined: add [gateway.profiles.${name}] to poly.toml${
      known.length ? ` (defined: ${known.join(", ")})` : ""
    }`,
  );
}

/** Whether `profile` may use `capability` on the tool `server/tool` (matched by name or id). */
export function profileAllows(
  profile: ResolvedProfile,
  capability: "read" | "call",
  server: string,
  tool: { name: string; id: string },
): boolean {
  return profile[capability].some((pattern) => {
    if (pattern === "*") return true;
    const slash = pattern.indexOf("/");
    const s = pattern.slice(0, slash);
    const t = pattern.slice(slash + 1);
    return s === server && (t === "*" || t === tool.name || t === tool.id);
  });
}

/** One tool a profile may use. */
export interface ProfileTool {
  /** `server/tool`: what mcp_describe, mcp_read and mcp_call take. */
  target: string;
  server: string;
  tool: string;
  tool_id: string;
  /** `mcp.read` (read grant) or `mcp.call` (write grant). */
  capability: "mcp.read" | "mcp.call";
  title?: string;
  description?: string;
  /** The fingerprint to pin calls to. */
  schema_sha256: string;
  /** For `mcp.call`: the read tools that may verify it (targets). */
  verifiers?: string[];
}

/**
 * The tools `profile` may use right now: applying grants of enabled servers, narrowed by
 * the profile. A write whose verifiers no longer apply is not offered at all.
 *
 * Fleet: hand a worker `toolsForProfile(db, resolveProfile(config, name))` as the list
 * of MCP targets it may use, and start its `poly mcp` with `POLY_GATEWAY_PROFILE=name`.
 */
export function toolsForProfile(db: DatabaseSync, profile: ResolvedProfile): ProfileTool[] {
  const out: ProfileTool[] = [];
  for (const server of listServerRecords(db)) {
    if (server.auth === "oauth" && server.oauthStatus !== "connected" && server.oauthStatus !== "refreshing") continue;
    const tools = new Map(catalogOf(db, server.name).map((t) => [t.id, t]));
    for (const grant of grantStates(db, server.name)) {
      if (grant.state !== "active") continue;
      const tool = tools.get(grant.tool_id)!;
      const capability = grant.mode === "read" ? "read" : "call";
      if (!profileAllows(profile, capability, server.name, tool)) continue;
      const def = tool.definition as { title?: unknown; description?: unknown };
      out.push({
        target: `${server.name}/${tool.name}`,
        server: server.name,
        tool: tool.name,
        tool_id: tool.id,
        capability: grant.mode === "read" ? "mcp.read" : "mcp.call",
        ...(typeof def.title === "string" ? { title: def.title } : {}),
        ...(typeof def.description === "string" ? { description: def.description } : {}),
        schema_sha256: tool.fingerprint,
        ...(grant.mode === "write" ? { verifiers: grant.active_verifiers.map((v) => `${server.name}/${v}`) } : {}),
      });
    }
  }
  return out;
}
