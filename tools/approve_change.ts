/**
 * `approve_change` — approves a pending proposal and runs exactly what was
 * proposed (the stored arguments, as the proposing member), after checking the
 * proposer may still act and, for a fix or a rewrite, that the diff is still
 * the one proposed. Needs a token with the approvals switch.
 *
 * @module
 */
import { z } from "zod";
import { DecisionDocument } from "../lib/access/schemas.ts";
import { defineTool, MUTATING } from "./_tool.ts";

/** The `approve_change` tool. */
export const approveChangeTool = defineTool({
  name: "approve_change",
  title: "Approve a proposed operation and run it",
  description:
    "Approve a pending proposal (see list_approvals) and run exactly what was proposed: the stored arguments, in the stored workspace, as the member who proposed it. Refused when the proposer was removed, demoted to viewer or their token revoked; a fix or rewrite whose diff changed since it was proposed becomes stale and does not run. Returns the tool's own result; isError when it failed. Needs a token with the approvals switch.",
  level: "approve",
  annotations: { ...MUTATING, openWorldHint: true },
  task: true,
  inputSchema: {
    id: z.string().min(1).describe("The proposal id (prop_…)."),
    note: z.string().max(2000).optional().describe("Why, for the record."),
  },
  outputSchema: DecisionDocument,
  async handler(args, ctx) {
    const access = await import("../lib/access/mod.ts");
    if (!ctx.caller) {
      throw new access.AccessError(
        "forbidden",
        "approve_change is for HTTP callers with an approvals token: the owner approves in poly dash or with poly approvals approve",
      );
    }
    const { proposal, result } = await access.approveProposal(access.accessStores(), args.id, {
      by: ctx.caller.member,
      note: args.note,
      root: ctx.root,
      signal: ctx.signal,
      progress: ctx.progress,
      calls: (await import("./serve/approved.ts")).approvedCalls(),
    });
    return {
      structured: {
        proposal: access.proposalView(proposal),
        result,
        message: result.isError
          ? `Proposal ${proposal.id} ran ${proposal.tool} and it failed: see result`
          : `Proposal ${proposal.id} ran ${proposal.tool}: applied`,
      },
      isError: result.isError,
    };
  },
});
