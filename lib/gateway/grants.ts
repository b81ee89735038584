/**
 * Server grants: which tools of a server poly may use at all, each pinned to the
 * fingerprint a person reviewed.
 *
 * Three rules when a grant is set:
 * 1. the fingerprint must be the tool's current one ({@link SCHEMA_CHANGED});
 * 2. a write grant lists at least one other tool of the server that is granted as read
 *    (its verifiers);
 * 3. a read grant has no verifiers.
 *
 * A grant applies only while its fingerprint matches the stored catalog: after a refresh
 * changes a tool, its grant silently stops applying until it is set again. A write grant
 * applies only while at least one of its verifiers applies.
 *
 * @module
 */
import type { DatabaseSync } from "../store/mod.ts";
import { GatewayError, SCHEMA_CHANGED } from "./errors.ts";
import {
  catalogOf,
  type GrantRecord,
  grantsOf,
  now,
  type ServerRecord,
  type ToolRecord,
  writeServer,
} from "./store.ts";

/** Why a grant does or does not apply. */
export type GrantState =
  /** Applies. */
  | "active"
  /** The tool's definition changed since the review. */
  | "stale"
  /** The tool is no longer in the catalog. */
  | "missing"
  /** A write grant none of whose verifiers applies. */
  | "unverified";

/** A grant with its state against the stored catalog. */
export interface GrantView {
  server: string;
  tool_id: string;
  tool: string;
  mode: "read" | "write";
  fingerprint: string;
  current_fingerprint?: string;
  /** Verifier tool names (ids when a verifier left the catalog). */
  verifiers: string[];
  /** The verifiers that apply now. */
  active_verifiers: string[];
  state: GrantState;
  granted_at: string;
  /** A write grant's pre-authorization for unattended writes (lib/gateway/preauth.ts), while pinned to this grant. */
  preauthorization?: { by: string; until: string; where: { path: string; equals: unknown }[]; set_at: string };
}

/** Finds a tool of a catalog by name or id. */
export function findTool(tools: readonly ToolRecord[], ref: string): ToolRecord | undefined {
  return tools.find((t) => t.name === ref) ?? tools.find((t) => t.id === ref);
}

/** Whether `grant` applies to `tool` as stored (fingerprint match). */
export function fingerprintMatches(grant: GrantRecord | undefined, tool: ToolRecord | undefined): boolean {
  return grant !== undefined && tool !== undefined && grant.fingerprint === tool.fingerprint;
}

/** Every grant of a server (or all servers) with its state. */
export function grantStates(db: DatabaseSync, server?: string): GrantView[] {
  const servers = server === undefined ? [...new Set(grantsOf(db).map((g) => g.server))] : [server];
  const out: GrantView[] = [];
  for (const name of servers) {
    const tools = catalogOf(db, name);
    const byId = new Map(tools.map((t) => [t.id, t]));
    // In the catalog's order; grants of tools that left the catalog last.
    const position = (id: string) => byId.get(id)?.position ?? Number.MAX_SAFE_INTEGER;
    const grants = grantsOf(db, name).sort((a, b) => position(a.toolId) - position(b.toolId));
    const grantById = new Map(grants.map((g) => [g.toolId, g]));
    const readActive = (id: string) => {
      const g = grantById.get(id);
      return g?.mode === "read" && fingerprintMatches(g, byId.get(id));
    };
    for (const g of grants) {
      const tool = byId.get(g.toolId);
      const activeVerifiers = g.verifiers.filter(readActive);
      let state: GrantState = "active";
      if (!tool) state = "missing";
      else if (tool.fingerprint !== g.fingerprint) state = "stale";
      else if (g.mode === "write" && activeVerifiers.length === 0) state = "unverified";
      out.push({
        server: name,
        tool_id: g.toolId,
        tool: tool?.name ?? g.toolId,
        mode: g.mode,
        fingerprint: g.fingerprint,
        ...(tool ? { current_fingerprint: tool.fingerprint } : {}),
        verifiers: g.verifiers.map((id) => byId.get(id)?.name ?? id),
        active_verifiers: activeVerifiers.map((id) => byId.get(id)!.name),
        state,
        granted_at: g.grantedAt,
        ...preauthView(g),
      });
    }
  }
  return out;
}

function preauthView(g: GrantRecord): Pick<GrantView, "preauthorization"> {
  const p = g.preauthorization as (GrantView["preauthorization"] & { fingerprint?: string }) | undefined;
  if (!p || p.fingerprint !== g.fingerprint) return {};
  return { preauthorization: { by: p.by, until: p.until, where: p.where, set_at: p.set_at } };
}

/** What `poly grants set` takes. */
export interface SetGrantInput {
  server: string;
  /** Tool name or id. */
  tool: string;
  mode: "read" | "write";
  fingerprint: string;
  /** Tool names or ids of read-granted tools verifying a write. */
  verifiers?: readonly string[];
  expectedRevision: number;
}

