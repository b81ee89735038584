/**
 * Resolving a target (`server/tool`) to a tool the caller may use: the server is
 * enabled (and consented, for OAuth), the tool's grant applies, the grant's mode fits
 * the capability, and the profile allows it.
 *
 * @module
 */
import type { DatabaseSync } from "../store/mod.ts";
import { GatewayError } from "./errors.ts";
import { findTool, grantStates, type GrantView } from "./grants.ts";
import { profileAllows, type ResolvedProfile } from "./profiles.ts";
import { catalogOf, requireServer, type ServerRecord, type ToolRecord } from "./store.ts";

/** A target resolved to a usable tool. */
export interface GrantedTool {
  server: ServerRecord;
  tool: ToolRecord;
  grant: GrantView;
  target: string;
}

/** Splits `server/tool` (the server name has no `/`; the tool name may). */
export function parseTarget(target: string): { server: string; tool: string } {
  const slash = target.indexOf("/");
  if (slash <= 0 || slash === target.length - 1) {
    throw new GatewayError("invalid_request", `Target "${target}" is not of the form server/tool`);
  }
  return { server: target.slice(0, slash), tool: target.slice(slash + 1) };
}

/** Resolves a target for `capability`, or throws a `not_granted` / `profile` GatewayError. */
export function resolveGranted(
  db: DatabaseSync,
  profile: ResolvedProfile,
  target: string,
  capability: "read" | "call",
): GrantedTool {
  const ref = parseTarget(target);
  const server = requireServer(db, ref.server);
  const label = capability === "read" ? "mcp.read" : "mcp.call";
  const tool = findTool(catalogOf(db, server.name), ref.tool);
  const notGranted = (why: string) =>
    new GatewayError("not_granted", `Tool "${target}" is not granted for ${label}: ${why}`);
  if (!tool) throw notGranted(`server "${server.name}" has no such tool`);
  const grant = grantStates(db, server.name).find((g) => g.tool_id === tool.id);
  if (!grant) throw notGranted("no grant");
  const mode = capability === "read" ? "read" : "write";
  if (grant.mode !== mode) {
    throw notGranted(`it is granted as ${grant.mode}; use ${grant.mode === "read" ? "mcp_read" : "mcp_call"}`);
  }
  if (grant.state === "stale") throw notGranted("the tool changed since its grant was reviewed");
  if (grant.state === "unverified") throw notGranted("none of its verifiers is granted any more");
  if (grant.state !== "active") throw notGranted(`its grant is ${grant.state}`);
  if (!profileAllows(profile, capability, server.name, tool)) {
    throw new GatewayError("profile", `Profile "${profile.name}" may not use ${label} on "${target}"`);
  }
  if (server.auth === "oauth" && server.oauthStatus !== "connected" && server.oauthStatus !== "refreshing") {
    throw new GatewayError(
      "oauth",
      `Server "${server.name}" needs a person's consent (status ${server.oauthStatus}): run poly servers consent ${server.name}`,
    );
  }
  return { server, tool, grant, target: `${server.name}/${tool.name}` };
}

/** What mcp_describe returns for one granted tool. */
export interface ToolDescription {
  target: string;
  server: string;
  tool: string;
  tool_id: string;
  capability: "mcp.read" | "mcp.call";
  /** The fingerprint to pass as `schema_sha256`. */
  schema_sha256: string;
  /** The definition exactly as the server sent it (name, title, description, schemas, annotations). */
  definition: Record<string, unknown>;
  /** For `mcp.call`: read tools that may verify it. */
  verifiers?: string[];
}

/** Describes a tool the profile may use (read or call). */
export function describeTarget(db: DatabaseSync, profile: ResolvedProfile, target: string): ToolDescription {
  let granted: GrantedTool;
  try {
    granted = resolveGranted(db, profile, target, "read");
  } catch (error) {
    if (!(error instanceof GatewayError) || !/granted as write/.test(error.message)) throw error;
    granted = resolveGranted(db, profile, target, "call");
  }
  const { server, tool, grant } = granted;
  return {
    target: granted.target,
    server: server.name,
    tool: tool.name,
    tool_id: tool.id,
    capability: grant.mode === "read" ? "mcp.read" : "mcp.call",
    schema_sha256: tool.fingerprint,
    definition: tool.definition,
    ...(grant.mode === "write" ? { verifiers: grant.active_verifiers.map((v) => `${server.name}/${v}`) } : {}),
  };
}
