/**
 * The documents the access tools return: a proposal as the approver sees it,
 * the proposal a call needing approval returns, and the outcome of approving.
 *
 * @module
 */
import { z } from "zod";
import { PROPOSAL_STATUSES, type ProposalRecord } from "./proposals.ts";

/** What a proposal would do (see lib/access/preview.ts for each kind's fields). */
export const PreviewSchema = z.object({
  kind: z.enum(["diff", "delegation", "upstream_call", "call"]),
  summary: z.string(),
}).catchall(z.unknown());

/** The recorded outcome of an approved proposal. */
export const ResultSchema = z.object({
  isError: z.boolean(),
  document: z.record(z.string(), z.unknown()).optional(),
  text: z.string().optional(),
});

/** One proposal. */
export const ProposalSchema = z.object({
  id: z.string(),
  tool: z.string(),
  status: z.enum(PROPOSAL_STATUSES),
  arguments: z.record(z.string(), z.unknown()),
  root: z.string(),
  preview: PreviewSchema,
  proposed_by: z.string(),
  created_at: z.string(),
  decided_by: z.string().nullable(),
  decided_at: z.string().nullable(),
  note: z.string().nullable(),
  result: ResultSchema.nullable(),
  finished_at: z.string().nullable(),
});

/** A proposal as tools and `poly approvals --format json` show it (no internal guard). */
export type ProposalView = z.infer<typeof ProposalSchema>;

/** The document a call needing approval returns instead of running. */
export const ProposalDocument = z.object({
  proposal: ProposalSchema,
  message: z.string(),
});

/** `approve_change` and `reject_change`. */
export const DecisionDocument = z.object({
  proposal: ProposalSchema,
  /** The tool's result (approve_change only). */
  result: ResultSchema.optional(),
  message: z.string(),
});

/** The view of a record. */
export function proposalView(p: ProposalRecord): ProposalView {
  return {
    id: p.id,
    tool: p.tool,
    status: p.status,
    arguments: p.arguments,
    root: p.root,
    preview: p.preview,
    proposed_by: p.proposed_by,
    created_at: p.created_at,
    decided_by: p.decided_by,
    decided_at: p.decided_at,
    note: p.note,
    result: p.result,
    finished_at: p.finished_at,
  };
}
