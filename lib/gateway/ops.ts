/**
 * Operations: every `mcp_read` (a receipt) and every `mcp_call` (a proposed write with
 * its verification and outcome). A write is `pending` while it is dispatched, then
 * `confirmed`, `mismatch` (the verifier saw another value), `refused` (never sent), or
 * `unknown` (the outcome could not be confirmed). `pending` and `unknown` writes are
 * unresolved: while one exists, further writes to that server and its removal are
 * refused, until a person resolves it (`poly ops resolve`).
 *
 * @module
 */
import type { DatabaseSync } from "../store/mod.ts";
import { GatewayError, OUTCOME_UNCERTAIN } from "./errors.ts";
import type { Authorization } from "./preauth.ts";
import type { Redactor } from "./redact.ts";
import { now, transaction } from "./store.ts";
import type { OP_STATUSES } from "./schemas.ts";

/** Status of an operation (one of {@link OP_STATUSES}). */
export type OpStatus = typeof OP_STATUSES[number];

/** Statuses that block further writes to the server. */
export const UNRESOLVED: readonly OpStatus[] = ["pending", "unknown"];

/** The verification block of a write. */
export interface Verification {
  /** Read tool (name or `server/name`) to call after the write. */
  tool: string;
  arguments: Record<string, unknown>;
  /** Where in the verifier's result to look (`$.a.b[0]`, `a.b.0`). */
  result_path: string;
  /** The value expected there. */
  expected: unknown;
}

/** One recorded operation. */
export interface OpRecord {
  id: string;
  server: string;
  kind: "read" | "write";
  tool_id: string;
  tool: string;
  fingerprint: string;
  profile: string;
  arguments: Record<string, unknown>;
  verification?: Verification;
  /** For a write: approved (the proposal and who decided) or pre-authorized (by whom, until when, constraints). */
  authorization?: Authorization;
  status: OpStatus;
  result?: unknown;
  observed?: unknown;
  detail?: string;
  created_at: string;
  updated_at: string;
  resolution?: "applied" | "not_applied" | "confirmed";
  resolution_note?: string;
  resolved_at?: string;
}

type Row = Record<string, unknown>;

function toOp(r: Row): OpRecord {
  const parse = (v: unknown) => (v === null || v === undefined ? undefined : JSON.parse(String(v)));
  const opt = (v: unknown) => (v === null || v === undefined ? undefined : String(v));
  return {
    id: String(r.id),
    server: String(r.server),
    kind: r.kind as "read" | "write",
    tool_id: String(r.tool_id),
    tool: String(r.tool_name),
    fingerprint: String(r.fingerprint),
    profile: String(r.profile),
    arguments: JSON.parse(String(r.arguments)),
    verification: parse(r.verification),
    ...(r.authorization ? { authorization: parse(r.authorization) } : {}),
    status: r.status as OpStatus,
    result: parse(r.result),
    observed: parse(r.observed),
    detail: opt(r.detail),
    created_at: String(r.created_at),
    updated_at: String(r.updated_at),
    resolution: opt(r.resolution) as OpRecord["resolution"],
    resolution_note: opt(r.resolution_note),
    resolved_at: opt(r.resolved_at),
  };
}

/** A new operation id. */
export function newOpId(): string {
  return `op-${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
}

/** The unresolved writes of a server, oldest first. */
export function unresolvedOps(db: DatabaseSync, server: string): OpRecord[] {
  return (db.prepare(
    `SELECT * FROM gateway_ops WHERE server = ? AND status IN ('pending', 'unknown') ORDER BY created_at`,
  ).all(server) as Row[]).map(toOp);
}

/** One operation, or a `not_found` GatewayError. */
export function getOp(db: DatabaseSync, id: string): OpRecord {
  const row = db.prepare("SELECT * FROM gateway_ops WHERE id = ?").get(id) as Row | undefined;
  if (!row) throw new GatewayError("not_found", `Operation "${id}" is not recorded: see poly ops list --all`);
  return toOp(row);
}

/** Options for {@link listOps}. */
export interface ListOpsOptions {
  server?: string;
  /** Everything, not only the unresolved writes. */
  all?: boolean;
  limit?: number;
}

/** Lists operations, newest first: by default only unresolved writes. */
export function listOps(db: DatabaseSync, options: ListOpsOptions = {}): OpRecord[] {
  const where: string[] = [];
  const args: (string | number)[] = [];
  if (options.server) {
    where.push("server = ?");
    args.push(options.server);
  }
  if (!options.all) where.push("status IN ('pending', 'unknown')");
  const sql = `SELECT * FROM gateway_ops ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
    ORDER BY created_at DESC, id LIMIT ?`;
  return (db.prepare(sql).all(...args, options.limit ?? 200) as Row[]).map(toOp);
}

/** Fields of a new operation. */
export type NewOp = Pick<OpRecord, "server" | "kind" | "tool_id" | "tool" | "fingerprint" | "profile" | "arguments"> & {
  verification?: Verification;
  authorization?: Authorization;
  status: OpStatus;
};

/** Records an operation. For a write, atomically refuses while the server has an unresolved one. */
export function recordOp(db: DatabaseSync, op: NewOp): OpRecord {
  const id = newOpId();
  return transaction(db, () => {
    if (op.kind === "write") {
      const open = unresolvedOps(db, op.server);
      if (open.length > 0) throw blockedError(op.server, open[0]);
    }
    const at = now();
    db.prepare(
      `INSERT INTO gateway_ops (id, server, kind, tool_id, tool_name, fingerprint, profile, arguments, verification,
        authorization, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      op.server,
      op.kind,
      op.tool_id,
      op.tool,
      op.fingerprint,
      op.profile,
      JSON.stringify(op.arguments),
      op.verification ? JSON.stringify(op.verification) : null,
      op.authorization ? JSON.stringify(op.authorization) : null,
      op.status,
      at,
      at,
    );
    return getOp(db, id);
  });
}

