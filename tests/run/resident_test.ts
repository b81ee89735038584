/**
 * One process, many runs (what `poly mcp` and `poly daemon` do): whatever a run
 * memoizes for speed must not outlive the inputs it came from.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLint } from "../../lib/run/mod.ts";
import { LiveWorkspace } from "../../lib/daemon/live.ts";
import type { FileResult, Report } from "../../lib/report/schema.ts";
import { tempDir } from "../_helpers/temp.ts";

const RULE = (severity: string, message: string) =>
  `id: user-no-alert\nlanguage: TypeScript\nseverity: ${severity}\nmessage: ${message}\nrule:\n  pattern: alert($$$A)\n`;

function alerts(report: Report): string[] {
  return report.results.flatMap((r) =>
    (r.diagnostics ?? []).filter((d) => d.code === "user-no-alert").map((d) => `${r.path}:${d.severity}:${d.title}`)
  );
}

Deno.test("a resident process sees user rule files edited, added and removed between runs", async () => {
  const root = await tempDir({ prefix: "poly-resident-" });
  await Deno.mkdir(join(root, ".git"));
  await Deno.mkdir(join(root, ".poly", "rules"), { recursive: true });
  await Deno.writeTextFile(join(root, "poly.toml"), '[cache]\ndir = ".poly-cache"\n');
  await Deno.writeTextFile(join(root, "a.ts"), 'alert("hi");\n');
  const rule = join(root, ".poly", "rules", "no-alert.yml");
  const run = () => runLint({ paths: [], cwd: root, jobs: 1 });

  await Deno.writeTextFile(rule, RULE("warning", "first"));
  assert.deepEqual(alerts(await run()), ["a.ts:warning:first"]);
  assert.deepEqual(alerts(await run()), ["a.ts:warning:first"]);

  await Deno.writeTextFile(rule, RULE("error", "second, and longer"));
  assert.deepEqual(alerts(await run()), ["a.ts:error:second, and longer"]);

  await Deno.remove(rule);
  assert.deepEqual(alerts(await run()), []);

  await Deno.writeTextFile(join(root, ".poly", "rules", "again.yml"), RULE("info", "third"));
  assert.deepEqual(alerts(await run()), ["a.ts:info:third"]);
  await Deno.remove(root, { recursive: true });
});

Deno.test("a resident process's kept plan serves runs while the tree's shape holds, under each run's own rule files", async () => {
  const base = await Deno.realPath(await tempDir({ prefix: "poly-resident-" }));
  const root = join(base, "repo");
  await Deno.mkdir(join(root, ".git"), { recursive: true });
  await Deno.mkdir(join(root, ".poly", "rules"), { recursive: true });
  await Deno.writeTextFile(join(root, "a.ts"), 'alert("hi");\n');
  await Deno.writeTextFile(join(root, "schema.sql"), "select 1;\n");
  const rule = join(root, ".poly", "rules", "no-alert.yml");
  await Deno.writeTextFile(rule, RULE("warning", "first"));
  const live = await LiveWorkspace.open(root, join(base, "markers"));
  try {
    const run = async () => {
      await live.sync();
      const passed: FileResult[] = [];
      const report = await runLint({ paths: [], cwd: root, jobs: 1, memo: live, onResult: (r) => void passed.push(r) });
      return { report: { ...report, results: passed }, passed };
    };
    const first = await run();
    assert.deepEqual(alerts(first.report), ["a.ts:warning:first"]);
    const second = await run();
    assert.deepEqual(alerts(second.report), ["a.ts:warning:first"]);
    assert.deepEqual(second.passed, first.passed);
    const skip = (r: { passed: FileResult[] }) => r.passed.find((p) => p.path === "schema.sql");
    assert.ok(skip(first)?.skipped, "schema.sql is a skip the plan knows before any engine runs");
    assert.equal(skip(second), skip(first), "the second run passes the kept plan's own results");

    // A rule file is no part of the tree's shape: the kept plan serves the next run, whose rules are read again.
    await Deno.writeTextFile(rule, RULE("error", "second, and longer"));
    const third = await run();
    assert.equal(skip(third), skip(first));
    assert.deepEqual(alerts(third.report), ["a.ts:error:second, and longer"]);

    // A new file changes the shape: the plan is made again, and takes it.
    await Deno.writeTextFile(join(root, "b.ts"), 'alert("b");\n');
    const fourth = await run();
    assert.notEqual(skip(fourth), skip(first));
    assert.deepEqual(alerts(fourth.report), ["a.ts:error:second, and longer", "b.ts:error:second, and longer"]);
  } finally {
    live.close();
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("a resident process plans a shard again each run: shards follow the files' sizes, which an edit changes", async () => {
  const base = await Deno.realPath(await tempDir({ prefix: "poly-resident-" }));
  const root = join(base, "repo");
  await Deno.mkdir(join(root, ".git"), { recursive: true });
  // Each with a finding (a clean file passes no result on), and of its own size.
  await Deno.writeTextFile(join(root, "a.ts"), `debugger; // ${"x".repeat(400)}\n`);
  await Deno.writeTextFile(join(root, "b.ts"), "debugger;\n");
  const live = await LiveWorkspace.open(root, join(base, "markers"));
  try {
    const first = async () => {
      await live.sync();
      const passed: string[] = [];
      const onResult = (r: FileResult) => void passed.push(r.path);
      await runLint({ paths: [], cwd: root, jobs: 1, memo: live, shard: { index: 1, count: 2 }, onResult });
      return passed;
    };
    assert.deepEqual(await first(), ["a.ts"], "the larger file goes to the first shard");
    // Same shape, other sizes: the first shard is now the other file, as a process of its own would say.
    await Deno.writeTextFile(join(root, "b.ts"), `debugger; // ${"y".repeat(800)}\n`);
    assert.deepEqual(await first(), ["b.ts"]);
  } finally {
    live.close();
    await Deno.remove(base, { recursive: true });
  }
});
