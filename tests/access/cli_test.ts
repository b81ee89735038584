/**
 * `poly members`, `poly tokens` and `poly approvals` as real processes: the
 * token is printed once and never again, and the owner's approval runs the
 * proposal.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runPoly } from "../_helpers/cli.ts";
import { workspace } from "./_env.ts";
import { openStore } from "../../lib/store/mod.ts";
import { AccessStore } from "../../lib/access/store.ts";
import { ProposalStore } from "../../lib/access/proposals.ts";
import { propose } from "../../lib/access/approve.ts";
import { TOOLS } from "../../tools/mod.ts";
import { tempDir } from "../_helpers/temp.ts";

Deno.test("poly members, tokens and approvals", { sanitizeResources: false, sanitizeOps: false }, async (t) => {
  const home = await tempDir({ prefix: "poly-access-cli-" });
  const env = { POLY_STATE_HOME: join(home, "state"), POLY_CACHE_HOME: join(home, "cache") };
  const root = await workspace({ "b.py": "x = {  'a':1 }\n" });
  const poly = (args: string[]) => runPoly(args, { env, cwd: root });

  const added = await poly(["members", "add", "ana", "--role", "member"]);
  assert.equal(added.code, 0, added.stderr);
  assert.equal(added.stdout, 'Added member "ana" as member.\n');

  const db = openStore({ path: join(env.POLY_STATE_HOME, "poly.db") });
  const stores = { access: new AccessStore(db), proposals: new ProposalStore(db) };
  const fmt = TOOLS.find((x) => x.name === "format_write")!;
  const p = await propose(stores, fmt, { paths: ["b.py"] }, { root, signal: new AbortController().signal }, {
    member: "ana",
  });

  const [created, dup, listed, shown, approved] = await Promise.all([
    poly(["tokens", "create", "--member", "ana", "--access", "act", "--approvals", "--expires", "30d", "--name", "ci"]),
    poly(["members", "add", "ana"]),
    poly(["members", "list"]),
    poly(["approvals", "show", p.id]),
    poly(["approvals", "approve", p.id, "--note", "looks right", "--format", "json"]),
  ]);

  await t.step("tokens create prints the token alone on stdout, once", async () => {
    assert.equal(created.code, 0, created.stderr);
    const token = created.stdout.trim();
    assert.match(token, /^poly_tok_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    assert.match(created.stderr, /for ana: act access, approvals, expires 20\d\d-/);
    assert.match(created.stderr, /not shown again/);
    const list = await poly(["tokens", "list", "--format", "json"]);
    assert.equal(list.code, 0, list.stderr);
    const [record] = JSON.parse(list.stdout).tokens;
    assert.equal(record.name, "ci");
    assert.equal(record.approvals, true);
    assert.ok(Date.parse(record.expires_at) - Date.now() > 29 * 86_400_000);
    assert.equal(
      list.stdout.includes(token.replace(/^poly_tok_[0-9a-f]{12}_/, "")),
      false,
      "the secret is never listed",
    );
    const auth = stores.access.authenticate(token);
    assert.ok(auth.ok && auth.identity.approvals);
  });

  await t.step("members add refuses a duplicate; members list shows roles", () => {
    assert.equal(dup.code, 2);
    assert.match(dup.stderr, /Member "ana" exists/);
    assert.match(listed.stdout, /^MEMBER\s+ROLE\s+ACTIVE TOKENS\s+ADDED\nana\s+member\s+\d/);
  });

  await t.step("approvals show prints the diff; approvals approve runs it as the owner", async () => {
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(
      shown.stdout,
      /^Proposal prop_[0-9a-f]{12}: format_write \((pending|running|applied)\)/,
      "shown while it is being approved",
    );
    assert.match(shown.stdout, /^-x = \{ {2}'a':1 \}\n\+x = \{"a": 1\}$/m);
    assert.equal(approved.code, 0, approved.stderr);
    const doc = JSON.parse(approved.stdout);
    assert.equal(doc.proposal.status, "applied");
    assert.equal(doc.proposal.decided_by, "owner (cli)");
    assert.equal(doc.proposal.note, "looks right");
    assert.equal(await Deno.readTextFile(join(root, "b.py")), 'x = {"a": 1}\n');
  });
  db.close();
});
