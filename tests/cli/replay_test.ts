/**
 * Replayed check runs, end to end (lib/cli/commands/_check_run.ts `RunReplay`,
 * lib/cache/replay.ts, lib/fs/read_log.ts), through the real process: a second
 * `poly lint` or `poly fmt --check` on an unchanged tree gives the first run's
 * report without running it, and an edited file, a new configuration file or a
 * new ignore file makes the next run a real one with the new answer. Fixes and
 * `--no-cache` never replay.
 *
 * A run is kept only when what it read is at least 2.5 s old (a file system's
 * timestamps may not tell two writes within that apart), so the trees here are
 * made, then left alone that long, once for the whole file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runPoly } from "../_helpers/cli.ts";
import { RACY_MS } from "../../lib/fs/read_log.ts";
import { main } from "../../lib/cli/main.ts";
import { RunReplay } from "../../lib/cli/commands/_check_run.ts";
import { report as fixtureReport } from "../report/_fixture.ts";
import type { FileResult } from "../../lib/report/schema.ts";
import type { CommandIO } from "../../lib/cli/command.ts";
import { withProcessEnv } from "../_helpers/process_env.ts";
import { tempDir } from "../_helpers/temp.ts";

/** Timers on: the table on stderr names `replay hit` when a run was replayed. */
const ENV = { POLY_DEBUG: "timing" };

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await Deno.realPath(await tempDir({ prefix: "poly-replay-" }));
  await Deno.mkdir(join(dir, ".git")); // the tree is its own repository: nothing above it configures it
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, name, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, name), text);
  }
  return dir;
}

const SOURCE = "export function f(a) {\n  debugger;\n  return a;\n}\n";
const CLEAN = "export function g(b) {\n  return b;\n}\n";
const UNFORMATTED = "export const a = {b:1}\n";
const FORMATTED = "export const a = 1;\n";

const trees = {
  // A skip with a name outside ASCII: the kept file escapes it, the replayed document has it as the first run did.
  edit: await tree({ "a.js": SOURCE, "dé/ü.rb": "puts 1\n" }),
  config: await tree({ "a.js": SOURCE }),
  ignore: await tree({ "a.js": SOURCE, "b.js": SOURCE }),
  fmt: await tree({ "a.js": "export const a = {b:1}\n" }),
  off: await tree({ "a.js": SOURCE, "poly.toml": "[cache]\nenabled = false\n", "package.json": '{ "name": "x" }\n' }),
  unread: await tree({ "a.js": SOURCE, "b.rb": "puts 1\n", "old/c.rb": "puts 2\n" }),
  stale: await tree({
    "a.js": SOURCE,
    "b.js": CLEAN,
    "c.js": SOURCE,
    "d/e.js": CLEAN,
    "package.json": '{ "name": "x" }\n',
    "f.rb": "puts 1\n",
  }),
  human: await tree({ "a.js": SOURCE, "b.js": CLEAN, "c.js": SOURCE }),
  // A kept text larger than the buffer a kept file is read through (256 KB): 400 findings of ~700 bytes each, twice.
  large: await tree({ "big.js": `export function f() {\n${"  debugger;\n".repeat(400)}}\n`, "b.js": CLEAN }),
  // ESLint configured and not installed: each file is skipped by it beside the rule pack's findings.
  eslint: await tree({ "eslint.config.js": "export default [];\n", "a.js": SOURCE, "b.js": CLEAN }),
  // Formatting: two files that would change, two that would not.
  fmtStale: await tree({ "a.js": UNFORMATTED, "b.js": FORMATTED, "c.js": UNFORMATTED, "d/e.js": FORMATTED }),
  fmtHuman: await tree({ "a.js": UNFORMATTED, "b.js": FORMATTED, "c.js": UNFORMATTED }),
  python: await tree({ "a.py": "import os\n", "b.js": CLEAN }),
};
const settled = new Promise((resolve) => setTimeout(resolve, RACY_MS + 200));

