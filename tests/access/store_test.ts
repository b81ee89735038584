/**
 * Members and tokens in the state database: only a hash is stored, a token is
 * shown once, and every refusal reason is its own.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openStore } from "../../lib/store/mod.ts";
import { AccessStore, TOUCH_EVERY_MS } from "../../lib/access/store.ts";
import { hashToken, parseDuration } from "../../lib/access/tokens.ts";
import { tempDir } from "../_helpers/temp.ts";

async function store(now?: () => number) {
  const dir = await tempDir({ prefix: "poly-access-" });
  const path = join(dir, "poly.db");
  const db = openStore({ path });
  return { path, db, access: new AccessStore(db, { now }) };
}

Deno.test("createToken() stores only the SHA-256 of the secret", async () => {
  const { db, path, access } = await store();
  access.addMember("ana", "member");
  const { token, record } = access.createToken({ member: "ana", access: "act", approvals: true, name: "laptop" });
  assert.match(token, /^poly_tok_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
  assert.ok(token.includes(record.id));
  assert.equal(record.name, "laptop");
  assert.equal(record.approvals, true);
  const row = db.prepare("SELECT * FROM access_tokens").get() as Record<string, unknown>;
  assert.equal(row.hash, hashToken(token));
  assert.ok(!Object.values(row).includes(token));
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const bytes = await Deno.readFile(path);
  // The secret part is base64url and may itself contain "_": cut the fixed prefix instead of splitting.
  const secret = token.replace(/^poly_tok_[0-9a-f]{12}_/, "");
  assert.equal(secret.length, 43);
  assert.equal(new TextDecoder("latin1").decode(bytes).includes(secret), false, "the secret is nowhere in the file");
  assert.doesNotMatch(JSON.stringify(access.listTokens()), new RegExp(secret));
});

Deno.test("authenticate() refuses missing, malformed, unknown, revoked, expired and orphaned tokens", async () => {
  let now = Date.parse("2026-01-01T00:00:00Z");
  const { access } = await store(() => now);
  access.addMember("ana", "member");
  const good = access.createToken({ member: "ana", access: "read", expiresInMs: 60_000 });
  assert.deepEqual(access.authenticate(good.token), {
    ok: true,
    identity: { member: "ana", role: "member", access: "read", approvals: false, token: good.record.id },
  });
  assert.deepEqual(access.authenticate(undefined), { ok: false, reason: "missing" });
  assert.deepEqual(access.authenticate("Bearer x"), { ok: false, reason: "malformed" });
  const unknown = good.token.slice(0, -1) + (good.token.endsWith("A") ? "B" : "A");
  assert.deepEqual(access.authenticate(unknown), { ok: false, reason: "unknown" });
  now += 60_000;
  assert.deepEqual(access.authenticate(good.token), { ok: false, reason: "expired" });
  assert.equal(access.getToken(good.record.id)?.state, "expired");
  const other = access.createToken({ member: "ana", access: "act" });
  access.revokeToken(other.record.id);
  assert.deepEqual(access.authenticate(other.token), { ok: false, reason: "revoked" });
  const third = access.createToken({ member: "ana", access: "act" });
  access.db.prepare("DELETE FROM access_members WHERE name = 'ana'").run();
  assert.deepEqual(access.authenticate(third.token), { ok: false, reason: "no_member" });
});

Deno.test("the role is read on every authenticate(); removing a member revokes their tokens", async () => {
  const { access } = await store();
  access.addMember("bo", "admin");
  const { token } = access.createToken({ member: "bo", access: "act" });
  access.setRole("bo", "viewer");
  const auth = access.authenticate(token);
  assert.ok(auth.ok && auth.identity.role === "viewer");
  const removed = access.removeMember("bo");
  assert.equal(removed.revoked, 1);
  assert.deepEqual(access.authenticate(token), { ok: false, reason: "revoked" });
  assert.equal(access.listTokens().length, 0);
  assert.equal(access.listTokens({ all: true })[0].state, "revoked");
});

Deno.test("members and tokens refuse bad names, roles, duplicates and unknowns", async () => {
  const { access } = await store();
  assert.throws(() => access.addMember("no spaces", "member"), /Invalid member name/);
  assert.throws(() => access.addMember("x", "owner"), /Invalid role "owner"/);
  access.addMember("x", "member");
  assert.throws(() => access.addMember("x", "admin"), /exists/);
  assert.throws(() => access.createToken({ member: "y", access: "read" }), /No member "y": known members are x/);
  assert.throws(() => access.createToken({ member: "x", access: "write" as "act" }), /Invalid access/);
  assert.throws(() => access.revokeToken("tok_000000000000"), /No token/);
  const a = access.createToken({ member: "x", access: "read", name: "same" });
  access.createToken({ member: "x", access: "read", name: "same" });
  assert.throws(() => access.revokeToken("same"), /Several tokens are named "same"/);
  assert.equal(access.revokeToken(a.record.id).changed, true);
  assert.equal(access.revokeToken(a.record.id).changed, false);
});

Deno.test("last use is recorded at most once a minute per token", async () => {
  let now = Date.parse("2026-01-01T00:00:00Z");
  const { access } = await store(() => now);
  access.addMember("t", "member");
  const { token, record } = access.createToken({ member: "t", access: "read" });
  access.authenticate(token);
  const first = access.getToken(record.id)?.last_used_at;
  assert.equal(first, "2026-01-01T00:00:00.000Z");
  now += 1000;
  access.authenticate(token);
  assert.equal(access.getToken(record.id)?.last_used_at, first);
  now += TOUCH_EVERY_MS;
  access.authenticate(token);
  assert.equal(access.getToken(record.id)?.last_used_at, new Date(now).toISOString());
});

Deno.test("parseDuration() reads m, h, d, w and never", () => {
  assert.equal(parseDuration("30d"), 30 * 86_400_000);
  assert.equal(parseDuration("12h"), 12 * 3_600_000);
  assert.equal(parseDuration("90m"), 90 * 60_000);
  assert.equal(parseDuration("2w"), 14 * 86_400_000);
  assert.equal(parseDuration("never"), undefined);
  for (const bad of ["30", "0d", "1y", "-1d", "99999w"]) assert.throws(() => parseDuration(bad), /duration/, bad);
});
