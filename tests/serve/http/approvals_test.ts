/**
 * The approval flow over HTTP, end to end, against the real server process: a
 * tool named in `[serve] require_approval` proposes instead of running (with
 * the diff it would write), `list_approvals` shows it, only an approvals token
 * approves, approval runs exactly what was proposed, a proposal whose diff
 * changed becomes stale, a rejected one never runs, and a delegation or an
 * upstream call is shown with its prompt and level or its verification.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { connect, memberWithToken, startHttp } from "./_server.ts";
import { tempDir } from "../../_helpers/temp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

interface Result {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

interface Proposal {
  id: string;
  tool: string;
  status: string;
  arguments: Record<string, unknown>;
  proposed_by: string;
  decided_by: string | null;
  preview: { kind: string; summary: string; diff?: string; files?: { path: string }[]; [k: string]: unknown };
  result: { isError: boolean; document?: Record<string, unknown> } | null;
}

const text = (r: Result) => r.content.find((c) => c.type === "text")?.text ?? "";
const proposalOf = (r: Result) => (r.structuredContent as { proposal: Proposal }).proposal;

const UNFORMATTED = "x = {  'a':1 }\n";
const FORMATTED = 'x = {"a": 1}\n';

Deno.test("approvals over HTTP: propose, list, approve exactly, stale, reject", opts, async (t) => {
  const root = await tempDir({ prefix: "poly-http-approvals-" });
  await Deno.writeTextFile(
    join(root, "poly.toml"),
    '[serve]\nrequire_approval = ["lint_fix", "format_write", "delegate", "mcp_call"]\n',
  );
  await Deno.writeTextFile(join(root, "a.py"), "import os\nimport sys\n\nprint(sys.argv)\n");
  await Deno.writeTextFile(join(root, "b.py"), UNFORMATTED);
  await Deno.writeTextFile(join(root, "c.py"), UNFORMATTED);
  await Deno.writeTextFile(join(root, "d.py"), UNFORMATTED);
  const server = await startHttp({ root });
  const ana = await connect(server.url, memberWithToken(server.access, "ana", "member", { access: "act" }));
  const bob = await connect(
    server.url,
    memberWithToken(server.access, "bob", "admin", { access: "read", approvals: true }),
  );
  try {
    let fix: Proposal;
    await t.step("lint_fix over HTTP proposes the diff it would write and changes nothing", async () => {
      const { tools } = await ana.listTools();
      const lintFix = tools.find((x) => x.name === "lint_fix")!;
      assert.match(lintFix.description ?? "", /needs approval/);
      assert.ok((lintFix.outputSchema as { properties: Record<string, unknown> }).properties.proposal);
      const r = await ana.callTool({ name: "lint_fix", arguments: { paths: ["a.py"] } }) as Result;
      assert.equal(r.isError, false, text(r));
      fix = proposalOf(r);
      assert.equal(fix.status, "pending");
      assert.equal(fix.tool, "lint_fix");
      assert.equal(fix.proposed_by, "ana");
      assert.deepEqual(fix.arguments, { paths: ["a.py"] });
      assert.equal(fix.preview.kind, "diff");
      assert.equal(
        fix.preview.diff,
        "--- a/a.py\n+++ b/a.py\n@@ -1,4 +1,3 @@\n-import os\n import sys\n \n print(sys.argv)\n",
      );
      assert.equal(await Deno.readTextFile(join(root, "a.py")), "import os\nimport sys\n\nprint(sys.argv)\n");
    });

    await t.step("list_approvals shows it to any token; approving needs the approvals switch", async () => {
      const listed = await ana.callTool({ name: "list_approvals", arguments: {} }) as Result;
      const list = (listed.structuredContent as { proposals: Proposal[] }).proposals;
      assert.deepEqual(list.map((p) => p.id), [fix.id]);
      assert.equal(list[0].preview.diff, fix.preview.diff);
      const refused = await ana.callTool({ name: "approve_change", arguments: { id: fix.id } }) as Result;
      assert.equal(refused.isError, true);
      assert.match(text(refused), /approvals switch/);
      assert.equal(server.proposals.get(fix.id)?.status, "pending");
    });

    await t.step("approval runs exactly what was proposed, as the proposer, once", async () => {
      const r = await bob.callTool({ name: "approve_change", arguments: { id: fix.id, note: "fine" } }) as Result;
      assert.equal(r.isError, false, text(r));
      const doc = r.structuredContent as {
        proposal: Proposal;
        result: { isError: boolean; document: { mode: string } };
      };
      assert.equal(doc.proposal.status, "applied");
      assert.equal(doc.proposal.decided_by, "bob");
      assert.equal(doc.result.document.mode, "fix", "the result is lint_fix's own report");
      assert.equal(await Deno.readTextFile(join(root, "a.py")), "import sys\n\nprint(sys.argv)\n");
      const again = await bob.callTool({ name: "approve_change", arguments: { id: fix.id } }) as Result;
      assert.equal(again.isError, true);
      assert.match(text(again), /is applied, not pending/);
    });

    await t.step("a proposal whose diff changed since becomes stale and does not run", async () => {
      const r = await ana.callTool({ name: "format_write", arguments: { paths: ["b.py"] } }) as Result;
      const p = proposalOf(r);
      assert.match(p.preview.diff ?? "", /\+x = \{"a": 1\}/);
      await Deno.writeTextFile(join(root, "b.py"), "y = {  'b':2 }\n");
      const approve = await bob.callTool({ name: "approve_change", arguments: { id: p.id } }) as Result;
      assert.equal(approve.isError, true);
      assert.match(text(approve), /stale/);
      assert.equal(server.proposals.get(p.id)?.status, "stale");
      assert.equal(await Deno.readTextFile(join(root, "b.py")), "y = {  'b':2 }\n", "nothing was written");
    });

    await t.step("a rejected proposal never runs", async () => {
      const p = proposalOf(await ana.callTool({ name: "format_write", arguments: { paths: ["c.py"] } }) as Result);
      const own = await ana.callTool({ name: "reject_change", arguments: { id: p.id } }) as Result;
      assert.equal(own.isError, true, "rejecting needs the approvals switch too");
      const r = await bob.callTool({ name: "reject_change", arguments: { id: p.id, note: "not now" } }) as Result;
      assert.equal(r.isError, false, text(r));
      assert.equal((r.structuredContent as { proposal: Proposal }).proposal.status, "rejected");
      const late = await bob.callTool({ name: "approve_change", arguments: { id: p.id } }) as Result;
      assert.equal(late.isError, true);
      assert.equal(await Deno.readTextFile(join(root, "c.py")), UNFORMATTED);
    });

    await t.step("a proposer demoted to viewer cannot have their proposal run", async () => {
      const p = proposalOf(await ana.callTool({ name: "format_write", arguments: { paths: ["d.py"] } }) as Result);
      server.access.setRole("ana", "viewer");
      const r = await bob.callTool({ name: "approve_change", arguments: { id: p.id } }) as Result;
      assert.equal(r.isError, true);
      assert.match(text(r), /now a viewer/);
      server.access.setRole("ana", "member");
      const ok = await bob.callTool({ name: "approve_change", arguments: { id: p.id } }) as Result;
      assert.equal(ok.isError, false, text(ok));
      assert.equal(await Deno.readTextFile(join(root, "d.py")), FORMATTED);
    });

    await t.step("a delegation is proposed with its prompt and level; nothing runs", async () => {
      const r = await ana.callTool({
        name: "delegate",
        arguments: { prompt: "Rename x to y in b.py", level: 2 },
      }) as Result;
      assert.equal(r.isError, false, text(r));
      const p = proposalOf(r);
      assert.equal(p.preview.kind, "delegation");
      assert.equal(p.preview.prompt, "Rename x to y in b.py");
      assert.equal(p.preview.level, 2);
      assert.ok((p.preview.resolved as { engine: string }).engine, "the level's engine is shown");
      const sessions = await bob.callTool({ name: "list_approvals", arguments: { id: p.id } }) as Result;
      assert.equal((sessions.structuredContent as { proposals: Proposal[] }).proposals[0].status, "pending");
    });

    await t.step("an upstream call is proposed with its verification and grant state", async () => {
      const r = await ana.callTool({
        name: "mcp_call",
        arguments: {
          target: "tracker/create_issue",
          schema_sha256: "a".repeat(64),
          arguments: { title: "x" },
          verification: { tool: "get_issue", arguments: { id: 1 }, result_path: "$.title", expected: "x" },
        },
      }) as Result;
      assert.equal(r.isError, false, text(r));
      const p = proposalOf(r);
      assert.equal(p.preview.kind, "upstream_call");
      assert.equal(p.preview.target, "tracker/create_issue");
      assert.deepEqual((p.preview.verification as { expected: unknown }).expected, "x");
      assert.match(p.preview.summary, /get_issue at \$\.title expecting "x"/);
      assert.ok(
        "grant" in p.preview || "grant_error" in p.preview,
        "the grant's state (or why it is unknown) is shown",
      );
    });

    await t.step("list_approvals status all shows decided proposals with their outcome", async () => {
      const r = await bob.callTool({ name: "list_approvals", arguments: { status: "all" } }) as Result;
      const doc = r.structuredContent as { proposals: Proposal[]; counts: Record<string, number> };
      assert.deepEqual(doc.counts, { pending: 2, running: 0, applied: 2, failed: 0, rejected: 1, stale: 1 });
      const applied = doc.proposals.find((p) => p.id === fix.id)!;
      assert.equal(applied.result?.isError, false);
    });
  } finally {
    await ana.close();
    await bob.close();
    await server.stop();
  }
});
