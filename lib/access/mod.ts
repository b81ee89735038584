/**
 * Access to poly over HTTP: members and their roles, access tokens (hashes
 * only), tool levels and {@link allows}, and proposed operations that need
 * approval. See docs/http.md.
 *
 * @example
 * ```ts
 * import { accessStores, allows } from "./mod.ts";
 * const { access } = accessStores();
 * const auth = access.authenticate(bearer);
 * if (auth.ok && allows(auth.identity, "act")) { ... }
 * ```
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { openStore, storePath } from "../store/mod.ts";
import type { ApprovalStores } from "./approve.ts";
import { ProposalStore } from "./proposals.ts";
import { AccessStore } from "./store.ts";

export { AccessError, type AccessErrorKind } from "./errors.ts";
export {
  type Access,
  ACCESS_LEVELS,
  allowedLevels,
  allows,
  type Identity,
  refusalReason,
  type Role,
  ROLES,
  TOOL_LEVELS,
  type ToolLevel,
} from "./levels.ts";
export {
  AccessStore,
  type AuthFailure,
  type AuthResult,
  type CreateTokenOptions,
  MEMBER_NAME,
  type MemberRecord,
  type TokenRecord,
  TOUCH_EVERY_MS,
} from "./store.ts";
export { hashToken, parseDuration } from "./tokens.ts";
export {
  type ListProposals,
  type Preview,
  PROPOSAL_STATUSES,
  type ProposalRecord,
  type ProposalResult,
  type ProposalStatus,
  ProposalStore,
} from "./proposals.ts";
export {
  type Approval,
  type ApprovalStores,
  type ApprovedCall,
  type ApprovedCalls,
  type ApproveOptions,
  approveProposal,
  OWNER_STDIO,
  type ProposalContext,
  propose,
  type Proposer,
  rejectProposal,
} from "./approve.ts";
export { loadServeSection, SERVE_DEFAULTS, ServeSection, type ServeSectionValue } from "./config.ts";
export { DecisionDocument, ProposalDocument, ProposalSchema, type ProposalView, proposalView } from "./schemas.ts";

const dbs = new Map<string, DatabaseSync>();

/** The state database at `path` (default: the state home's), opened once per process. */
export function accessDb(path: string = storePath()): DatabaseSync {
  let db = dbs.get(path);
  if (!db) {
    db = openStore({ path });
    dbs.set(path, db);
  }
  return db;
}

/** Members, tokens and proposals over {@link accessDb}. */
export function accessStores(path?: string): ApprovalStores {
  const db = accessDb(path);
  return { access: new AccessStore(db), proposals: new ProposalStore(db) };
}
