import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { createLoader } from "../../tui/data/snapshot.ts";
import { cleanNamespace } from "../../tui/data/cache_clean.ts";
import { StateReader, StoreBusyError } from "../../tui/data/state_db.ts";
import { fillStore, NOW, OTHER_ANCHOR } from "./_fixture.ts";
import { CLOCK, fixtureEnv, HOST_TOOLS } from "./_env.ts";
import { cacheDirFor } from "../../lib/cache/db.ts";
import { openCache } from "../../lib/cache/mod.ts";
import { tempDir, tempDirSync } from "../_helpers/temp.ts";

Deno.test("loader reads sessions with their calls, latest outcome and rating note", async () => {
  const env = await fixtureEnv();
  try {
    const s = await env.loader.load({ waitForHostTools: true });
    const sessions = s.fleet.data!.sessions;
    assert.equal(sessions.length, 8);
    assert.equal(sessions[0].handle, "codex:019a-a1", "newest first");
    assert.deepEqual(
      { status: sessions[0].status, calls: sessions[0].calls, ms: sessions[0].durationMs, chars: sessions[0].outChars },
      { status: "ok", calls: 2, ms: 92_500, chars: 3000 },
      "the rate call is not counted",
    );
    assert.equal(sessions[0].note, "exactly right");
    const failed = sessions.find((x) => x.handle === "codex:019a-c3")!;
    assert.equal(failed.status, "engine_failed");
    const none = sessions.find((x) => x.handle === "codex:019a-e5")!;
    assert.deepEqual([none.status, none.calls, none.rating], [null, 0, null]);
    assert.match(sessions[0].answer ?? "", /^Added --verbose/, "the stored answer comes along");
    assert.equal(none.answer, null);
    assert.deepEqual(s.overview.hostTools, HOST_TOOLS);
  } finally {
    await env.close();
  }
});

Deno.test("loader groups ratings by engine, level and tool", async () => {
  const env = await fixtureEnv();
  try {
    const r = (await env.loader.load()).fleet.data!.ratings;
    assert.deepEqual([r.total.count, r.total.mean, r.total.distribution], [6, 3.33, [1, 1, 1, 1, 2]]);
    assert.deepEqual(r.byEngine.map((g) => [g.key, g.count, g.mean]), [["claude", 2, 4.5], ["codex", 2, 4], [
      "cursor",
      1,
      1,
    ], ["opencode", 1, 2]]);
    assert.deepEqual(r.byLevel.map((g) => g.key), ["L1", "L2", "L3", "L4", "L5", "no level"]);
    assert.deepEqual(r.byTool.find((g) => g.key === "delegate")?.distribution, [1, 1, 0, 0, 2]);
  } finally {
    await env.close();
  }
});

Deno.test("loader counts calls per local day over 30 days and reads engine health", async () => {
  const env = await fixtureEnv();
  try {
    const c = (await env.loader.load()).fleet.data!.calls;
    assert.equal(c.days.length, 30);
    assert.equal(c.days[29].day, Math.floor(NOW / 86_400_000), "the last day is today");
    const inWindow = c.days.reduce((a, d) => a + d.calls, 0);
    const all = c.tools.reduce((a, t) => a + t.calls, 0);
    assert.equal(all - inWindow, 1, "only the call from 35 days ago is outside the window");
    assert.equal(c.daysByTool.delegate.reduce((a, d) => a + d.failures, 0), 8);
    const health = Object.fromEntries(c.health.map((h) => [h.engine, h]));
    assert.deepEqual(Object.keys(health).sort(), ["claude", "codex", "grok"]);
    assert.equal(health.codex.samples, 5);
    assert.equal(health.claude.quotaExhausted, true);
  } finally {
    await env.close();
  }
});

Deno.test("loader reads servers with grant states and open operations", async () => {
  const env = await fixtureEnv();
  try {
    const servers = (await env.loader.load()).gateway.data!.servers;
    assert.deepEqual(servers.map((s) => [s.name, s.enabled]), [["docs", true], ["files", true], ["legacy", false]]);
    const docs = servers[0];
    assert.deepEqual(docs.grants.map((g) => [g.tool, g.state]), [
      ["search", "active"],
      ["fetch_page", "stale"],
      ["update_page", "active"],
      [docs.grants[3].tool_id, "missing"],
    ]);
    assert.equal(docs.unresolvedOps, 1);
    assert.equal(servers[1].endpoint, "npx -y files-mcp --root /work/app");
  } finally {
    await env.close();
  }
});

