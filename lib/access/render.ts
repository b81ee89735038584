/**
 * What `poly members`, `poly tokens` and `poly approvals` print for a person
 * (`--format json` prints the documents themselves). Token secrets never appear
 * here: only `poly tokens create` prints one, once.
 *
 * @module
 */
import type { ProposalRecord } from "./proposals.ts";
import type { MemberRecord, TokenRecord } from "./store.ts";

/** Left-aligned columns with a header; "" for no rows. */
export function table(header: string[], rows: string[][]): string {
  if (rows.length === 0) return "";
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join("  ").trimEnd();
  return [line(header), ...rows.map(line)].join("\n") + "\n";
}

/** `2026-11-29T19:59:43.123Z` → `2026-11-29 19:59Z`; `–` for none. */
export function when(iso: string | null | undefined): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}Z` : "–";
}

/** The member list. */
export function renderMembers(members: MemberRecord[], tokens: TokenRecord[]): string {
  if (members.length === 0) return "No members yet: add one with poly members add NAME --role member\n";
  return table(
    ["MEMBER", "ROLE", "ACTIVE TOKENS", "ADDED"],
    members.map((m) => [
      m.name,
      m.role,
      String(tokens.filter((t) => t.member === m.name && t.state === "active").length),
      when(m.created_at),
    ]),
  );
}

/** The token list (never a secret). */
export function renderTokens(tokens: TokenRecord[]): string {
  if (tokens.length === 0) return "No tokens: create one with poly tokens create --member NAME --access read\n";
  return table(
    ["ID", "NAME", "MEMBER", "ACCESS", "APPROVALS", "STATE", "EXPIRES", "LAST USED"],
    tokens.map((t) => [
      t.id,
      t.name,
      t.member,
      t.access,
      t.approvals ? "yes" : "no",
      t.state,
      t.expires_at ? when(t.expires_at) : "never",
      when(t.last_used_at),
    ]),
  );
}

/** The proposal list. */
export function renderProposals(proposals: ProposalRecord[]): string {
  if (proposals.length === 0) return "No proposals.\n";
  return table(
    ["ID", "TOOL", "STATUS", "BY", "CREATED", "WORKSPACE", "WHAT"],
    proposals.map((p) => [p.id, p.tool, p.status, p.proposed_by, when(p.created_at), p.root, p.preview.summary]),
  );
}

/** One proposal in full: facts, arguments, and the preview (the diff itself for a fix). */
export function renderProposal(p: ProposalRecord): string {
  const lines = [
    `Proposal ${p.id}: ${p.tool} (${p.status})`,
    `  proposed by  ${p.proposed_by}${p.token_id ? ` with ${p.token_id}` : ""} at ${when(p.created_at)}`,
    `  workspace    ${p.root}`,
    `  what         ${p.preview.summary}`,
  ];
  if (p.decided_by) lines.push(`  decided by   ${p.decided_by} at ${when(p.decided_at)}${p.note ? `: ${p.note}` : ""}`);
  if (p.result) lines.push(`  outcome      ${p.result.isError ? "failed" : "applied"}`);
  lines.push("", "Arguments:", JSON.stringify(p.arguments, null, 2));
  const { kind, summary: _s, diff, truncated, ...rest } = p.preview as Record<string, unknown>;
  if (kind === "diff") {
    lines.push("", typeof diff === "string" && diff ? diff.trimEnd() : "(no change)");
    if (truncated) lines.push("… (diff truncated)");
  } else {
    delete rest.arguments;
    if (Object.keys(rest).length) lines.push("", "Preview:", JSON.stringify(rest, null, 2));
  }
  return lines.join("\n") + "\n";
}