/**
 * `poly lint` in `cwd`, run again (after the racy window) where it was not kept because a file of poly's own, outside
 * `cwd`, changed just before or during it: another test's `deno install` links the same npm package files into its
 * own folder, which changes their ctime. That is not what these tests are about; a file of the tree is.
 */
async function polyKept(args: string[], cwd: string) {
  for (let attempt = 0;; attempt++) {
    const run = await runPoly(args, { cwd, env: ENV });
    const racy = /replay not kept: (.+) changed just before or during the run/.exec(run.stderr)?.[1];
    if (attempt >= 3 || !racy || racy.startsWith(`${cwd}/`)) return run;
    await new Promise((resolve) => setTimeout(resolve, RACY_MS + 200));
  }
}

async function lint(cwd: string, ...args: string[]) {
  const run = await polyKept(["lint", "--format", "json", ...args], cwd);
  return { ...run, replayed: run.stderr.includes("replay hit"), report: JSON.parse(run.stdout) };
}

/** A report without what differs between two processes that give the same answer. */
function answer(report: { poly: { pid?: number }; summary: { cache?: unknown } }) {
  const { pid: _pid, ...poly } = report.poly;
  const { cache: _cache, ...summary } = report.summary;
  return { ...report, poly, summary };
}

/** The path of each of biome's `noDebugger` findings. */
const debuggers = (report: { results: { path: string; diagnostics?: { code: string }[] }[] }) =>
  report.results.flatMap((r) =>
    (r.diagnostics ?? []).filter((d) => d.code === "suspicious/noDebugger").map(() => r.path)
  )
    .sort();

Deno.test("a second poly lint on an unchanged tree replays the first; an edit makes the next a real run", async () => {
  await settled;
  const dir = trees.edit;
  const first = await lint(dir);
  assert.equal(first.replayed, false, first.stderr);
  assert.equal(first.code, 1);
  assert.deepEqual(debuggers(first.report), ["a.js"]);

  const second = await lint(dir);
  assert.equal(second.replayed, true, second.stderr);
  assert.equal(second.code, first.code);
  assert.deepEqual(answer(second.report), answer(first.report));
  // The JSON document is the first's byte for byte (its results are the text the first run wrote), but for the
  // process's pid and the cache's count.
  const same = (run: { stdout: string; report: { poly: { pid?: number } } }) =>
    run.stdout.replace(`"pid": ${run.report.poly.pid}`, '"pid": 0').replace(/"cache": \{[^}]*\}/, '"cache": {}');
  assert.equal(same(second), same(first));
  assert.deepEqual(second.report.skipped.map((s: { path: string }) => s.path), ["dé/ü.rb"]);
  const files = first.report.summary.cache.hits + first.report.summary.cache.misses;
  assert.deepEqual(second.report.summary.cache, { hits: files, misses: 0 }, "what a warm run says");
  // Another command line is another key: a real run (from the result cache), kept, then replayed as it printed.
  const human = () => polyKept(["lint"], dir);
  const [h1, h2] = [await human(), await human()];
  assert.ok(!h1.stderr.includes("replay hit") && h2.stderr.includes("replay hit"), h2.stderr);
  assert.match(h2.stdout, /noDebugger/);
  assert.match(h2.stdout, /dé\/ü\.rb/);
  assert.equal(h2.stdout, h1.stdout);

  await Deno.writeTextFile(join(dir, "a.js"), SOURCE.replace("return a;", "debugger;\n  return a;"));
  const edited = await lint(dir);
  assert.equal(edited.replayed, false, edited.stderr);
  assert.deepEqual(debuggers(edited.report), ["a.js", "a.js"]);

  // Fixes write; --no-cache asks for a real run: neither replays.
  const uncached = await runPoly(["lint", "--no-cache"], { cwd: dir, env: ENV });
  assert.ok(!uncached.stderr.includes("replay"), uncached.stderr);
});

