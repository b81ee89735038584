/**
 * Proposed operations: a call to a tool named in `[serve] require_approval`,
 * made over HTTP, recorded with its exact arguments and a preview of what it
 * would do, until someone approves (it then runs exactly those arguments) or
 * rejects it.
 *
 * Status: `pending` → `running` → `applied` (the tool ran and succeeded) or
 * `failed` (it ran and reported an error); `pending` → `rejected`; `pending` →
 * `stale` (what it would do changed since it was proposed: propose again).
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { AccessError } from "./errors.ts";

/** The states of a proposal. */
export const PROPOSAL_STATUSES = ["pending", "running", "applied", "failed", "rejected", "stale"] as const;
/** One state of a proposal. */
export type ProposalStatus = typeof PROPOSAL_STATUSES[number];

/** What a proposal would do, as shown to the person approving it. */
export interface Preview {
  /** diff (a fix or a rewrite), delegation, upstream_call, or call (the arguments only). */
  kind: "diff" | "delegation" | "upstream_call" | "call";
  /** One line: what approving it does. */
  summary: string;
  [key: string]: unknown;
}

/** The recorded outcome of an approved proposal. */
export interface ProposalResult {
  isError: boolean;
  /** The tool's structured document, when it returned one. */
  document?: Record<string, unknown>;
  /** The tool's text block (the refusal or error message when there is no document). */
  text?: string;
}

/** One proposal. */
export interface ProposalRecord {
  id: string;
  tool: string;
  arguments: Record<string, unknown>;
  root: string;
  default_config: string | null;
  preview: Preview;
  /** What approval re-checks (the digest of the diff), when anything. */
  guard: string | null;
  proposed_by: string;
  token_id: string | null;
  status: ProposalStatus;
  created_at: string;
  decided_by: string | null;
  decided_at: string | null;
  note: string | null;
  result: ProposalResult | null;
  finished_at: string | null;
}

/** A new proposal. */
export interface NewProposal {
  tool: string;
  arguments: Record<string, unknown>;
  root: string;
  defaultConfig?: string;
  preview: Preview;
  guard?: string;
  proposedBy: string;
  tokenId?: string;
}

interface Row {
  id: string;
  tool: string;
  arguments: string;
  root: string;
  default_config: string | null;
  preview: string;
  guard: string | null;
  proposed_by: string;
  token_id: string | null;
  status: ProposalStatus;
  created_at: string;
  decided_by: string | null;
  decided_at: string | null;
  note: string | null;
  result: string | null;
  finished_at: string | null;
}

function fromRow(r: Row): ProposalRecord {
  return {
    ...r,
    arguments: JSON.parse(r.arguments),
    preview: JSON.parse(r.preview),
    result: r.result === null ? null : JSON.parse(r.result),
  };
}

/** A fresh proposal id: `prop_` and 12 hex digits. */
export function newProposalId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `prop_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Filters of {@link ProposalStore.list}. */
export interface ListProposals {
  /** Only these states (default: all). */
  status?: readonly ProposalStatus[];
  /** Only proposals made in this workspace root. */
  root?: string;
  /** At most this many, newest first (default 50). */
  limit?: number;
}

/** Proposals over one open state database. */
export class ProposalStore {
  readonly db: DatabaseSync;
  readonly #now: () => number;

  constructor(db: DatabaseSync, options: { now?: () => number } = {}) {
    this.db = db;
    this.#now = options.now ?? Date.now;
  }

  #iso(): string {
    return new Date(this.#now()).toISOString();
  }

  /** Records a pending proposal. */
  create(p: NewProposal): ProposalRecord {
    const id = newProposalId();
    this.db.prepare(
      `INSERT INTO access_proposals (id, tool, arguments, root, default_config, preview, guard, proposed_by, token_id,
                                     status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
    ).run(
      id,
      p.tool,
      JSON.stringify(p.arguments),
      p.root,
      p.defaultConfig ?? null,
      JSON.stringify(p.preview),
      p.guard ?? null,
      p.proposedBy,
      p.tokenId ?? null,
      this.#iso(),
    );
    return this.get(id)!;
  }

  /** One proposal, or undefined. */
  get(id: string): ProposalRecord | undefined {
    const row = this.db.prepare("SELECT * FROM access_proposals WHERE id = ?").get(id) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  /** The proposal, or a not-found error. */
  require(id: string): ProposalRecord {
    const p = this.get(id);
    if (!p) {
      throw new AccessError("not_found", `No proposal "${id}": list_approvals (or poly approvals list) shows them`);
    }
    return p;
  }

  /** Proposals, newest first. */
  list(o: ListProposals = {}): ProposalRecord[] {
    const where: string[] = [];
    const params: string[] = [];
    if (o.status?.length) {
      where.push(`status IN (${o.status.map(() => "?").join(", ")})`);
      params.push(...o.status);
    }
    if (o.root !== undefined) {
      where.push("root = ?");
      params.push(o.root);
    }
    const sql = `SELECT * FROM access_proposals ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
                 ORDER BY created_at DESC, id LIMIT ${Math.max(1, Math.min(1000, o.limit ?? 50))}`;
    return (this.db.prepare(sql).all(...params) as unknown as Row[]).map(fromRow);
  }

  /** Counts by status (for listings and the dashboard). */
  counts(root?: string): Record<ProposalStatus, number> {
    const out = Object.fromEntries(PROPOSAL_STATUSES.map((s) => [s, 0])) as Record<ProposalStatus, number>;
    const rows =
      (root === undefined
        ? this.db.prepare("SELECT status, COUNT(*) AS n FROM access_proposals GROUP BY status").all()
        : this.db.prepare("SELECT status, COUNT(*) AS n FROM access_proposals WHERE root = ? GROUP BY status").all(
          root,
        )) as { status: ProposalStatus; n: number }[];
    for (const r of rows) out[r.status] = r.n;
    return out;
  }

  /**
   * Moves a pending proposal to `to`, atomically: exactly one of two approvers
   * racing wins; the other gets a conflict naming the state it found.
   */
  decide(id: string, to: "running" | "rejected" | "stale", by: string, note?: string): ProposalRecord {
    const r = this.db.prepare(
      `UPDATE access_proposals SET status = ?, decided_by = ?, decided_at = ?, note = ?
        WHERE id = ? AND status = 'pending'`,
    ).run(to, by, this.#iso(), note ?? null, id);
    if (Number(r.changes) === 0) {
      const p = this.require(id);
      throw new AccessError("conflict", `Proposal "${id}" is ${p.status}, not pending: nothing was done`);
    }
    return this.get(id)!;
  }

  /** Records the outcome of a running proposal. */
  finish(id: string, result: ProposalResult): ProposalRecord {
    this.db.prepare(
      "UPDATE access_proposals SET status = ?, result = ?, finished_at = ? WHERE id = ? AND status = 'running'",
    ).run(result.isError ? "failed" : "applied", JSON.stringify(result), this.#iso(), id);
    return this.require(id);
  }
}
