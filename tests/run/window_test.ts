/**
 * A run goes through its files window by window (lib/run/mod.ts): results pass
 * to `onResult` in report order as each window is done, the run keeps none of
 * them, and the report is the one a single-window run gives.
 */
import assert from "node:assert/strict";
import { runFmt, runLint } from "../../lib/run/mod.ts";
import type { FileResult } from "../../lib/report/schema.ts";
import { stable, workspace } from "./_workspace.ts";

/** 130 Python files (ruff runs in the pool: enough per window for workers), TypeScript, skips, an error. */
const FILES: Record<string, string> = {
  "poly.toml": '[cache]\ndir = ".poly-cache"\n',
  ...Object.fromEntries(
    Array.from({ length: 130 }, (_, i) => [
      `py/m${String(i).padStart(3, "0")}.py`,
      i % 3 === 0 ? `import sys\nv${i} = ${i}\n` : i % 7 === 0 ? `def f(x):\n    return x == None\n` : `v${i} = ${i}\n`,
    ]),
  ),
  "a/first.ts": "export const a: any = 1;\nif (a == 2) { debugger; }\n",
  "b/bad.ts": "export const = ;\n",
  "b/page.html": "{% block body %}<p>{{ x }}</p>{% endblock %}\n",
  "z/data.json": '{"a": 1, "a": 2}\n',
  "z/unformatted.ts": "export const  z =1\n",
};

Deno.test("runLint() passes each result to onResult in path order while the run goes, and keeps none", async () => {
  const root = await workspace(FILES, "poly-window-");
  const whole = await runLint({ paths: [], cwd: root, noCache: true, jobs: 1 });
  const passed: FileResult[] = [];
  let done = 0;
  let total = 0;
  /** Files done when the first result was passed on. */
  let doneAtFirst = -1;
  const windowed = await runLint({
    paths: [],
    cwd: root,
    noCache: true,
    jobs: 1,
    window: 16,
    onProgress: (d, t) => ([done, total] = [d, t]),
    onResult: (r) => {
      if (passed.length === 0) doneAtFirst = done;
      passed.push(r);
    },
  });
  assert.ok(whole.results.length > 50);
  assert.deepEqual(passed, whole.results);
  // Results were written while files were still to run: the run did not hold them to the end.
  assert.ok(doneAtFirst >= 0 && doneAtFirst < total, `first result after ${doneAtFirst} of ${total} files`);
  assert.deepEqual(windowed.results, []);
  assert.deepEqual(stable({ ...windowed, results: whole.results }), stable(whole));
});

Deno.test("runLint() in windows with a pool kept across them gives the one-window report, cold and warm", async () => {
  const one = await workspace(FILES, "poly-window-");
  const many = await workspace(FILES, "poly-window-");
  const single = await runLint({ paths: [], cwd: one, jobs: 2, window: 1_000_000 });
  const cold = await runLint({ paths: [], cwd: many, jobs: 2, window: 50 });
  const warm = await runLint({ paths: [], cwd: many, jobs: 2, window: 50 });
  assert.deepEqual(stable(cold), stable(single));
  assert.deepEqual(stable(warm), stable(single));
  // Each (file, engine) is looked up once, windows or not; the warm run answers all from the cache.
  assert.deepEqual(cold.summary.cache, single.summary.cache);
  assert.deepEqual(warm.summary.cache, { hits: single.summary.cache!.misses, misses: 0 });
});

Deno.test("runFmt() in windows gives the one-window report (diffs bounded over the whole report)", async () => {
  const root = await workspace(FILES, "poly-window-");
  const single = await runFmt({ paths: [], cwd: root, noCache: true, jobs: 1 });
  const passed: FileResult[] = [];
  const windowed = await runFmt({
    paths: [],
    cwd: root,
    noCache: true,
    jobs: 1,
    window: 7,
    onResult: (r) => void passed.push(r),
  });
  assert.ok(single.summary.changed! > 0);
  assert.deepEqual(stable({ ...windowed, results: passed }), stable(single));
});

Deno.test("runLint() cancelled after its first window reports the files not yet run as cancelled, and ends", async () => {
  const root = await workspace(FILES, "poly-window-");
  const controller = new AbortController();
  const passed: FileResult[] = [];
  const report = await runLint({
    paths: [],
    cwd: root,
    noCache: true,
    jobs: 2,
    window: 60,
    signal: controller.signal,
    onResult: (r) => {
      passed.push(r);
      controller.abort();
    },
  });
  const cancelled = passed.filter((r) => r.error === "cancelled before this file was processed");
  assert.ok(cancelled.length >= 60, `${cancelled.length} cancelled`);
  assert.ok(passed.some((r) => r.diagnostics?.length), "the first window's findings were passed on");
  assert.equal(report.summary.errored, report.errors.length);
  assert.ok(report.errors.length >= cancelled.length);
});
