/**
 * Proposing, approving and rejecting: the one implementation behind the HTTP
 * proposal tools, `approve_change` / `reject_change`, `poly approvals` and the
 * dashboard.
 *
 * Approval runs exactly what was proposed: the stored arguments, in the stored
 * workspace root and config, through the same tool handler the CLI's library
 * call sits behind, as the proposing member. The caller passes how a tool call
 * runs ({@link ApprovedCalls}: the MCP edge's, `tools/serve/approved.ts`), so
 * this folder names no tool. Before it runs:
 *
 * - the proposer must still be a member who may act (not removed, not demoted to
 *   viewer) and the token used must not have been revoked;
 * - a proposal with a guard (the diff of a fix or a rewrite) is previewed again;
 *   if the diff is not byte-for-byte the one proposed (a file changed, a file
 *   appeared, the config changed), the proposal becomes `stale` and nothing runs.
 *
 * @module
 */
import { AccessError } from "./errors.ts";
import { allows } from "./levels.ts";
import { previewOf } from "./preview.ts";
import type { ProposalRecord, ProposalResult, ProposalStore } from "./proposals.ts";
import type { AccessStore } from "./store.ts";

/** What proposing and approving need. */
export interface ApprovalStores {
  access: AccessStore;
  proposals: ProposalStore;
}

/**
 * Who proposes over stdio, where there is no token: the owner's own session (a host or
 * a delegated worker). Not a valid member name, so it cannot collide with one; such a
 * proposal runs as the owner when approved.
 */
export const OWNER_STDIO = "owner (stdio)";

/** Who proposes: the caller of the HTTP request (or {@link OWNER_STDIO}). */
export interface Proposer {
  member: string;
  token?: string;
}

/** Where a call is proposed: the tool call's workspace root, fallback config and signal. */
export interface ProposalContext {
  root: string;
  defaultConfig?: string;
  signal: AbortSignal;
}

/** Records a proposal for calling the tool `def` with `args` (nothing runs). */
export async function propose(
  stores: ApprovalStores,
  def: { name: string },
  args: Record<string, unknown>,
  ctx: ProposalContext,
  by: Proposer,
): Promise<ProposalRecord> {
  const { preview, guard } = await previewOf(def.name, args, ctx);
  return stores.proposals.create({
    tool: def.name,
    arguments: args,
    root: ctx.root,
    defaultConfig: ctx.defaultConfig,
    preview,
    guard,
    proposedBy: by.member,
    tokenId: by.token,
  });
}

/** Reports progress (0..total) of an approved call. */
export type Progress = (done: number, total?: number, message?: string) => Promise<void>;

/** An approved call, as it runs: the stored arguments, root and config, as the proposer. */
export interface ApprovedCall {
  tool: string;
  arguments: Record<string, unknown>;
  root: string;
  defaultConfig?: string;
  /** The proposer as a tool call's caller (undefined: the owner over stdio). */
  caller?: { member: string; role: string; access: "act"; approvals: boolean; token?: string };
  signal: AbortSignal;
  progress: Progress;
  /** Which proposal, who decided, and its preview (the tool sees it as `ToolContext.approval`). */
  approval: { proposal: string; by: string; preview: Record<string, unknown> };
}

/** How approved calls run: the MCP edge's tool calls (`approvedCalls()` in tools/serve/approved.ts). */
export interface ApprovedCalls {
  /** Whether a tool of that name still exists (checked before anything is re-previewed or runs). */
  has(tool: string): Promise<boolean>;
  /** Runs the call through the tool's handler and returns its outcome. */
  run(call: ApprovedCall): Promise<ProposalResult>;
}

/** Options of {@link approveProposal}. */
export interface ApproveOptions {
  /** Who approves: a member name, or `owner (cli)` / `owner (dashboard)`. */
  by: string;
  note?: string;
  /** Refuse proposals made in another workspace root (an HTTP server approves only its own). */
  root?: string;
  signal?: AbortSignal;
  progress?: Progress;
  /** How the approved call runs (`approvedCalls()` from tools/serve/approved.ts). */
  calls: ApprovedCalls;
}

/** The outcome of an approval. */
export interface Approval {
  proposal: ProposalRecord;
  result: ProposalResult;
}

function scoped(p: ProposalRecord, root: string | undefined): void {
  if (root !== undefined && p.root !== root) {
    throw new AccessError(
      "forbidden",
      `Proposal "${p.id}" was made in another workspace ("${p.root}"): approve it there, or with poly approvals`,
    );
  }
}

function pending(p: ProposalRecord): void {
  if (p.status !== "pending") throw new AccessError("conflict", `Proposal "${p.id}" is ${p.status}, not pending`);
}

/** The proposer as they are now (undefined: the owner over stdio), or why the proposal may no longer run. */
function proposerNow(stores: ApprovalStores, p: ProposalRecord): ApprovedCall["caller"] {
  if (p.proposed_by === OWNER_STDIO && p.token_id === null) return undefined;
  const member = stores.access.getMember(p.proposed_by);
  if (!member) throw new AccessError("forbidden", `The proposer "${p.proposed_by}" is no longer a member: reject it`);
  const token = p.token_id ? stores.access.getToken(p.token_id) : undefined;
  if (token?.revoked_at) {
    throw new AccessError("forbidden", `The token "${token.name}" it was proposed with has been revoked: reject it`);
  }
  const caller = {
    member: member.name,
    role: member.role,
    access: "act" as const,
    approvals: false,
    token: p.token_id ?? undefined,
  };
  if (!allows(caller, "act")) {
    throw new AccessError(
      "forbidden",
      `The proposer "${member.name}" is now a ${member.role} and may not act: reject it`,
    );
  }
  return caller;
}

/** Approves a pending proposal and runs it; see the module doc for what is checked first. */
export async function approveProposal(stores: ApprovalStores, id: string, o: ApproveOptions): Promise<Approval> {
  const p = stores.proposals.require(id);
  scoped(p, o.root);
  pending(p);
  const caller = proposerNow(stores, p);
  if (!(await o.calls.has(p.tool))) {
    throw new AccessError("forbidden", `Tool "${p.tool}" no longer exists: reject the proposal`);
  }
  const signal = o.signal ?? new AbortController().signal;
  if (p.guard) {
    const again = await previewOf(p.tool, p.arguments, {
      root: p.root,
      defaultConfig: p.default_config ?? undefined,
      signal,
    });
    if (again.guard !== p.guard) {
      const note = "What it would do changed since it was proposed (a file or the config changed): nothing ran";
      stores.proposals.decide(id, "stale", o.by, note);
      throw new AccessError("stale", `Proposal "${id}" is stale: ${note.toLowerCase()}; propose it again`);
    }
  }
  stores.proposals.decide(id, "running", o.by, o.note);
  const result = await o.calls.run({
    tool: p.tool,
    arguments: p.arguments,
    root: p.root,
    defaultConfig: p.default_config ?? undefined,
    caller,
    signal,
    progress: o.progress ?? (() => Promise.resolve()),
    approval: { proposal: p.id, by: o.by, preview: p.preview },
  });
  return { proposal: stores.proposals.finish(id, result), result };
}

/** Rejects a pending proposal (nothing runs). */
export function rejectProposal(
  stores: ApprovalStores,
  id: string,
  o: { by: string; note?: string; root?: string },
): ProposalRecord {
  const p = stores.proposals.require(id);
  scoped(p, o.root);
  pending(p);
  return stores.proposals.decide(id, "rejected", o.by, o.note);
}
