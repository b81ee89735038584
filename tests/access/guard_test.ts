/**
 * guardTools(): the tools as HTTP serves them. Every call checks the caller's
 * level; tools in require_approval become proposals with their own schema;
 * require_approval may name only act tools.
 */
import assert from "node:assert/strict";
import type { z } from "zod";
import { freshStores, workspace } from "./_env.ts";
import { checkRequireApproval, guardTools } from "../../tools/serve/http_access.ts";
import { ProposalDocument } from "../../lib/access/schemas.ts";
import { TOOLS } from "../../tools/mod.ts";
import type { ToolContext } from "../../tools/_tool.ts";

const stores = await freshStores();
stores.access.addMember("ana", "member");
const guarded = guardTools(TOOLS, { requireApproval: new Set(["format_write"]), stores: () => stores });
const byName = (name: string) => guarded.find((t) => t.name === name)!;

function ctx(root: string, caller?: ToolContext["caller"]): ToolContext {
  return { root, caller, signal: new AbortController().signal, progress: () => Promise.resolve() };
}

Deno.test("guardTools() keeps every tool, and their levels match the issue's table", () => {
  assert.deepEqual(guarded.map((t) => t.name), TOOLS.map((t) => t.name));
  const levels = Object.fromEntries(TOOLS.map((t) => [t.name, t.level]));
  for (
    const name of [
      "lint",
      "format_check",
      "cache_stats",
      "rules",
      "config_show",
      "version",
      "explore",
      "read_slice",
      "web_lookup",
      "bridge_stats",
      "mcp_describe",
      "mcp_read",
      "mcp_servers",
      "whoami",
      "list_approvals",
    ]
  ) assert.equal(levels[name], "read", name);
  for (
    const name of [
      "lint_fix",
      "format_write",
      "cache_clean",
      "delegate",
      "fast_delegate",
      "fan_out",
      "follow_up",
      "rate",
      "bridge_stats_export",
      "mcp_call",
    ]
  ) assert.equal(levels[name], "act", name);
  assert.equal(levels.approve_change, "approve");
  assert.equal(levels.reject_change, "approve");
});

Deno.test("a guarded call without an identity, or below the tool's level, is refused before the handler", async () => {
  const root = await workspace({ "a.py": "x = 1\n" });
  await assert.rejects(byName("version").handler({}, ctx(root)), /without an identity/);
  const reader = { member: "ana", role: "member", access: "read" as const, approvals: false };
  await assert.rejects(byName("cache_clean").handler({}, ctx(root, reader)), /needs act access: the token has read/);
  await assert.rejects(byName("format_write").handler({}, ctx(root, reader)), /needs act access/);
  const out = await byName("lint").handler({ paths: ["a.py"] }, ctx(root, reader));
  assert.equal((out.structured as { summary: { checked: number } }).summary.checked, 1);
});

Deno.test("a tool needing approval returns a proposal document, not its own", async () => {
  const root = await workspace({ "b.py": "x = {  'a':1 }\n" });
  const def = byName("format_write");
  // The proposal document, with the identity block every result carries.
  assert.deepEqual(Object.keys((def.outputSchema as z.ZodObject).shape), [
    ...Object.keys(ProposalDocument.shape),
    "poly",
  ]);
  assert.equal(def.task, false);
  assert.match(def.description, /needs approval/);
  const actor = { member: "ana", role: "member", access: "act" as const, approvals: false, token: "tok_1" };
  const out = await def.handler({ paths: ["b.py"] }, ctx(root, actor));
  const doc = (def.outputSchema as z.ZodType).parse(out.structured) as z.infer<typeof ProposalDocument>;
  assert.equal(doc.proposal.status, "pending");
  assert.equal(doc.proposal.proposed_by, "ana");
  assert.match(doc.message, /approve_change \{"id": "prop_[0-9a-f]{12}"\}/);
  assert.equal(await Deno.readTextFile(`${root}/b.py`), "x = {  'a':1 }\n");
});

Deno.test("checkRequireApproval() accepts act tools only", () => {
  checkRequireApproval(["lint_fix", "delegate", "mcp_call"], TOOLS);
  assert.throws(() => checkRequireApproval(["lint"], TOOLS), /a read tool/);
  assert.throws(() => checkRequireApproval(["approve_change"], TOOLS), /an approve tool/);
  assert.throws(() => checkRequireApproval(["nope"], TOOLS), /"nope", which is not a tool: use some of lint_fix/);
});