/** Result of a grant write. */
export interface GrantWriteResult {
  grant?: GrantView;
  changed: boolean;
  revision: number;
  /** Write grants that no longer have an applying verifier because of this change. */
  unverified: string[];
}

/** Sets (creates or replaces) a grant, enforcing the three rules. */
export function setGrant(db: DatabaseSync, input: SetGrantInput): GrantWriteResult {
  let toolId = "";
  const before = new Set(unverifiedWrites(db, input.server));
  const { server, changed } = writeServer(db, input.server, input.expectedRevision, (s: ServerRecord) => {
    const tools = catalogOf(db, s.name);
    const tool = requireTool(tools, s.name, input.tool);
    toolId = tool.id;
    if (input.fingerprint.trim().toLowerCase() !== tool.fingerprint) {
      throw new GatewayError(
        "schema_changed",
        `${SCHEMA_CHANGED}: tool "${tool.name}" on server "${s.name}" does not have fingerprint "${input.fingerprint}"; review it with poly servers show ${s.name}`,
      );
    }
    const verifierRefs = [...new Set(input.verifiers ?? [])];
    if (input.mode === "read" && verifierRefs.length > 0) {
      throw new GatewayError("grant_refused", "A read grant has no verifiers: drop --verifier");
    }
    const grants = new Map(grantsOf(db, s.name).map((g) => [g.toolId, g]));
    const verifiers: string[] = [];
    if (input.mode === "write") {
      if (verifierRefs.length === 0) {
        throw new GatewayError(
          "grant_refused",
          `A write grant needs at least one verifier: another tool of server "${s.name}" granted as read (--verifier TOOL)`,
        );
      }
      for (const ref of verifierRefs) {
        const v = requireTool(tools, s.name, ref);
        if (v.id === tool.id) {
          throw new GatewayError("grant_refused", `Tool "${tool.name}" cannot verify itself: name a read tool`);
        }
        const g = grants.get(v.id);
        if (!g || g.mode !== "read" || !fingerprintMatches(g, v)) {
          throw new GatewayError(
            "grant_refused",
            `Verifier "${v.name}" is not granted as read on server "${s.name}": grant it first with poly grants set ${s.name} ${v.name} --mode read --fingerprint FP`,
          );
        }
        verifiers.push(v.id);
      }
    }
    const old = grants.get(tool.id);
    if (
      old && old.mode === input.mode && old.fingerprint === tool.fingerprint &&
      JSON.stringify(old.verifiers) === JSON.stringify(verifiers)
    ) return false;
    db.prepare(
      `INSERT INTO gateway_grants (server, tool_id, mode, fingerprint, verifiers, granted_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (server, tool_id) DO UPDATE SET mode = excluded.mode, fingerprint = excluded.fingerprint,
       verifiers = excluded.verifiers, granted_at = excluded.granted_at, preauthorization = NULL`,
    ).run(s.name, tool.id, input.mode, tool.fingerprint, JSON.stringify(verifiers), now());
    return true;
  });
  return {
    grant: grantStates(db, input.server).find((g) => g.tool_id === toolId),
    changed,
    revision: server.revision,
    unverified: unverifiedWrites(db, input.server).filter((t) => !before.has(t)),
  };
}

/** Removes a grant. */
export function revokeGrant(
  db: DatabaseSync,
  serverName: string,
  tool: string,
  expectedRevision: number,
): GrantWriteResult {
  const before = new Set(unverifiedWrites(db, serverName));
  const { server, changed } = writeServer(db, serverName, expectedRevision, (s) => {
    const tools = catalogOf(db, s.name);
    const id = findTool(tools, tool)?.id ?? (grantsOf(db, s.name).some((g) => g.toolId === tool) ? tool : undefined);
    if (!id) throw new GatewayError("not_found", `Tool "${tool}" is not in the catalog of server "${s.name}"`);
    return db.prepare("DELETE FROM gateway_grants WHERE server = ? AND tool_id = ?").run(s.name, id).changes > 0;
  });
  return {
    changed,
    revision: server.revision,
    unverified: unverifiedWrites(db, serverName).filter((t) => !before.has(t)),
  };
}

function unverifiedWrites(db: DatabaseSync, server: string): string[] {
  return grantStates(db, server).filter((g) => g.state === "unverified").map((g) => g.tool);
}

function requireTool(tools: readonly ToolRecord[], server: string, ref: string): ToolRecord {
  const tool = findTool(tools, ref);
  if (!tool) {
    throw new GatewayError(
      "not_found",
      `Tool "${ref}" is not in the catalog of server "${server}": see poly servers show ${server}`,
    );
  }
  return tool;
}
