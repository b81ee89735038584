import assert from "node:assert/strict";
import { addServer, catalogOf, grantStates, revokeGrant, SCHEMA_CHANGED, setGrant } from "../../lib/gateway/mod.ts";
import { freshStore, makeFixture } from "./_fixture.ts";
import { rejects } from "./_assert.ts";
import { bwrapTest } from "../_helpers/bwrap.ts";

async function registered() {
  const { db } = await freshStore();
  const fx = await makeFixture();
  await addServer(db, { name: "fx", command: fx.commandLine, cwd: fx.dir });
  const [getTitle, setTitle, getCount, setCount] = catalogOf(db, "fx");
  return { db, fx, getTitle, setTitle, getCount, setCount };
}

bwrapTest("setGrant() refuses a fingerprint that is not the current one with the exact message", async () => {
  const { db, getTitle } = await registered();
  const error = await rejects(
    () =>
      setGrant(db, { server: "fx", tool: "get_title", mode: "read", fingerprint: "0".repeat(64), expectedRevision: 1 }),
    "schema_changed",
  );
  assert.ok(error.message.startsWith(`${SCHEMA_CHANGED}:`), error.message);
  assert.equal(SCHEMA_CHANGED, "The approved MCP tool schema changed. Review the current fingerprint");
  // By id, with the current fingerprint, it is accepted.
  const ok = setGrant(db, {
    server: "fx",
    tool: getTitle.id,
    mode: "read",
    fingerprint: getTitle.fingerprint,
    expectedRevision: 1,
  });
  assert.equal(ok.changed, true);
  assert.equal(ok.grant?.tool, "get_title");
  assert.equal(ok.grant?.state, "active");
});

bwrapTest("setGrant() needs a read-granted verifier for a write and none for a read", async () => {
  const { db, getTitle, setTitle, getCount } = await registered();
  await rejects(
    () =>
      setGrant(db, {
        server: "fx",
        tool: "set_title",
        mode: "write",
        fingerprint: setTitle.fingerprint,
        expectedRevision: 1,
      }),
    "grant_refused",
    "A write grant needs at least one verifier",
  );
  await rejects(
    () =>
      setGrant(db, {
        server: "fx",
        tool: "set_title",
        mode: "write",
        fingerprint: setTitle.fingerprint,
        verifiers: ["get_title"],
        expectedRevision: 1,
      }),
    "grant_refused",
    'Verifier "get_title" is not granted as read',
  );
  await rejects(
    () =>
      setGrant(db, {
        server: "fx",
        tool: "get_title",
        mode: "read",
        fingerprint: getTitle.fingerprint,
        verifiers: ["get_count"],
        expectedRevision: 1,
      }),
    "grant_refused",
    "A read grant has no verifiers",
  );
  let rev = setGrant(db, {
    server: "fx",
    tool: "get_title",
    mode: "read",
    fingerprint: getTitle.fingerprint,
    expectedRevision: 1,
  }).revision;
  await rejects(
    () =>
      setGrant(db, {
        server: "fx",
        tool: "set_title",
        mode: "write",
        fingerprint: setTitle.fingerprint,
        verifiers: ["set_title"],
        expectedRevision: rev,
      }),
    "grant_refused",
    "cannot verify itself",
  );
  const write = setGrant(db, {
    server: "fx",
    tool: "set_title",
    mode: "write",
    fingerprint: setTitle.fingerprint,
    verifiers: ["get_title"],
    expectedRevision: rev,
  });
  assert.equal(write.grant?.state, "active");
  assert.deepEqual(write.grant?.active_verifiers, ["get_title"]);
  rev = write.revision;
  // Setting the same grant again changes nothing and keeps the revision.
  const again = setGrant(db, {
    server: "fx",
    tool: "set_title",
    mode: "write",
    fingerprint: setTitle.fingerprint,
    verifiers: ["get_title"],
    expectedRevision: rev,
  });
  assert.equal(again.changed, false);
  assert.equal(again.revision, rev);
  // Revoking the only verifier leaves the write grant unverified: it no longer applies.
  const revoked = revokeGrant(db, "fx", "get_title", rev);
  assert.deepEqual(revoked.unverified, ["set_title"]);
  assert.equal(grantStates(db, "fx").find((g) => g.tool === "set_title")?.state, "unverified");
  assert.ok(getCount);
});