Deno.test("a configuration file created beside the files makes the next poly lint a real run", async () => {
  await settled;
  const dir = trees.config;
  assert.equal((await lint(dir)).replayed, false);
  assert.equal((await lint(dir)).replayed, true);
  await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.biome]\nenabled = false\n");
  const after = await lint(dir);
  assert.equal(after.replayed, false, after.stderr);
  assert.deepEqual(debuggers(after.report), []);
});

Deno.test("a file no engine reads: an edit to it still replays, removing it makes the next poly lint a real run", async () => {
  await settled;
  const dir = trees.unread;
  const first = await lint(dir);
  assert.equal(first.replayed, false, first.stderr);
  const skipped = (report: { results: { path: string; skipped?: string }[] }) =>
    report.results.filter((r) => r.skipped).map((r) => r.path);
  assert.deepEqual(skipped(first.report), ["b.rb", "old/c.rb"]);
  // Its text is nothing the report depends on (no engine reads it): the run is replayed as it was.
  await Deno.writeTextFile(join(dir, "b.rb"), "puts 3\n");
  const edited = await lint(dir);
  assert.equal(edited.replayed, true, edited.stderr);
  assert.deepEqual(answer(edited.report), answer(first.report));
  // Whether it is there at all is its folder's listing, which the run read.
  await Deno.remove(join(dir, "old", "c.rb"));
  const removed = await lint(dir);
  assert.equal(removed.replayed, false, removed.stderr);
  assert.deepEqual(skipped(removed.report), ["b.rb"]);
});

Deno.test("a configuration that turns the cache off is never replayed, and the run says which poly file did", async () => {
  await settled;
  for (let i = 0; i < 2; i++) {
    const run = await lint(trees.off);
    assert.equal(run.replayed, false, run.stderr);
    assert.match(run.stderr, new RegExp(`replay not kept: ${join(trees.off, "poly.toml")} turns the cache off`));
  }
});

