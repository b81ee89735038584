import assert from "node:assert/strict";
import { join } from "node:path";
import { renderOnce } from "../../tui/once.ts";
import { width } from "../../tui/format.ts";
import { PANES } from "../../tui/panes/mod.ts";
import { NO_TERMINAL, runDash } from "../../tui/run.tsx";
import { ENGINES } from "../../lib/engines/registry.ts";
import { openCache } from "../../lib/cache/mod.ts";
import type { CommandIO } from "../../lib/cli/command.ts";
import { assertGolden, REPO, runPoly } from "../_helpers/cli.ts";
import { CLOCK, fixtureEnv } from "./_env.ts";
import { makeFixture } from "./_fixture.ts";

const GOLDEN = new URL("./golden/", import.meta.url).pathname;

Deno.test("renderOnce() prints every pane as plain text, every row included", async () => {
  const env = await fixtureEnv();
  try {
    const text = renderOnce(await env.load(), { width: 80, clock: CLOCK });
    assert.ok(!text.includes("\x1b"), "no escape sequences");
    for (const title of ["1 Overview", "2 Cache", "3 Sessions", "4 Ratings", "5 Calls", "6 Gateway", "7 Access"]) {
      assert.match(text, new RegExp(`── ${title} ─`));
    }
    assert.match(text, /By tool\n.*\n delegate|By tool\nTOOL[^\n]*\ndelegate/, "the rows below the fold are there");
    for (const l of text.split("\n")) assert.ok([...l].length <= 80, `wider than 80: ${l}`);
    await assertGolden(join(GOLDEN, "once_80.txt"), text);
    await assertGolden(join(GOLDEN, "once_200.txt"), renderOnce(await env.load(), { width: 200, clock: CLOCK }));
  } finally {
    await env.close();
  }
});

function captureIO(terminal: boolean): CommandIO & { out: string; err: string } {
  const io = {
    out: "",
    err: "",
    stdout(t: string) {
      io.out += t;
      return Promise.resolve();
    },
    stderr(t: string) {
      io.err += t;
      return Promise.resolve();
    },
    stdoutIsTerminal: terminal,
    stderrIsTerminal: terminal,
    cwd: REPO,
  };
  return io;
}

Deno.test("runDash() without a terminal says so and exits 2 unless --once", async () => {
  const io = captureIO(false);
  assert.equal(await runDash({ once: false, intervalMs: 1000, io, stdinIsTerminal: false }), 2);
  assert.equal(io.err, NO_TERMINAL);
  assert.equal(io.out, "");
  const half = captureIO(true);
  assert.equal(
    await runDash({ once: false, intervalMs: 1000, io: half, stdinIsTerminal: false }),
    2,
    "stdin must be a terminal too",
  );
});

/** Makes the real process's output comparable: temp paths, repository, pid, time, and what depends on the machine. */
function normalizeOnce(text: string, base: string): string {
  // The repository column pads each path to its width: the temporary home's name varies in length, so the
  // padding after "<HOME>/…" does too. One space stands for it.
  let out = text.replaceAll(base, "<HOME>").replace(/^(<HOME>\S*(?: \(here\))?) +/gm, "$1 ").replaceAll(REPO, "<REPO>");
  out = out.replace(/^poly dash snapshot, .*$/m, "poly dash snapshot, <TIME>");
  out = out.replace(/\(pid \d+\)/, "(pid <PID>)");
  out = out.replace(/^(state +\S+) · [\d.]+ (B|KiB|MiB)$/m, "$1 · <SIZE>");
  // The engine registry and the host programs grow as poly does, and Deno puts its own node shim on PATH:
  // checked by the test, then summarised.
  out = out.replace(/^Engines \(\d+\)\n(?:.+\n)+/m, "Engines (<N>)\n<ENGINE TABLE>\n");
  out = out.replace(/^Host tools \(.*\)\n(?:.+\n)+/m, "Host tools (<N>)\n<HOST TABLE>\n");
  // The last 30 days end today.
  out = out.replace(/^(calls|chars) per day \d\d-\d\d (\S+) \d\d-\d\d/gm, "$1 per day <FIRST> $2 <TODAY>");
  return out;
}

Deno.test("poly dash --once prints a snapshot of every pane through the real process", async () => {
  // Times ten years back: nothing falls in the last 30 days or 24 hours whatever the machine's clock says.
  const now = Date.UTC(2015, 5, 15, 12, 0, 0);
  const home = await makeFixture(undefined, now);
  const repo = join(home.base, "repo");
  await Deno.mkdir(join(repo, ".git"), { recursive: true });
  const cache = await openCache({ anchor: repo, root: home.cacheHome });
  cache.set("lint", "k".repeat(64), { diagnostics: [] });
  cache.close();
  const emptyPath = join(home.base, "no-tools");
  await Deno.mkdir(emptyPath);
  try {
    const r = await runPoly(["dash", "--once", "--width", "120"], {
      cwd: repo,
      env: { POLY_STATE_HOME: home.stateHome, POLY_CACHE_HOME: home.cacheHome, PATH: emptyPath, TZ: "UTC" },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.match(/\n── \d /g)?.length, 7);
    for (const e of ENGINES) assert.match(r.stdout, new RegExp(`^${e.id}\\b`, "m"), `engine ${e.id} listed`);
    assert.match(r.stdout, /\/repo \(here\) +lint +1 /, "the current repository is named");
    assert.match(r.stdout, /^shellcheck +missing/m, "host tools are looked up on PATH");
    await assertGolden(join(GOLDEN, "once_process_120.txt"), normalizeOnce(r.stdout, home.base));
  } finally {
    await Deno.remove(home.base, { recursive: true });
  }
});

Deno.test("poly dash --once names no key and keeps every line within --width", async () => {
  const home = await makeFixture();
  try {
    for (const w of [40, 80, 200]) {
      const r = await runPoly(["dash", "--once", "--width", String(w)], {
        env: { POLY_STATE_HOME: home.stateHome, POLY_CACHE_HOME: home.cacheHome, TZ: "UTC" },
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.match(/\n── \d /g)?.length, PANES.length);
      for (const l of r.stdout.split("\n")) assert.ok(width(l) <= w, `wider than ${w}: ${l}`);
      // Keys do nothing in a snapshot: no pane names one.
      assert.doesNotMatch(r.stdout, /\/ filters|enter shows|press|esc |q quit|\? keys/);
    }
  } finally {
    await Deno.remove(home.base, { recursive: true });
  }
});

Deno.test("poly dash without a terminal exits 2 with a message on stderr", async () => {
  const r = await runPoly(["dash"]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr, NO_TERMINAL);
});
