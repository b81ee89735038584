/**
 * How an upstream write is authorized. A write (`mcp_call`) is a proposed operation by
 * default, on every transport: a person approves it (`poly approvals`, the dashboard's
 * Access pane, `approve_change`) and only then is it dispatched. A write grant can carry
 * a **pre-authorization** (seed 002's `preauthorizableFor`): this tool, these argument
 * constraints, by whom, until when; a write it covers is dispatched unattended. The
 * operation records which of the two it was ({@link Authorization}).
 *
 * A pre-authorization is pinned to the fingerprint of the grant it was given for: setting
 * the grant again (a new review) drops it, and it never applies to a stale grant.
 *
 * @module
 */
import type { DatabaseSync } from "../store/mod.ts";
import { jsonEqual } from "./canonical.ts";
import { GatewayError } from "./errors.ts";
import { findTool, grantStates, type GrantView } from "./grants.ts";
import { parseResultPath, readPath } from "./result_path.ts";
import { catalogOf, grantsOf, now, writeServer } from "./store.ts";

/** One argument constraint: the value at `path` in the write's arguments must equal `equals` (as JSON). */
export interface ArgumentConstraint {
  /** A path in the arguments (`title`, `$.repo.name`, `labels[0]`). */
  path: string;
  equals: unknown;
}

/** What a person pre-authorized on a write grant. */
export interface Preauthorization {
  /** Who pre-authorized (a member name, or `owner (cli)`). */
  by: string;
  /** ISO time after which it no longer applies. */
  until: string;
  /** Every constraint must hold (none: any arguments). */
  where: ArgumentConstraint[];
  /** The grant's fingerprint it was given for. */
  fingerprint: string;
  set_at: string;
}

/** How a write was let through; recorded on its operation and returned by `mcp_call`. */
export type Authorization =
  | { kind: "approved"; proposal: string; by: string }
  | ({ kind: "preauthorized" } & Omit<Preauthorization, "fingerprint">);

/** Input of {@link setPreauthorization}. */
export interface SetPreauthorizationInput {
  server: string;
  /** Tool name or id of a write grant. */
  tool: string;
  by: string;
  /** ISO time, in the future. */
  until: string;
  where?: readonly ArgumentConstraint[];
  expectedRevision: number;
}

/** Parses `PATH=JSON` (a bare word that is not JSON is taken as a string). */
export function parseConstraint(text: string): ArgumentConstraint {
  const eq = text.indexOf("=");
  if (eq <= 0) {
    throw new GatewayError("invalid_request", `Constraint "${text}" is not of the form PATH=VALUE (e.g. repo="poly")`);
  }
  const path = text.slice(0, eq).trim();
  parseResultPath(path);
  const raw = text.slice(eq + 1);
  let equals: unknown;
  try {
    equals = JSON.parse(raw);
  } catch {
    equals = raw;
  }
  return { path, equals };
}

/** Sets (replaces) the pre-authorization of an active write grant; raises the server's revision. */
export function setPreauthorization(
  db: DatabaseSync,
  input: SetPreauthorizationInput,
): { grant: GrantView; preauthorization: Preauthorization; revision: number } {
  const until = Date.parse(input.until);
  if (Number.isNaN(until)) {
    throw new GatewayError("invalid_request", `--until "${input.until}" is not a time (use e.g. 2027-01-31 or 7d)`);
  }
  if (until <= Date.now()) {
    throw new GatewayError(
      "invalid_request",
      `--until "${input.until}" is in the past: a pre-authorization must end later`,
    );
  }
  if (!input.by.trim()) throw new GatewayError("invalid_request", "A pre-authorization names who gives it (--by)");
  for (const c of input.where ?? []) parseResultPath(c.path);
  let value!: Preauthorization;
  let toolId = "";
  const { server } = writeServer(db, input.server, input.expectedRevision, (s) => {
    const tool = findTool(catalogOf(db, s.name), input.tool);
    const grant = tool && grantStates(db, s.name).find((g) => g.tool_id === tool.id);
    if (!tool || !grant) {
      throw new GatewayError("not_granted", `Tool "${s.name}/${input.tool}" has no grant: grant it as write first`);
    }
    if (grant.mode !== "write") {
      throw new GatewayError(
        "grant_refused",
        `Tool "${s.name}/${tool.name}" is granted as read: only writes are pre-authorized`,
      );
    }
    if (grant.state !== "active") {
      throw new GatewayError(
        "grant_refused",
        `The write grant of "${s.name}/${tool.name}" is ${grant.state}: review it first`,
      );
    }
    toolId = tool.id;
    value = {
      by: input.by,
      until: new Date(until).toISOString(),
      where: [...(input.where ?? [])],
      fingerprint: grant.fingerprint,
      set_at: now(),
    };
    db.prepare("UPDATE gateway_grants SET preauthorization = ? WHERE server = ? AND tool_id = ?")
      .run(JSON.stringify(value), s.name, tool.id);
    return true;
  });
  const grant = grantStates(db, input.server).find((g) => g.tool_id === toolId)!;
  return { grant, preauthorization: value, revision: server.revision };
}

/** Removes a grant's pre-authorization (its writes are proposed again). */
export function clearPreauthorization(
  db: DatabaseSync,
  serverName: string,
  tool: string,
  expectedRevision: number,
): { changed: boolean; revision: number } {
  const { server, changed } = writeServer(db, serverName, expectedRevision, (s) => {
    const t = findTool(catalogOf(db, s.name), tool);
    if (!t) throw new GatewayError("not_found", `Tool "${tool}" is not in the catalog of server "${s.name}"`);
    return db.prepare(
      "UPDATE gateway_grants SET preauthorization = NULL WHERE server = ? AND tool_id = ? AND preauthorization IS NOT NULL",
    ).run(s.name, t.id).changes > 0;
  });
  return { changed, revision: server.revision };
}

/** The pre-authorization of a grant, when it is set and still pinned to the grant's fingerprint. */
export function preauthorizationOf(db: DatabaseSync, server: string, toolId: string): Preauthorization | undefined {
  const g = grantsOf(db, server).find((x) => x.toolId === toolId);
  const p = g?.preauthorization as Preauthorization | undefined;
  return p && g && p.fingerprint === g.fingerprint ? p : undefined;
}

/** Whether the pre-authorization covers a write with `args` at `at`; `why` says what does not hold. */
export function coveredBy(
  p: Preauthorization | undefined,
  args: Record<string, unknown>,
  at: number = Date.now(),
): { covered: true; authorization: Authorization } | { covered: false; why: string } {
  if (!p) return { covered: false, why: "the grant carries no pre-authorization" };
  if (Date.parse(p.until) <= at) return { covered: false, why: `its pre-authorization ended at ${p.until}` };
  for (const c of p.where) {
    const found = readPath(args, parseResultPath(c.path));
    if (!found.found || !jsonEqual(found.value, c.equals)) {
      return {
        covered: false,
        why: `argument ${c.path} is ${found.found ? JSON.stringify(found.value) : "absent"}, pre-authorized only as ${
          JSON.stringify(c.equals)
        }`,
      };
    }
  }
  const { fingerprint: _, ...rest } = p;
  return { covered: true, authorization: { kind: "preauthorized", ...rest } };
}
