/**
 * Access: who may use `poly mcp --http` — members and their roles, tokens
 * (names, levels, state, last use; never a secret) — and the proposed
 * operations waiting for approval. On a pending proposal, `a` approves it (it
 * runs exactly what was proposed, as the proposer) and `x` rejects it; enter
 * shows the proposal in full, its diff included.
 *
 * @module
 */
import type { ProposalRecord } from "../../lib/access/proposals.ts";
import type { AccessSnapshot } from "../data/access.ts";
import type { Section, Snapshot } from "../data/types.ts";
import { BLANK, type Line, line, pairs, seg, table } from "../lines.ts";
import type { Tone } from "../theme.ts";
import { isLayout, longTime, noStateLines, sectionData, shortTime } from "./_common.ts";
import type { Layout, Pane, PaneProps, PreparedAction } from "./types.ts";

/** Who decides from the dashboard. */
export const OWNER_DASHBOARD = "owner (dashboard)";

/** The snapshot's access section (absent until the loader reads it). */
export function accessSection(s: Snapshot): Section<AccessSnapshot> {
  return (s as Snapshot & { access?: Section<AccessSnapshot> }).access ?? {};
}

function statusTone(status: string): Tone | undefined {
  if (status === "pending") return "warn";
  if (status === "applied") return "good";
  if (status === "failed" || status === "stale") return "bad";
  if (status === "rejected") return "dim";
  return undefined;
}

function tokenTone(state: string): Tone | undefined {
  return state === "active" ? "good" : "dim";
}

/** The rows, in order: members, tokens, proposals (only proposals can be acted on). */
function sections(a: AccessSnapshot, p: PaneProps): { rows: Line[]; proposalAt: number } {
  const members = table(
    [
      { title: "MEMBER", width: 16, flex: true },
      { title: "ROLE", width: 7 },
      { title: "TOKENS", width: 6, align: "right" },
      { title: "ADDED", width: 11 },
    ],
    a.members.map((m) => [
      seg(m.name, "accent", true),
      seg(m.role, m.role === "viewer" ? "dim" : undefined),
      String(a.tokens.filter((t) => t.member === m.name && t.state === "active").length),
      seg(shortTime(p.clock, m.created_at), "dim"),
    ]),
    p.width,
  );
  const tokens = table(
    [
      { title: "TOKEN", width: 14, flex: true },
      { title: "ID", width: 16 },
      { title: "MEMBER", width: 10 },
      { title: "ACCESS", width: 6 },
      { title: "APPROVE", width: 7 },
      { title: "STATE", width: 7 },
      { title: "LAST USED", width: 11 },
    ],
    a.tokens.map((t) => [
      t.name,
      seg(t.id, "dim"),
      t.member,
      t.access,
      t.approvals ? "yes" : "no",
      seg(t.state, tokenTone(t.state)),
      seg(shortTime(p.clock, t.last_used_at), "dim"),
    ]),
    p.width,
  );
  const proposals = table(
    [
      { title: "PROPOSAL", width: 17 },
      { title: "TOOL", width: 12 },
      { title: "STATUS", width: 8 },
      { title: "BY", width: 10 },
      { title: "CREATED", width: 11 },
      { title: "WHAT", width: 20, flex: true },
    ],
    a.proposals.map((x) => [
      x.id,
      x.tool,
      seg(x.status, statusTone(x.status)),
      x.proposed_by,
      seg(shortTime(p.clock, x.created_at), "dim"),
      x.preview.summary,
    ]),
    p.width,
  );
  const rows: Line[] = [];
  rows.push(line(`Members (${a.members.length})`, "title", true), members.header, ...members.rows, BLANK);
  rows.push(line(`Tokens (${a.tokens.length})`, "title", true), tokens.header, ...tokens.rows, BLANK);
  rows.push(line(`Proposals (${a.counts.pending} pending)`, "title", true), proposals.header);
  const proposalAt = rows.length;
  rows.push(...proposals.rows);
  return { rows, proposalAt };
}

function layout(p: PaneProps): Layout {
  const got = sectionData(accessSection(p.snapshot), p.clock, () => noStateLines(p.snapshot, "Members and tokens"));
  if (isLayout(got)) return got;
  const a = got.data;
  if (a.members.length === 0 && a.tokens.length === 0 && a.proposals.length === 0) {
    return {
      head: [line("Nobody may use poly mcp --http yet.")],
      rows: [],
      mode: "select",
      empty: [line("Add a member with poly members add NAME, then poly tokens create --member NAME.", "dim")],
    };
  }
  const active = a.tokens.filter((t) => t.state === "active").length;
  return {
    head: [
      line(
        `${a.members.length} ${a.members.length === 1 ? "member" : "members"} · ${active} active ${
          active === 1 ? "token" : "tokens"
        } · ${a.counts.pending} pending ${a.counts.pending === 1 ? "approval" : "approvals"}`,
      ),
      ...got.stale,
      BLANK,
    ],
    rows: sections(a, p).rows,
    mode: "select",
  };
}

