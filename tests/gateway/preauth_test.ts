import assert from "node:assert/strict";
import {
  addServer,
  catalogOf,
  clearPreauthorization,
  coveredBy,
  grantStates,
  parseConstraint,
  type Preauthorization,
  preauthorizationOf,
  requireServer,
  setGrant,
  setPreauthorization,
} from "../../lib/gateway/mod.ts";
import { freshStore, makeFixture } from "./_fixture.ts";
import { rejects } from "./_assert.ts";
import { bwrapTest } from "../_helpers/bwrap.ts";

const HOUR = 3_600_000;

function preauth(p: Partial<Preauthorization> = {}): Preauthorization {
  return {
    by: "ana",
    until: new Date(Date.now() + HOUR).toISOString(),
    where: [],
    fingerprint: "f".repeat(64),
    set_at: new Date().toISOString(),
    ...p,
  };
}

Deno.test("coveredBy() lets through only unexpired writes whose arguments meet every constraint", () => {
  assert.equal(coveredBy(undefined, {}).covered, false);
  const open = coveredBy(preauth(), { anything: 1 });
  assert.ok(open.covered);
  assert.equal(open.authorization.kind, "preauthorized");
  assert.ok(!("fingerprint" in open.authorization), "the receipt names who and until when, not the pin");
  const expired = coveredBy(preauth({ until: new Date(Date.now() - 1000).toISOString() }), {});
  assert.ok(!expired.covered && /ended at/.test(expired.why));
  const scoped = preauth({ where: [{ path: "repo.name", equals: "poly" }, { path: "labels[0]", equals: "bug" }] });
  assert.ok(coveredBy(scoped, { repo: { name: "poly" }, labels: ["bug", "x"] }).covered);
  const wrong = coveredBy(scoped, { repo: { name: "other" }, labels: ["bug"] });
  assert.ok(!wrong.covered && wrong.why === 'argument repo.name is "other", pre-authorized only as "poly"');
  const absent = coveredBy(scoped, { repo: { name: "poly" } });
  assert.ok(!absent.covered && /labels\[0\] is absent/.test(absent.why));
});

Deno.test("parseConstraint() reads PATH=JSON, a bare word as a string, and refuses a missing =", () => {
  assert.deepEqual(parseConstraint("count=3"), { path: "count", equals: 3 });
  assert.deepEqual(parseConstraint('repo="poly"'), { path: "repo", equals: "poly" });
  assert.deepEqual(parseConstraint("repo=poly"), { path: "repo", equals: "poly" });
  assert.throws(() => parseConstraint("repo"), /PATH=VALUE/);
});

bwrapTest(
  "setPreauthorization() needs an active write grant and a future end; setting the grant again drops it",
  async () => {
    const { db } = await freshStore();
    const fx = await makeFixture();
    await addServer(db, { name: "fx", command: fx.commandLine, cwd: fx.dir });
    const pins = Object.fromEntries(catalogOf(db, "fx").map((t) => [t.name, t]));
    const rev = () => requireServer(db, "fx").revision;
    setGrant(db, {
      server: "fx",
      tool: "get_title",
      mode: "read",
      fingerprint: pins.get_title.fingerprint,
      expectedRevision: rev(),
    });
    const until = new Date(Date.now() + HOUR).toISOString();
    await rejects(
      () => setPreauthorization(db, { server: "fx", tool: "get_title", by: "ana", until, expectedRevision: rev() }),
      "grant_refused",
    );
    await rejects(
      () => setPreauthorization(db, { server: "fx", tool: "set_title", by: "ana", until, expectedRevision: rev() }),
      "not_granted",
    );
    setGrant(db, {
      server: "fx",
      tool: "set_title",
      mode: "write",
      fingerprint: pins.set_title.fingerprint,
      verifiers: ["get_title"],
      expectedRevision: rev(),
    });
    await rejects(
      () =>
        setPreauthorization(db, {
          server: "fx",
          tool: "set_title",
          by: "ana",
          until: "2001-01-01",
          expectedRevision: rev(),
        }),
      "invalid_request",
    );
    const before = rev();
    const set = setPreauthorization(db, {
      server: "fx",
      tool: "set_title",
      by: "ana",
      until,
      where: [{ path: "value", equals: "x" }],
      expectedRevision: before,
    });
    assert.equal(set.revision, before + 1, "a pre-authorization is a reviewed change: the revision goes up");
    assert.equal(grantStates(db, "fx").find((g) => g.tool === "set_title")?.preauthorization?.by, "ana");
    assert.ok(preauthorizationOf(db, "fx", pins.set_title.id));
    // A new review of the grant (other verifiers) drops it.
    setGrant(db, {
      server: "fx",
      tool: "get_count",
      mode: "read",
      fingerprint: pins.get_count.fingerprint,
      expectedRevision: rev(),
    });
    setGrant(db, {
      server: "fx",
      tool: "set_title",
      mode: "write",
      fingerprint: pins.set_title.fingerprint,
      verifiers: ["get_title", "get_count"],
      expectedRevision: rev(),
    });
    assert.equal(preauthorizationOf(db, "fx", pins.set_title.id), undefined);
    setPreauthorization(db, { server: "fx", tool: "set_title", by: "ana", until, expectedRevision: rev() });
    assert.equal(clearPreauthorization(db, "fx", "set_title", rev()).changed, true);
    assert.equal(preauthorizationOf(db, "fx", pins.set_title.id), undefined);
  },
);
