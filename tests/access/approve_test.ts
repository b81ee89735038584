/**
 * propose() / approveProposal() / rejectProposal() in process, with the real
 * tools: a proposal changes nothing, approval runs exactly what was proposed
 * once, a changed diff makes it stale, and the proposer must still be able to act.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { freshStores, workspace } from "./_env.ts";
import { type ApprovalStores, approveProposal, propose, rejectProposal } from "../../lib/access/approve.ts";
import { TOOLS } from "../../tools/mod.ts";
import type { ToolDef } from "../../tools/_tool.ts";
import { approvedCalls } from "../../tools/serve/approved.ts";

const tool = (name: string) => TOOLS.find((t) => t.name === name) as ToolDef;
const UNFORMATTED = "x = {  'a':1 }\n";
const FORMATTED = 'x = {"a": 1}\n';

async function setup(files: Record<string, string>) {
  const stores = await freshStores();
  stores.access.addMember("ana", "member");
  const { record } = stores.access.createToken({ member: "ana", access: "act" });
  const root = await workspace(files);
  const ctx = { root, signal: new AbortController().signal };
  const by = { member: "ana", token: record.id };
  return { stores, root, ctx, by, tokenId: record.id };
}

const approve = (stores: ApprovalStores, id: string) =>
  approveProposal(stores, id, { by: "bob", calls: approvedCalls() });

Deno.test("a lint_fix proposal changes nothing; approval writes exactly its diff, once", async () => {
  const { stores, root, ctx, by } = await setup({ "a.py": "import os\nx = 1\n" });
  const p = await propose(stores, tool("lint_fix"), { paths: ["a.py"] }, ctx, by);
  assert.equal(p.status, "pending");
  assert.equal(p.preview.kind, "diff");
  assert.equal(p.preview.diff, "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,1 @@\n-import os\n x = 1\n");
  assert.deepEqual(p.preview.files, [{ path: "a.py", additions: 0, deletions: 1 }]);
  assert.ok(p.guard);
  assert.equal(await Deno.readTextFile(join(root, "a.py")), "import os\nx = 1\n");
  const { proposal, result } = await approve(stores, p.id);
  assert.equal(proposal.status, "applied");
  assert.equal(proposal.decided_by, "bob");
  assert.equal(result.isError, false);
  assert.equal((result.document as { summary: { fixed: number } }).summary.fixed, 1);
  assert.equal(await Deno.readTextFile(join(root, "a.py")), "x = 1\n");
  await assert.rejects(approve(stores, p.id), /is applied, not pending/);
});

Deno.test("a proposal goes stale when a file it covers changes or a new one appears", async () => {
  const { stores, root, ctx, by } = await setup({ "b.py": UNFORMATTED, "c.py": UNFORMATTED });
  const one = await propose(stores, tool("format_write"), { paths: ["b.py"] }, ctx, by);
  await Deno.writeTextFile(join(root, "b.py"), "y = {  'b':2 }\n");
  await assert.rejects(approve(stores, one.id), /is stale/);
  assert.equal(stores.proposals.get(one.id)?.status, "stale");
  assert.equal(await Deno.readTextFile(join(root, "b.py")), "y = {  'b':2 }\n");

  const whole = await propose(stores, tool("format_write"), {}, ctx, by);
  assert.equal((whole.preview.files as unknown[]).length, 2);
  await Deno.writeTextFile(join(root, "d.py"), UNFORMATTED);
  await assert.rejects(approve(stores, whole.id), /is stale/);
  assert.equal(await Deno.readTextFile(join(root, "c.py")), UNFORMATTED, "nothing was written");
});

Deno.test("two approvers racing: exactly one runs it", async () => {
  const { stores, root, ctx, by } = await setup({ "r.py": UNFORMATTED });
  const p = await propose(stores, tool("format_write"), { paths: ["r.py"] }, ctx, by);
  const [a, b] = await Promise.allSettled([approve(stores, p.id), approve(stores, p.id)]);
  const outcomes = [a.status, b.status].sort();
  assert.deepEqual(outcomes, ["fulfilled", "rejected"]);
  const rejected = (a.status === "rejected" ? a : b) as PromiseRejectedResult;
  assert.match(String(rejected.reason), /not pending/);
  assert.equal(await Deno.readTextFile(join(root, "r.py")), FORMATTED);
});

Deno.test("rejected proposals never run; other workspaces and lost rights are refused", async () => {
  const { stores, root, ctx, by, tokenId } = await setup({ "e.py": UNFORMATTED });
  const r = await propose(stores, tool("format_write"), { paths: ["e.py"] }, ctx, by);
  assert.equal(rejectProposal(stores, r.id, { by: "bob", note: "no" }).status, "rejected");
  await assert.rejects(approve(stores, r.id), /is rejected, not pending/);

  const p = await propose(stores, tool("format_write"), { paths: ["e.py"] }, ctx, by);
  await assert.rejects(
    approveProposal(stores, p.id, { by: "bob", root: "/elsewhere", calls: approvedCalls() }),
    /another workspace/,
  );
  assert.throws(() => rejectProposal(stores, p.id, { by: "bob", root: "/elsewhere" }), /another workspace/);
  stores.access.setRole("ana", "viewer");
  await assert.rejects(approve(stores, p.id), /now a viewer and may not act/);
  stores.access.setRole("ana", "member");
  stores.access.revokeToken(tokenId);
  await assert.rejects(approve(stores, p.id), /has been revoked/);
  stores.access.removeMember("ana");
  await assert.rejects(approve(stores, p.id), /no longer a member/);
  assert.equal(stores.proposals.get(p.id)?.status, "pending", "refusals leave it pending for a reject");
  assert.equal(await Deno.readTextFile(join(root, "e.py")), UNFORMATTED);
});

Deno.test("a tool without a diff preview is proposed with its exact arguments", async () => {
  const { stores, ctx, by } = await setup({});
  const p = await propose(stores, tool("cache_clean"), { format: "json" }, ctx, by);
  assert.equal(p.preview.kind, "call");
  assert.deepEqual(p.preview.arguments, { format: "json" });
  assert.equal(p.guard, null);
  const { result } = await approve(stores, p.id);
  assert.equal(result.isError, false);
  assert.equal(stores.proposals.get(p.id)?.status, "applied");
});

Deno.test("a failing run is recorded as failed with the tool's own result", async () => {
  const { stores, ctx, by } = await setup({ "ok.py": "x = 1\n" });
  const p = await propose(stores, tool("lint_fix"), { paths: ["ok.py"] }, ctx, by);
  assert.match(p.preview.summary, /Would change no file/);
  await Deno.remove(join(ctx.root, "ok.py"));
  const { proposal, result } = await approve(stores, p.id);
  assert.equal(result.isError, true, "a path that no longer exists is a run error");
  assert.equal(proposal.status, "failed");
});