Deno.test("poly cache stats counts kept runs; poly cache clean, or a new ignore file, makes the next lint real", async () => {
  await settled;
  const dir = trees.ignore;
  assert.deepEqual(debuggers((await lint(dir)).report), ["a.js", "b.js"]);
  assert.equal((await lint(dir)).replayed, true);
  // `poly cache stats` counts the kept runs; `poly cache clean` forgets them: the next run is a real one (kept again).
  const stats = async () => JSON.parse((await runPoly(["cache", "stats", "--format", "json"], { cwd: dir })).stdout);
  const kept = (await stats()).replays;
  assert.ok(kept.runs >= 1 && kept.bytes > 0, JSON.stringify(kept));
  assert.match((await runPoly(["cache", "stats"], { cwd: dir })).stdout, /check runs kept for replay: \d+ \(/);
  assert.equal((await runPoly(["cache", "clean"], { cwd: dir, env: ENV })).code, 0);
  assert.deepEqual((await stats()).replays, { runs: 0, bytes: 0 });
  assert.equal((await lint(dir)).replayed, false);
  assert.equal((await lint(dir)).replayed, true);
  await Deno.writeTextFile(join(dir, ".gitignore"), "b.js\n");
  const after = await lint(dir);
  assert.equal(after.replayed, false, after.stderr);
  assert.deepEqual(debuggers(after.report), ["a.js"]);
});

Deno.test("poly fmt --check and --diff replay their own runs; --fix never replays and writes", async () => {
  await settled;
  const dir = trees.fmt;
  const check = () => polyKept(["fmt", "--check"], dir);
  const diff = () => polyKept(["fmt", "--diff"], dir);
  const [first, second] = [await check(), await check()];
  assert.ok(!first.stderr.includes("replay hit") && second.stderr.includes("replay hit"), second.stderr);
  assert.equal(second.stdout, first.stdout);
  assert.equal(second.code, 1);
  const [d1, d2] = [await diff(), await diff()];
  assert.ok(!d1.stderr.includes("replay hit") && d2.stderr.includes("replay hit"), d2.stderr);
  assert.equal(d2.stdout, d1.stdout);
  assert.match(d2.stdout, /^\+export const a = \{ b: 1 \};?$/m);

  const fix = await runPoly(["fmt", "--fix"], { cwd: dir, env: ENV });
  assert.ok(!fix.stderr.includes("replay"), fix.stderr);
  assert.equal(fix.code, 0, fix.stderr);
  assert.equal(await Deno.readTextFile(join(dir, "a.js")), "export const a = { b: 1 };\n");
  const after = await check();
  assert.ok(!after.stderr.includes("replay hit"), after.stderr);
  assert.equal(after.code, 0);
});

Deno.test("edits to files of a kept poly lint run bring it up to date: those files checked again, the rest kept", async () => {
  await settled;
  const dir = trees.stale;
  const brought = (run: { stderr: string }) => run.stderr.includes("replay brought up to date");
  /** The same run in full: another command line (a key of its own), the cache bypassed. */
  const whole = () => lint(dir, "--no-cache");
  const first = await lint(dir);
  assert.equal(first.replayed, false, first.stderr);
  assert.deepEqual(debuggers(first.report), ["a.js", "c.js"]);
  // A finding added to a clean file (its result comes in among the kept ones), one taken from another (its result
  // goes), one added to a file in a folder.
  await Deno.writeTextFile(join(dir, "b.js"), SOURCE);
  await Deno.writeTextFile(join(dir, "c.js"), CLEAN);
  await Deno.writeTextFile(join(dir, "d/e.js"), SOURCE.replace("debugger;", "debugger;\n  debugger;"));
  const edited = await lint(dir);
  assert.ok(brought(edited) && !edited.replayed, edited.stderr);
  assert.match(edited.stderr, /replay stale: 3 changed/);
  const full = await whole();
  assert.deepEqual(debuggers(edited.report), ["a.js", "b.js", "d/e.js", "d/e.js"]);
  assert.deepEqual(answer(edited.report), answer(full.report));
  assert.equal(edited.code, full.code);
  // Byte for byte what the whole run writes, but for the pid and the cache's counts (a whole run's: the changed
  // files' engines the misses, the kept files' the hits; the run in full here bypassed the cache).
  const same = (run: { stdout: string; report: { poly: { pid?: number } } }) =>
    run.stdout.replace(`"pid": ${run.report.poly.pid}`, '"pid": 0').replace(/,\n {4}"cache": \{[^}]*\}/, "");
  assert.equal(same(edited), same(full));
  const { hits, misses } = edited.report.summary.cache;
  assert.ok(misses >= 3 && hits + misses === first.report.summary.cache.hits + first.report.summary.cache.misses);

  // A file the run read for more than its own result (package.json: its engines' configuration) is no file of the
  // run alone: an edit to it makes the next run whole.
  await Deno.writeTextFile(join(dir, "package.json"), '{ "name": "y" }\n');
  const config = await lint(dir);
  assert.ok(!brought(config) && !config.replayed && !config.stderr.includes("replay stale"), config.stderr);
  assert.deepEqual(answer(config.report), answer((await whole()).report));

  // A file that no longer checks as it did (now skipped: not text) makes the run whole, with the whole run's report.
  await new Promise((r) => setTimeout(r, RACY_MS + 200)); // a run is kept once what it read has settled
  assert.equal((await lint(dir)).replayed, false);
  assert.equal((await lint(dir)).replayed, true);
  await Deno.writeFile(join(dir, "b.js"), new Uint8Array([0, 1, 2, 0]));
  const binary = await lint(dir);
  assert.match(binary.stderr, /replay stale: 1 changed/);
  assert.ok(!brought(binary), binary.stderr);
  assert.deepEqual(answer(binary.report), answer((await whole()).report));
  assert.ok(binary.report.skipped.some((s: { path: string }) => s.path === "b.js"), binary.stdout);
});

