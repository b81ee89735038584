/**
 * `reject_change` — rejects a pending proposal; nothing runs. Needs a token
 * with the approvals switch.
 *
 * @module
 */
import { z } from "zod";
import { DecisionDocument } from "../lib/access/schemas.ts";
import { defineTool } from "./_tool.ts";

/** The `reject_change` tool. */
export const rejectChangeTool = defineTool({
  name: "reject_change",
  title: "Reject a proposed operation",
  description:
    "Reject a pending proposal (see list_approvals): it is recorded as rejected, with your note, and never runs. Needs a token with the approvals switch.",
  level: "approve",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  inputSchema: {
    id: z.string().min(1).describe("The proposal id (prop_…)."),
    note: z.string().max(2000).optional().describe("Why, for the proposer."),
  },
  outputSchema: DecisionDocument,
  async handler(args, ctx) {
    const access = await import("../lib/access/mod.ts");
    if (!ctx.caller) {
      throw new access.AccessError(
        "forbidden",
        "reject_change is for HTTP callers with an approvals token: the owner rejects in poly dash or with poly approvals reject",
      );
    }
    const p = access.rejectProposal(access.accessStores(), args.id, {
      by: ctx.caller.member,
      note: args.note,
      root: ctx.root,
    });
    return { structured: { proposal: access.proposalView(p), message: `Proposal ${p.id} rejected: nothing ran` } };
  },
});
