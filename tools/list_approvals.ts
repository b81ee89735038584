/**
 * `list_approvals` — proposed operations of this workspace: calls to tools
 * named in `[serve] require_approval` that were made over HTTP and wait for
 * approval (or were decided), each with what it would do.
 *
 * @module
 */
import { z } from "zod";
import { PROPOSAL_STATUSES } from "../lib/access/proposals.ts";
import { ProposalSchema } from "../lib/access/schemas.ts";
import { defineTool, READ_ONLY } from "./_tool.ts";

/** The `list_approvals` document. */
export const ApprovalsDocument = z.object({
  proposals: z.array(ProposalSchema),
  counts: z.record(z.string(), z.number()),
});

/** The `list_approvals` tool. */
export const listApprovalsTool = defineTool({
  name: "list_approvals",
  title: "Proposed operations waiting for approval",
  description:
    'List proposed operations of this workspace, newest first: calls to tools that need approval here, made over HTTP, each with its exact arguments and a preview of what it would do (the diff of a fix, the prompt and level of a delegation, the upstream call and its verification). status "pending" (default) shows those waiting; "all" shows decided ones too, with their outcome. approve_change or reject_change decides one.',
  level: "read",
  annotations: READ_ONLY,
  inputSchema: {
    status: z.enum([...PROPOSAL_STATUSES, "all"]).optional().describe('Which proposals (default "pending").'),
    id: z.string().min(1).optional().describe("Only this proposal."),
    limit: z.number().int().min(1).max(200).optional().describe("At most this many (default 20)."),
  },
  outputSchema: ApprovalsDocument,
  async handler(args, ctx) {
    const { accessStores, proposalView } = await import("../lib/access/mod.ts");
    const { proposals } = accessStores();
    const status = args.status ?? "pending";
    const list = args.id !== undefined
      ? [proposals.get(args.id)].filter((p) => p !== undefined && p.root === ctx.root)
      : proposals.list({ root: ctx.root, status: status === "all" ? undefined : [status], limit: args.limit ?? 20 });
    return { structured: { proposals: list.map((p) => proposalView(p!)), counts: proposals.counts(ctx.root) } };
  },
});
