import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { DENO_JSON, REPO, runPoly } from "../_helpers/cli.ts";
import { createLoader } from "../../tui/data/snapshot.ts";
import { systemClock } from "../../tui/clock.ts";
import { makeFixture, SESSIONS } from "./_fixture.ts";

Deno.test("the dashboard reads the store while another process writes to it: no crash, no stale lock", async () => {
  const home = await makeFixture(undefined, Date.now());
  const loader = createLoader({
    statePath: home.statePath,
    cacheHome: home.cacheHome,
    clock: systemClock,
    hostTools: () => Promise.resolve([]),
  });
  try {
    const writer = new Deno.Command(Deno.execPath(), {
      args: ["run", "-q", "-P=test", "--config", DENO_JSON, `${REPO}/tests/tui/_writer.ts`, home.statePath, "6000"],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const done = writer.output();
    let finished = false;
    done.then(() => (finished = true));

    // The real process reads once while the writer runs…
    const once = runPoly(["dash", "--once"], {
      env: { POLY_STATE_HOME: home.stateHome, POLY_CACHE_HOME: home.cacheHome },
    });
    // …and the dashboard's loader reads as often as it can.
    let loads = 0;
    let busy = 0;
    let last = 0;
    while (!finished) {
      const s = await loader.load();
      loads++;
      if (s.fleet.error) busy++;
      const n = s.fleet.data?.sessions.length ?? 0;
      assert.ok(n >= last, "sessions never go backwards");
      last = n;
      await new Promise((r) => setTimeout(r, 5));
    }
    const out = await done;
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, `the writer was never blocked: ${stderr}`);
    const written = Number(new TextDecoder().decode(out.stdout).trim());
    assert.ok(written > 0);
    const r = await once;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /── 3 Sessions/);
    assert.ok(loads > 3, `the loader read ${loads} times`);
    assert.equal(busy, 0, "WAL readers are never kept waiting by a writer");

    // Everything written is seen, by a loader that is still open.
    const final = await loader.load();
    assert.equal(final.fleet.data?.sessions.length, Math.min(500, SESSIONS.length + written));

    // The open loader holds no transaction: a checkpoint completes, and an exclusive lock is had at once.
    const check = new DatabaseSync(home.statePath);
    check.exec("PRAGMA busy_timeout = 0");
    const cp = check.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get() as { busy: number };
    assert.equal(cp.busy, 0, "no reader keeps the checkpoint from finishing");
    check.exec("BEGIN EXCLUSIVE");
    check.exec("COMMIT");
    check.close();
  } finally {
    loader.close();
    await Deno.remove(home.base, { recursive: true });
  }
});