/** The proposal at the cursor, if the cursor is on one. */
export function selectedProposal(p: PaneProps): ProposalRecord | undefined {
  const a = accessSection(p.snapshot).data;
  if (!a) return undefined;
  const { proposalAt } = sections(a, p);
  return a.proposals[p.cursor - proposalAt];
}

function detail(p: PaneProps): Layout | undefined {
  const x = selectedProposal(p);
  if (!x) return undefined;
  const facts = pairs([
    ["status", [seg(x.status, statusTone(x.status))]],
    ["proposed by", `${x.proposed_by}${x.token_id ? ` (${x.token_id})` : ""} at ${longTime(p.clock, x.created_at)}`],
    ["workspace", x.root],
    ["what", x.preview.summary],
    ...(x.decided_by
      ? [["decided by", `${x.decided_by} at ${longTime(p.clock, x.decided_at)}`] as [string, string]]
      : []),
    ...(x.note ? [["note", x.note] as [string, string]] : []),
    ...(x.result ? [["outcome", x.result.isError ? "failed" : "applied"] as [string, string]] : []),
  ]);
  const rows: Line[] = [...facts, BLANK, line("Arguments", "title", true)];
  for (const l of JSON.stringify(x.arguments, null, 2).split("\n")) rows.push(line(l));
  const diff = x.preview.kind === "diff" ? String(x.preview.diff ?? "") : "";
  if (x.preview.kind === "diff") {
    rows.push(BLANK, line("Diff", "title", true));
    for (const l of (diff || "(no change)").replace(/\n$/, "").split("\n")) {
      rows.push(
        line(l, l.startsWith("+") ? "good" : l.startsWith("-") ? "bad" : l.startsWith("@@") ? "accent" : undefined),
      );
    }
    if (x.preview.truncated) rows.push(line("… (diff truncated)", "dim"));
  } else {
    const { kind: _k, summary: _s, arguments: _a, ...rest } = x.preview as Record<string, unknown>;
    if (Object.keys(rest).length) {
      rows.push(BLANK, line("Preview", "title", true));
      for (const l of JSON.stringify(rest, null, 2).split("\n")) rows.push(line(l));
    }
  }
  return { head: [line(`Proposal ${x.id}: ${x.tool}`, "title", true), BLANK], rows, mode: "scroll" };
}

function decide(p: PaneProps, verb: "approve" | "reject"): PreparedAction | string {
  const x = selectedProposal(p);
  if (!x) return "Select a pending proposal (under Proposals) first.";
  if (x.status !== "pending") return `Proposal ${x.id} is ${x.status}: only pending ones can be decided.`;
  const statePath = p.snapshot.overview.statePath;
  return {
    question: verb === "approve"
      ? `Approve ${x.id} and run ${x.tool} as ${x.proposed_by}? ${x.preview.summary}`
      : `Reject ${x.id} (${x.tool} by ${x.proposed_by})? Nothing will run.`,
    async run() {
      const access = await import("../../lib/access/mod.ts");
      const stores = access.accessStores(statePath);
      try {
        if (verb === "reject") {
          access.rejectProposal(stores, x.id, { by: OWNER_DASHBOARD });
          return `Rejected ${x.id}: nothing ran.`;
        }
        const { approvedCalls } = await import("../../tools/serve/approved.ts");
        const { proposal } = await access.approveProposal(stores, x.id, {
          by: OWNER_DASHBOARD,
          calls: approvedCalls(),
        });
        return proposal.status === "applied"
          ? `Approved ${x.id}: ${x.tool} ran and applied.`
          : `Approved ${x.id}: ${x.tool} ran and failed (enter shows the outcome).`;
      } catch (e) {
        return `Not done: ${e instanceof Error ? e.message : String(e)}`;
      }
    },
  };
}

/** The Access pane. */
export const accessPane: Pane = {
  id: "access",
  title: "Access",
  layout,
  detail,
  actions: [
    {
      key: "a",
      hint: "approve",
      description: "approve the selected pending proposal and run it (asks first)",
      prepare: (p) => decide(p, "approve"),
    },
    {
      key: "x",
      hint: "reject",
      description: "reject the selected pending proposal (asks first)",
      prepare: (p) => decide(p, "reject"),
    },
  ],
};
