/**
 * The fleet's tables in the state database: migrations, sessions, ratings,
 * health, and several processes writing at once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { migrate, openStore } from "../../lib/store/mod.ts";
import { FLEET_MIGRATIONS } from "../../lib/store/migrations/fleet.ts";
import { FleetStore } from "../../lib/fleet/store.ts";
import { tempDir } from "../_helpers/temp.ts";

Deno.test("fleet migrations apply once, by name", () => {
  const db = new DatabaseSync(":memory:");
  migrate(db, FLEET_MIGRATIONS);
  migrate(db, FLEET_MIGRATIONS);
  const names = db.prepare("SELECT name FROM migrations ORDER BY name").all().map((r) => String(r.name));
  assert.deepEqual(names, [
    "fleet-001-sessions",
    "fleet-002-ratings",
    "fleet-003-runs",
    "fleet-004-calls",
    "fleet-005-session-answer",
  ]);
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'fleet_%' ORDER BY name")
    .all()
    .map((r) => String(r.name));
  assert.deepEqual(tables, ["fleet_calls", "fleet_ratings", "fleet_runs", "fleet_sessions"]);
});

Deno.test("ratings are 1-5, attach to a known session, and replace an earlier one", () => {
  const store = new FleetStore(openStore({ path: ":memory:" }));
  store.saveSession({
    handle: "claude:s",
    engine: "claude",
    sessionId: "s",
    tool: "explore",
    cwd: "/w",
    readOnly: true,
    web: false,
    preview: "p",
  });
  store.rate("claude:s", 2);
  store.rate("claude:s", 5, "better on review");
  assert.equal(store.session("claude:s")?.rating, 5);
  assert.throws(() => store.rate("claude:s", 6), /CHECK constraint/);
  assert.throws(() => store.rate("claude:unknown", 3), /FOREIGN KEY/);
  assert.deepEqual(store.toolStats()[0].ratings, {
    count: 1,
    mean: 5,
    distribution: { "1": 0, "2": 0, "3": 0, "4": 0, "5": 1 },
  });
});

Deno.test("health: success rate over recent runs, median latency of successes, unhealthy below the threshold", () => {
  const store = new FleetStore(openStore({ path: ":memory:" }));
  const opts = { threshold: 0.5, cooldownMs: 1000 };
  assert.deepEqual(store.health("grok", opts), {
    engine: "grok",
    samples: 0,
    successRate: null,
    medianLatencyMs: null,
    quotaExhausted: false,
    quotaAtMs: null,
    unhealthy: false,
  });
  for (const ms of [100, 300, 200]) store.recordRun({ engine: "grok", tool: "t", outcome: "ok", latencyMs: ms });
  for (let i = 0; i < 4; i++) store.recordRun({ engine: "grok", tool: "t", outcome: "timeout", latencyMs: 9999 });
  store.recordRun({ engine: "grok", tool: "t", outcome: "rate_limited", latencyMs: 1 }); // not a health sample
  const h = store.health("grok", opts);
  assert.deepEqual([h.samples, h.medianLatencyMs, h.unhealthy], [7, 200, true]);
  assert.equal(Math.round(h.successRate! * 100), 43);
  // Old runs fall out of the window.
  assert.equal(store.health("grok", { ...opts, windowMs: 1 }, Date.now() + 10_000).samples, 0);
});

Deno.test("several processes write the same state database at once without losing a write", async () => {
  const dir = await tempDir();
  const path = join(dir, "poly.db");
  openStore({ path }).close(); // created and migrated
  const writer = join(import.meta.dirname!, "_writer.ts");
  const procs = ["a", "b", "c"].map((id) =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-q",
        "-A",
        "--config",
        join(import.meta.dirname!, "..", "..", "deno.json"),
        writer,
        path,
        id,
        "60",
      ],
      stdout: "piped",
      stderr: "piped",
    }).output()
  );
  for (const out of await Promise.all(procs)) assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const store = new FleetStore(openStore({ path }));
  const count = (sql: string) => Number((store.db.prepare(sql).get() as { n: number }).n);
  assert.equal(count("SELECT COUNT(*) AS n FROM fleet_runs"), 180);
  assert.equal(count("SELECT COUNT(*) AS n FROM fleet_calls"), 180);
  assert.equal(count("SELECT COUNT(*) AS n FROM fleet_sessions"), 181);
  assert.equal(store.session("codex:shared")?.turns, 180);
  assert.equal(store.db.prepare("PRAGMA journal_mode").get()?.journal_mode, "wal");
});
