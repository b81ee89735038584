/**
 * Members, tokens (never a secret or its hash) and proposed operations as the
 * Access pane shows them, read with the access store's own functions.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { PROPOSAL_STATUSES, ProposalStore } from "../../lib/access/proposals.ts";
import type { ProposalRecord, ProposalStatus } from "../../lib/access/proposals.ts";
import { AccessStore } from "../../lib/access/store.ts";
import type { MemberRecord, TokenRecord } from "../../lib/access/store.ts";

/** The access tables; the snapshot reads them only when all are present. */
export const ACCESS_TABLES = ["access_members", "access_tokens", "access_proposals"] as const;

/** Proposals the pane keeps besides every pending one (newest first). */
export const RECENT_DECIDED = 20;

/** The access part of the state database. */
export interface AccessSnapshot {
  members: MemberRecord[];
  /** Every token, revoked and expired ones included, newest first. */
  tokens: TokenRecord[];
  /** Pending proposals (oldest first: the queue), then the latest decided ones. */
  proposals: ProposalRecord[];
  counts: Record<ProposalStatus, number>;
}

/** An empty access snapshot (no tables yet). */
export function emptyAccess(): AccessSnapshot {
  return {
    members: [],
    tokens: [],
    proposals: [],
    counts: Object.fromEntries(PROPOSAL_STATUSES.map((s) => [s, 0])) as Record<ProposalStatus, number>,
  };
}

/** Reads members, tokens and proposals (never writes: last use is not touched). */
export function readAccess(db: DatabaseSync, now: () => number = Date.now): AccessSnapshot {
  const access = new AccessStore(db, { now });
  const proposals = new ProposalStore(db, { now });
  const pending = proposals.list({ status: ["pending"], limit: 1000 }).reverse();
  const decided = proposals.list({
    status: PROPOSAL_STATUSES.filter((s) => s !== "pending"),
    limit: RECENT_DECIDED,
  });
  return {
    members: access.listMembers(),
    tokens: access.listTokens({ all: true }),
    proposals: [...pending, ...decided],
    counts: proposals.counts(),
  };
}