Deno.test("an edited Python file warms ruff beside the run that brings the kept one up to date; other edits do not", async () => {
  await settled;
  const dir = trees.python;
  assert.equal((await lint(dir)).replayed, false);
  await Deno.writeTextFile(join(dir, "a.py"), "import os\nimport sys\n");
  const edited = await lint(dir);
  assert.match(edited.stderr, /replay stale: 1 changed/);
  assert.match(edited.stderr, /warm ruff/);
  // ruff's findings in the edited file (F401 twice), as the whole run has them.
  const codes = (report: typeof edited.report) =>
    report.results.flatMap((r: { diagnostics?: { code: string }[] }) => (r.diagnostics ?? []).map((d) => d.code));
  assert.deepEqual(codes(edited.report), ["F401", "F401"]);
  assert.deepEqual(answer(edited.report), answer((await lint(dir, "--no-cache")).report));
  await new Promise((r) => setTimeout(r, RACY_MS + 200)); // a run is kept once what it read has settled
  assert.equal((await lint(dir)).replayed, false);
  await Deno.writeTextFile(join(dir, "b.js"), SOURCE);
  const other = await lint(dir);
  assert.match(other.stderr, /replay stale: 1 changed/);
  assert.doesNotMatch(other.stderr, /warm ruff/);
});

Deno.test("a human report is brought up to date from the kept run's results as the whole run prints it", async () => {
  await settled;
  const dir = trees.human;
  const human = (...args: string[]) => polyKept(["lint", ...args], dir);
  const first = await human();
  assert.ok(!first.stderr.includes("replay hit"), first.stderr);
  await Deno.writeTextFile(join(dir, "b.js"), SOURCE);
  await Deno.writeTextFile(join(dir, "c.js"), CLEAN);
  const edited = await human();
  assert.match(edited.stderr, /replay brought up to date/);
  const full = await human("--no-cache");
  assert.equal(edited.stdout, full.stdout);
  assert.match(edited.stdout, /b\.js/);
  assert.doesNotMatch(edited.stdout, /c\.js/);
});

Deno.test("a kept JSON text larger than the buffer it is read through is brought up to date whole", async () => {
  await settled;
  const dir = trees.large;
  const first = await lint(dir);
  assert.ok(first.stdout.length > 300 * 1024, `${first.stdout.length} bytes`);
  await Deno.writeTextFile(join(dir, "b.js"), SOURCE);
  const edited = await lint(dir);
  assert.match(edited.stderr, /replay brought up to date/);
  const full = await lint(dir, "--no-cache");
  assert.deepEqual(answer(edited.report), answer(full.report));
});

Deno.test("a changed file skipped by the same engine for the same reason before and after is brought up to date", async () => {
  await settled;
  const dir = trees.eslint;
  const first = await lint(dir);
  assert.match(first.stdout, /ESLint is not installed here/);
  await Deno.writeTextFile(join(dir, "b.js"), SOURCE);
  const edited = await lint(dir);
  assert.match(edited.stderr, /replay brought up to date/);
  const full = await lint(dir, "--no-cache");
  assert.deepEqual(answer(edited.report), answer(full.report));
  assert.ok(edited.report.results.some((r: FileResult) => r.path === "b.js" && r.skipped && r.diagnostics?.length));
});

Deno.test("edits to files of a kept poly fmt --check run bring it up to date, as the whole run reports them", async () => {
  await settled;
  const dir = trees.fmtStale;
  const fmt = async (...args: string[]) => {
    const run = await polyKept(["fmt", "--check", "--format", "json", ...args], dir);
    return { ...run, report: JSON.parse(run.stdout) };
  };
  const first = await fmt();
  assert.equal(first.report.summary.changed, 2, first.stdout);
  // One file made to need formatting, one formatted, one in a folder made to need it.
  await Deno.writeTextFile(join(dir, "b.js"), UNFORMATTED);
  await Deno.writeTextFile(join(dir, "c.js"), FORMATTED);
  await Deno.writeTextFile(join(dir, "d/e.js"), UNFORMATTED);
  const edited = await fmt();
  assert.match(edited.stderr, /replay stale: 3 changed/);
  assert.match(edited.stderr, /replay brought up to date/);
  const full = await fmt("--no-cache");
  assert.equal(edited.report.summary.changed, 3);
  assert.deepEqual(
    edited.report.results.filter((r: FileResult) => r.changed).map((r: FileResult) => r.path),
    ["a.js", "b.js", "d/e.js"],
  );
  const same = (run: { stdout: string; report: { poly: { pid?: number } } }) =>
    run.stdout.replace(`"pid": ${run.report.poly.pid}`, '"pid": 0').replace(/,\n {4}"cache": \{[^}]*\}/, "");
  assert.equal(same(edited), same(full));
  assert.equal(edited.code, full.code);
  // Every file formatted: the count and the exit code follow.
  for (const name of ["a.js", "b.js", "d/e.js"]) await Deno.writeTextFile(join(dir, name), FORMATTED);
  const clean = await fmt();
  assert.match(clean.stderr, /replay brought up to date/);
  assert.equal(clean.report.summary.changed, 0);
  assert.equal(clean.code, 0);
  assert.equal(same(clean), same(await fmt("--no-cache")));
});