Deno.test("loader lists every cache by its repository (found from the files it records), damaged ones with the reason", async () => {
  const env = await fixtureEnv();
  try {
    const c = (await env.loader.load()).cache.data!;
    assert.equal(c.repos.length, 3);
    const [current, ...others] = c.repos;
    assert.deepEqual([current.label, current.current], ["/work/app", true]);
    const lint = current.namespaces.find((n) => n.namespace === "lint")!;
    assert.equal(lint.entries, 12);
    assert.equal(lint.runs, 3);
    const other = others.find((r) => !r.error)!;
    assert.equal(other.dir, cacheDirFor(OTHER_ANCHOR, env.home.cacheHome));
    assert.deepEqual([other.label, other.anchor, other.current], [OTHER_ANCHOR, OTHER_ANCHOR, false]);
    // A cache that records no file (poly fmt records none) keeps its folder's name.
    const fmtOnly = await openCache({ anchor: "/work/fmt-only", root: env.home.cacheHome });
    fmtOnly.set("fmt", "f".repeat(64), { formatted: "x" });
    fmtOnly.close();
    const again = (await env.loader.load()).cache.data!.repos;
    const fmtDir = cacheDirFor("/work/fmt-only", env.home.cacheHome);
    const unnamed = again.find((r) => r.dir === fmtDir)!;
    assert.deepEqual([unnamed.label, unnamed.anchor], [fmtDir.split("/").pop(), undefined]);
    assert.match(others.find((r) => r.error)!.error!, /not a database/);
  } finally {
    await env.close();
  }
});

Deno.test("cleanNamespace() removes one namespace's entries and runs, and leaves the others", async () => {
  const env = await fixtureEnv();
  try {
    const path = join(env.home.currentCacheDir, "cache.db");
    const r = cleanNamespace(path, "lint");
    assert.equal(r.removed, 12);
    const after = (await env.loader.load()).cache.data!.repos[0];
    const ns = Object.fromEntries(after.namespaces.map((n) => [n.namespace, n]));
    assert.deepEqual([ns.lint.entries, ns.lint.runs, ns.fmt.entries, ns.fmt.runs], [0, 0, 5, 3]);
    // The cache still works for poly afterwards.
    const cache = await openCache({ anchor: "/work/app", root: env.home.cacheHome });
    assert.equal(cache.stats().namespaces.find((n) => n.namespace === "lint")!.entries, 0);
    cache.close();
  } finally {
    await env.close();
  }
});

Deno.test("loader shows no state before the database exists and picks it up once created, never creating it", async () => {
  const dir = await tempDir({ prefix: "poly-dash-empty-" });
  const statePath = join(dir, "state", "poly.db");
  const loader = createLoader({
    statePath,
    cacheHome: join(dir, "cache"),
    clock: CLOCK,
    hostTools: () => Promise.resolve([]),
  });
  try {
    const before = await loader.load();
    assert.equal(before.stateExists, false);
    assert.equal(before.fleet.data, undefined);
    assert.equal(before.fleet.error, undefined);
    assert.deepEqual(before.cache.data?.repos, []);
    await assert.rejects(Deno.stat(statePath), Deno.errors.NotFound, "the dashboard does not create the database");
    fillStore(statePath);
    const after = await loader.load();
    assert.equal(after.stateExists, true);
    assert.equal(after.fleet.data?.sessions.length, 8);
  } finally {
    loader.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loader keeps the last data and says why when the database stays locked", async () => {
  const env = await fixtureEnv();
  const holder = new DatabaseSync(env.home.statePath);
  try {
    const first = await env.loader.load();
    assert.equal(first.fleet.error, undefined);
    env.loader.close(); // the next load opens the database again
    // An exclusive lock (no poly process takes one) blocks even WAL readers.
    holder.exec(
      "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; INSERT INTO fleet_runs (at_ms, engine, tool, outcome, latency_ms) VALUES (1, 'codex', 'x', 'ok', 1); COMMIT;",
    );
    const blocked = await env.loader.load();
    assert.match(blocked.fleet.error?.message ?? "", /busy|locked/i);
    assert.equal(blocked.fleet.data?.sessions.length, 8, "the previous data is kept");
    assert.equal(blocked.fleet.readAt, first.fleet.readAt);
    holder.close();
    const again = await env.loader.load();
    assert.equal(again.fleet.error, undefined, "it recovers once the lock is gone");
  } finally {
    try {
      holder.close();
    } catch { /* closed */ }
    await env.close();
  }
});

Deno.test("StateReader opens read-only: it cannot write", () => {
  const dir = tempDirSync({ prefix: "poly-dash-ro-" });
  try {
    const path = join(dir, "poly.db");
    fillStore(path);
    const reader = new StateReader(path);
    assert.throws(() => reader.read((db) => db.exec("DELETE FROM fleet_sessions")), /readonly/i);
    assert.equal(
      reader.read((db) => (db.prepare("SELECT COUNT(*) AS n FROM fleet_sessions").get() as { n: number }).n),
      8,
    );
    reader.close();
    assert.ok(new StoreBusyError("x") instanceof Error);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
