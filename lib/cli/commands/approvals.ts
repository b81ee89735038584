/**
 * `poly approvals list|show|approve|reject`: the owner's side of proposed
 * operations (calls to tools in `[serve] require_approval` made over HTTP).
 * Approving runs exactly what was proposed, as the proposing member, after the
 * same checks as approve_change. docs/http.md.
 *
 * @module
 */
import {
  argument,
  choice,
  command,
  constant,
  integer,
  message,
  object,
  option,
  optional,
  or,
  string,
  withDefault,
} from "../_optique.ts";
import { defineCommand } from "../command.ts";
import { formatOption, jsonText, writeDocument } from "../output.ts";
import { PROPOSAL_STATUSES } from "../../access/proposals.ts";

type Format = "human" | "json";
const STATUSES = [...PROPOSAL_STATUSES, "all"] as const;
const format = formatOption(["human", "json"]);
const id = argument(string({ metavar: "ID" }), { description: message`Proposal id (prop_...).` });
const note = optional(option("--note", string({ metavar: "TEXT" }), { description: message`Why, for the record.` }));

const list = command(
  "list",
  object({
    action: constant("list" as const),
    status: withDefault(
      option("--status", choice(STATUSES), { description: message`Which proposals to list` }),
      "pending" as const,
    ),
    here: option("--here", { description: message`Only proposals made in the current directory's workspace.` }),
    limit: optional(option("--limit", integer({ min: 1, max: 1000 }), { description: message`At most this many.` })),
    format,
  }),
  { brief: message`List proposed operations.` },
);
const show = command("show", object({ action: constant("show" as const), id, format }), {
  brief: message`Show one proposal: arguments and what it would do (the diff of a fix).`,
});
const approve = command("approve", object({ action: constant("approve" as const), id, note, format }), {
  brief: message`Approve a proposal and run exactly what was proposed.`,
});
const reject = command("reject", object({ action: constant("reject" as const), id, note, format }), {
  brief: message`Reject a proposal; nothing runs.`,
});

type ApprovalsValue =
  | { action: "list"; status: typeof STATUSES[number]; here: boolean; limit?: number; format: Format }
  | { action: "show"; id: string; format: Format }
  | { action: "approve" | "reject"; id: string; note?: string; format: Format };

/** Who decides from the command line. */
export const OWNER_CLI = "owner (cli)";

/** `poly approvals`. */
export const approvalsCommand = defineCommand<ApprovalsValue>({
  parser: command("approvals", or(list, show, approve, reject), {
    brief: message`List, show, approve and reject operations proposed over HTTP.`,
  }),
  async run(value, io) {
    const access = await import("../../access/mod.ts");
    const { renderProposal, renderProposals } = await import("../../access/render.ts");
    const stores = access.accessStores();
    const json = (doc: unknown) => writeDocument(io, doc, "json");
    if (value.action === "list") {
      const root = value.here ? await Deno.realPath(io.cwd) : undefined;
      const list = stores.proposals.list({
        status: value.status === "all" ? undefined : [value.status],
        root,
        limit: value.limit,
      });
      if (value.format === "json") await json({ proposals: list.map(access.proposalView) });
      else await io.stdout(renderProposals(list));
      return 0;
    }
    if (value.action === "show") {
      const p = stores.proposals.require(value.id);
      if (value.format === "json") await json({ proposal: access.proposalView(p) });
      else await io.stdout(renderProposal(p));
      return 0;
    }
    if (value.action === "reject") {
      const p = access.rejectProposal(stores, value.id, { by: OWNER_CLI, note: value.note });
      if (value.format === "json") await json({ proposal: access.proposalView(p) });
      else await io.stdout(`Rejected ${p.id} (${p.tool}): nothing ran.\n`);
      return 0;
    }
    const { approvedCalls } = await import("../../../tools/serve/approved.ts");
    const { proposal, result } = await access.approveProposal(stores, value.id, {
      by: OWNER_CLI,
      note: value.note,
      calls: approvedCalls(),
    });
    if (value.format === "json") {
      await json({ proposal: access.proposalView(proposal), result });
    } else {
      await io.stdout(
        `${proposal.status === "applied" ? "Applied" : "Ran, and it failed:"} ${proposal.id} (${proposal.tool}).\n` +
          (result.document ? jsonText(result.document) : result.text ?? ""),
      );
    }
    return result.isError ? 1 : 0;
  },
});