Deno.test("a human poly fmt report is brought up to date; poly fmt --diff after an edit runs whole", async () => {
  await settled;
  const dir = trees.fmtHuman;
  // A fix writes, and is run once.
  const fmt = (...args: string[]) =>
    args.includes("--fix") ? runPoly(["fmt", ...args], { cwd: dir, env: ENV }) : polyKept(["fmt", ...args], dir);
  const [check, diff] = [await fmt(), await fmt("--diff")];
  assert.equal(check.code, 1, check.stderr);
  assert.equal(diff.code, 1, diff.stderr);
  await Deno.writeTextFile(join(dir, "b.js"), UNFORMATTED);
  await Deno.writeTextFile(join(dir, "c.js"), FORMATTED);
  const edited = await fmt();
  assert.match(edited.stderr, /replay brought up to date/);
  assert.equal(edited.stdout, (await fmt("--no-cache")).stdout);
  assert.match(edited.stdout, /b\.js/);
  const diffed = await fmt("--diff");
  assert.doesNotMatch(diffed.stderr, /replay (hit|brought)/);
  assert.equal(diffed.stdout, (await fmt("--diff", "--no-cache")).stdout);
  assert.match(diffed.stdout, /^\+\+\+ b\/b\.js$/m);
});

/** Runs `body` in this process with a quiet CommandIO in `dir` and cache and state homes of its own. */
async function inProcess(dir: string, body: (io: CommandIO) => Promise<void>): Promise<void> {
  const home = await tempDir({ prefix: "poly-replay-home-" });
  const io = {
    stdout: () => Promise.resolve(),
    stderr: () => Promise.resolve(),
    stdoutIsTerminal: false,
    stderrIsTerminal: false,
    cwd: dir,
  };
  await withProcessEnv({ POLY_CACHE_HOME: join(home, "cache"), POLY_STATE_HOME: join(home, "state") }, () => body(io));
}

Deno.test("a run that fails midway, in process, leaves Deno's reading functions as they were", async () => {
  const dir = await tree({ "a.js": SOURCE, "poly.toml": "[tools.biome\n" }); // malformed: the run throws
  const stat = Deno.stat;
  await inProcess(dir, async (io) => {
    assert.equal(await main(["lint", "--format", "json", "--no-workspace"], io), 2);
  });
  assert.equal(Deno.stat, stat);
});

Deno.test("a run whose results pass ~64 MiB lets them go and is not kept (its memory stays bounded by its window)", async () => {
  const dir = await tree({ "a.js": SOURCE });
  const value = { paths: [], format: "json" as const, exclude: [], noCache: false, color: "never" as const };
  await inProcess(dir, async (io) => {
    const replay = (await RunReplay.forRun("check", value, { ...io, replayKey: "k" }))!;
    assert.equal(replay.hit, undefined);
    await replay.start();
    // A file with a quarter of a million findings (only their number counts here).
    replay.result({ path: "huge.js", diagnostics: new Array(250_000) } as FileResult);
    assert.equal(await replay.keep({ kind: "lint", value }, fixtureReport(), true), "the report is too large to keep");
  });
});
