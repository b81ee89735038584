/**
 * The dashboard's Access pane, drawn from a real state database: members,
 * tokens without secrets, pending proposals; enter shows a diff; `a` approves
 * (running the proposal) and `x` rejects.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { freshStores, workspace } from "./_env.ts";
import { propose } from "../../lib/access/approve.ts";
import { readAccess } from "../../tui/data/access.ts";
import { accessPane } from "../../tui/panes/access.ts";
import type { PaneProps, PreparedAction } from "../../tui/panes/types.ts";
import type { Snapshot } from "../../tui/data/types.ts";
import { plain } from "../../tui/lines.ts";
import { fixedClock } from "../../tui/clock.ts";
import { TOOLS } from "../../tools/mod.ts";

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

Deno.test("the Access pane lists members, tokens and proposals, and approves or rejects", async () => {
  const stores = await freshStores();
  const statePath = (stores.access.db.prepare("PRAGMA database_list").get() as { file: string }).file;
  stores.access.addMember("ana", "member");
  stores.access.addMember("vic", "viewer");
  const { token } = stores.access.createToken({ member: "ana", access: "act", name: "laptop" });
  stores.access.revokeToken(stores.access.createToken({ member: "vic", access: "read", name: "old" }).record.id);
  const root = await workspace({ "b.py": "x = {  'a':1 }\n", "c.py": "y = {  'b':2 }\n" });
  const fmt = TOOLS.find((t) => t.name === "format_write")!;
  const ctx = { root, signal: new AbortController().signal };
  const first = await propose(stores, fmt, { paths: ["b.py"] }, ctx, { member: "ana" });
  const second = await propose(stores, fmt, { paths: ["c.py"] }, ctx, { member: "ana" });

  const props = (cursor: number): PaneProps => ({
    snapshot: {
      overview: { statePath },
      access: { data: readAccess(stores.access.db), readAt: NOW },
    } as unknown as Snapshot,
    width: 110,
    height: Infinity,
    cursor,
    filter: "",
    clock: fixedClock(NOW),
  });
  const text = (cursor = 0) => {
    const l = accessPane.layout(props(cursor));
    return [...l.head, ...l.rows].map(plain).join("\n");
  };
  const shown = text();
  assert.match(shown, /2 members · 1 active token · 2 pending approvals/);
  assert.match(shown, /^ana\s+member\s+1/m);
  assert.match(shown, /^vic\s+viewer\s+0/m);
  assert.match(shown, /^laptop\s+tok_[0-9a-f]{12}\s+ana\s+act\s+no\s+active/m);
  assert.match(shown, /^old\s+tok_[0-9a-f]{12}\s+vic\s+read\s+no\s+revoked/m);
  assert.equal(shown.includes(token.replace(/^poly_tok_[0-9a-f]{12}_/, "")), false, "never a secret");
  assert.match(shown, new RegExp(`^${first.id}\\s+format_write\\s+pending\\s+ana`, "m"));

  const rows = accessPane.layout(props(0)).rows.map(plain);
  const at = rows.findIndex((r) => r.startsWith(first.id));
  const atSecond = rows.findIndex((r) => r.startsWith(second.id));
  assert.ok(at > 0 && atSecond > at, "pending proposals, oldest first");
  assert.equal(typeof accessPane.actions![0].prepare(props(0)), "string", "a member row cannot be approved");

  const detail = accessPane.detail!(props(at))!;
  const detailText = detail.rows.map(plain).join("\n");
  assert.match(detailText, /^-x = \{ {2}'a':1 \}$/m);
  assert.match(detailText, /^\+x = \{"a": 1\}$/m);

  const approve = accessPane.actions!.find((a) => a.key === "a")!.prepare(props(at)) as PreparedAction;
  assert.match(approve.question, /Approve prop_[0-9a-f]{12} and run format_write as ana\?/);
  assert.match(await approve.run(), /ran and applied/);
  assert.equal(await Deno.readTextFile(join(root, "b.py")), 'x = {"a": 1}\n');
  assert.equal(stores.proposals.get(first.id)?.decided_by, "owner (dashboard)");

  const after = accessPane.layout(props(0)).rows.map(plain);
  const secondAt = after.findIndex((r) => r.startsWith(second.id));
  const reject = accessPane.actions!.find((a) => a.key === "x")!.prepare(props(secondAt)) as PreparedAction;
  assert.match(await reject.run(), /Rejected/);
  assert.equal(stores.proposals.get(second.id)?.status, "rejected");
  assert.equal(await Deno.readTextFile(join(root, "c.py")), "y = {  'b':2 }\n");
  const done = accessPane.layout(props(0)).rows.map(plain);
  const decidedAt = done.findIndex((r) => r.startsWith(second.id));
  assert.match(accessPane.actions![0].prepare(props(decidedAt)) as string, /is rejected: only pending ones/);
});