/** Refusal of a write while `open` is unresolved. */
export function blockedError(server: string, open: OpRecord): GatewayError {
  return new GatewayError(
    "unresolved_mutation",
    `${OUTCOME_UNCERTAIN} Server "${server}" has the unresolved operation "${open.id}" (${open.tool}, ${open.status}): check it with poly ops list, then poly ops resolve ${open.id}`,
  );
}

/** Records the outcome of an operation. */
export function finishOp(
  db: DatabaseSync,
  id: string,
  fields: { status: OpStatus; result?: unknown; observed?: unknown; detail?: string },
): OpRecord {
  db.prepare(
    `UPDATE gateway_ops SET status = ?, result = ?, observed = ?, detail = ?, updated_at = ? WHERE id = ?`,
  ).run(
    fields.status,
    fields.result === undefined ? null : JSON.stringify(fields.result),
    fields.observed === undefined ? null : JSON.stringify(fields.observed),
    fields.detail ?? null,
    now(),
    id,
  );
  return getOp(db, id);
}

/** Marks an unresolved write as resolved by a person (or by a confirming re-verification). */
export function resolveOp(
  db: DatabaseSync,
  id: string,
  resolution: "applied" | "not_applied" | "confirmed",
  note?: string,
): OpRecord {
  return transaction(db, () => {
    const op = getOp(db, id);
    if (op.kind !== "write" || !UNRESOLVED.includes(op.status)) {
      throw new GatewayError(
        "invalid_request",
        `Operation "${id}" is ${op.status}: only pending or unknown writes are resolved`,
      );
    }
    const at = now();
    db.prepare(
      `UPDATE gateway_ops SET status = 'resolved', resolution = ?, resolution_note = ?, resolved_at = ?, updated_at = ?
       WHERE id = ?`,
    ).run(resolution, note ?? null, at, at, id);
    return getOp(db, id);
  });
}

/**
 * Redacts what an earlier version stored in plain text: every operation of
 * `server` whose result, observed value or detail contains one of the redactor's
 * needles is rewritten through it, with `secure_delete` on so the old bytes are
 * zeroed rather than left in free pages, and the write-ahead log checkpointed.
 * Returns how many operations changed.
 */
export function redactStoredOps(db: DatabaseSync, server: string, redact: Redactor): number {
  if (redact.needles.length === 0) return 0;
  const hit = redact.needles.map(() => "(instr(result, ?) > 0 OR instr(observed, ?) > 0 OR instr(detail, ?) > 0)");
  const rows = db.prepare(
    `SELECT id, result, observed, detail FROM gateway_ops WHERE server = ? AND (${hit.join(" OR ")})`,
  ).all(server, ...redact.needles.flatMap((n) => [n, n, n])) as Row[];
  if (rows.length === 0) return 0;
  const previous = (db.prepare("PRAGMA secure_delete").get() as Row | undefined)?.secure_delete ?? 0;
  db.exec("PRAGMA secure_delete = ON");
  try {
    const json = (v: unknown) =>
      v === null || v === undefined ? null : JSON.stringify(redact.value(JSON.parse(String(v))));
    const update = db.prepare("UPDATE gateway_ops SET result = ?, observed = ?, detail = ? WHERE id = ?");
    transaction(db, () => {
      for (const r of rows) {
        update.run(
          json(r.result),
          json(r.observed),
          r.detail === null ? null : redact.text(String(r.detail)),
          String(r.id),
        );
      }
    });
    // The write-ahead log still holds the pages as they were: move them into the database and empty it (best effort:
    // another process reading at the moment keeps it from being truncated).
    db.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get();
  } finally {
    db.exec(`PRAGMA secure_delete = ${Number(previous) ? "ON" : "OFF"}`);
  }
  return rows.length;
}
