/**
 * The check-run pre-pass (lib/run/prepass.ts): whatever answers a file — the
 * cache, a batch engine, a worker or the main thread — the report is the same,
 * and the cache counts each (file, engine) lookup once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runFmt, runLint } from "../../lib/run/mod.ts";
import type { Report } from "../../lib/report/schema.ts";
import { stable, workspace } from "./_workspace.ts";

const FILES: Record<string, string | Uint8Array> = {
  "poly.toml": '[cache]\ndir = ".poly-cache"\n',
  "a.py": "import os\n\n\ndef f(x):\n    return x == None\n",
  "b.py": "x = 1\n",
  "src/c.ts": "export const a: any = 1;\nif (a == 2) { debugger; }\n",
  "src/d.ts": "export function d(n: number): number {\n  return n + 1;\n}\n",
  "src/bad.ts": "export const = ;\n",
  "data.json": '{"a": 1, "a": 2}\n',
  "bin.py": new Uint8Array([0x00, 0x01, 0x02, 0xff, 0x00]),
  "page.html": "{% block body %}<p>{{ x }}</p>{% endblock %}\n",
};

/** Enough files for the pool to start workers (lib/run/pool.ts WORKER_THRESHOLD). */
const MANY = Object.fromEntries(
  Array.from(
    { length: 60 },
    (_, i) => [`many/m${i}.py`, i % 3 === 0 ? `import sys\nv${i} = ${i}\n` : `v${i} = ${i}\n`],
  ),
);

Deno.test("a lint check gives one report whether answered by the cache, batch engines, workers or this thread", async () => {
  const root = await workspace({ ...FILES, ...MANY }, "poly-prepass-");
  const uncached = await runLint({ paths: [], cwd: root, noCache: true, jobs: 1 });
  const cold = await runLint({ paths: [], cwd: root });
  const warm = await runLint({ paths: [], cwd: root });
  const pooled = await runLint({ paths: [], cwd: root, noCache: true, jobs: 2 });
  assert.deepEqual(stable(cold), stable(uncached));
  assert.deepEqual(stable(warm), stable(uncached));
  assert.deepEqual(stable(pooled), stable(uncached));
  // Honest: the binary file and the template are skips, the broken file a syntax-error finding, never clean.
  const paths = (r: Report) => r.results.map((x) => x.path);
  assert.ok(paths(uncached).includes("bin.py"));
  assert.ok(uncached.skipped.some((s) => s.path === "bin.py"));
  const bad = uncached.results.find((r) => r.path === "src/bad.ts");
  assert.equal(bad?.error, undefined);
  assert.ok(bad?.diagnostics?.some((d) => d.engine === "biome" && d.code === "parse" && d.severity === "error"));
  // A syntax error is cached like findings: the warm run looks nothing up in vain.
  assert.equal(warm.summary.cache!.misses, 0);
});

Deno.test("the cache counts each (file, engine) lookup once: a cold run only misses, a warm one only hits", async () => {
  const { "src/bad.ts": _bad, ...clean } = FILES;
  const root = await workspace(clean, "poly-prepass-");
  const cold = await runLint({ paths: [], cwd: root });
  const warm = await runLint({ paths: [], cwd: root });
  assert.ok(cold.summary.cache!.misses > 0);
  assert.equal(cold.summary.cache!.hits, 0);
  assert.deepEqual(warm.summary.cache, { hits: cold.summary.cache!.misses, misses: 0 });
});

Deno.test("a format check gives one report cold and warm; a changed file misses alone", async () => {
  const { "src/bad.ts": _bad, ...clean } = FILES;
  const root = await workspace({ ...clean, "e.py": "x = {  'a':1 }\n" }, "poly-prepass-");
  const cold = await runFmt({ paths: [], cwd: root });
  const warm = await runFmt({ paths: [], cwd: root });
  assert.deepEqual(stable(warm), stable(cold));
  assert.ok(cold.results.some((r) => r.path === "e.py" && r.changed));
  assert.equal(warm.summary.cache!.misses, 0);
  await Deno.writeTextFile(join(root, "b.py"), "y  =  2\n");
  const touched = await runFmt({ paths: [], cwd: root });
  assert.equal(touched.summary.cache!.misses, 1);
  assert.ok(touched.results.some((r) => r.path === "b.py" && r.changed));
});

Deno.test("a fix run still goes file by file and writes, then a check hits the cache for the fixed text", async () => {
  const root = await workspace(
    { "poly.toml": '[cache]\ndir = ".poly-cache"\n', "a.py": "import os\nx = 1\n" },
    "poly-prepass-",
  );
  const fixed = await runLint({ paths: [], cwd: root, fix: true });
  assert.equal(fixed.summary.fixed, 1);
  assert.equal(await Deno.readTextFile(join(root, "a.py")), "x = 1\n");
  const check = await runLint({ paths: ["a.py"], cwd: root });
  assert.equal(check.summary.checked, 1);
  assert.ok(check.summary.cache!.hits > 0);
  assert.equal(check.summary.diagnostics!.error + check.summary.diagnostics!.warning, 0);
});

Deno.test("the stat index: files read once are answered from their stamp; an edit of the same size is seen", async () => {
  const root = await workspace({
    "poly.toml": '[cache]\ndir = ".poly-cache"\n',
    "a.py": "import os\nx = 1\n",
    "b.py": "y = 2\n",
  }, "poly-prepass-");
  // The index only remembers files whose stamp is older than RACY_MS when read.
  const { RACY_MS } = await import("../../lib/cache/mod.ts");
  await new Promise((r) => setTimeout(r, RACY_MS + 200));
  const first = await runLint({ paths: [], cwd: root });
  const { DatabaseSync } = await import("node:sqlite");
  const dbs: string[] = [];
  for await (const e of Deno.readDir(join(root, ".poly-cache"))) {
    dbs.push(join(root, ".poly-cache", e.name, "cache.db"));
  }
  const db = new DatabaseSync(dbs[0]);
  const rows = db.prepare("SELECT path FROM files ORDER BY path").all().map((r) => (r as { path: string }).path);
  db.close();
  assert.deepEqual(rows, [join(root, "a.py"), join(root, "b.py"), join(root, "poly.toml")]);

  const second = await runLint({ paths: [], cwd: root });
  assert.deepEqual(stable(second), stable(first));
  assert.equal(second.summary.cache!.misses, 0);

  // Same size, new bytes: the stamp moves (mtime, ctime), so the file is read and its results recomputed.
  await Deno.writeTextFile(join(root, "a.py"), "import re\nx = 1\n");
  const third = await runLint({ paths: [], cwd: root });
  assert.ok(third.summary.cache!.misses > 0);
  const titles = (r: Report) => r.results.flatMap((x) => x.diagnostics ?? []).map((d) => d.title);
  assert.ok(titles(third).some((t) => t.includes("`re`")), JSON.stringify(titles(third)));
  assert.ok(!titles(third).some((t) => t.includes("`os`")));
});

/** Two TypeScript files of a fresh workspace as tasks of one engine, and how many batches a start begins. */
async function earlyFixture(engine: string, extra: Record<string, unknown> = {}) {
  const root = await workspace({ "src/c.ts": "debugger;\n", "src/d.ts": "export const d = 1;\n" }, "poly-prepass-");
  const settings = {
    defaults: { line_length: 120, line_ending: "lf" as const, final_newline: true, trim_trailing_whitespace: true },
    tool: {},
    ...extra,
  };
  const task = (rel: string, kind: "lint" | "fmt" = "lint") => ({
    path: join(root, rel),
    relPath: rel,
    language: "typescript" as const,
    kind,
    fix: false,
    engines: [{ id: engine, settings }],
    ignoreCodes: [],
    maxSize: 1 << 20,
    lineEnding: "lf" as const,
  });
  const count = async (started: Map<string, { finish(files: []): Promise<unknown> }>) => {
    await Promise.all([...started.values()].map((s) => s.finish([])));
    return started.size;
  };
  return { root, task, tasks: [task("src/c.ts"), task("src/d.ts")], count };
}

Deno.test("a cold lint check starts biome's batch before reading; a run the cache may answer does not", async () => {
  const { startEarly } = await import("../../lib/run/prepass.ts");
  const { openCache } = await import("../../lib/cache/mod.ts");
  const { root, task, tasks, count } = await earlyFixture("biome");
  assert.equal(await count(await startEarly(tasks, new Map(), new Set())), 1, "no cache: one batch for both files");
  const cache = await openCache({ anchor: root, root: join(root, ".cache-a") });
  const both = new Map([[0, cache], [1, cache]]);
  assert.equal(await count(await startEarly(tasks, both, new Set())), 1, "an empty cache: cold");
  assert.equal(cache.hasFiles(), false, "no stat index yet: the run may start before its stat round");
  cache.recordFiles([{ path: join(root, "src/c.ts"), size: 10, mtime: 1, ctime: 1, ino: 1, digest: "d" }]);
  assert.equal(cache.hasFiles(), true);
  cache.flush();
  assert.equal(cache.hasFiles(), true, "once written too");
  assert.equal(await count(await startEarly(tasks, both, new Set([1]))), 0, "a file in the stat index: not cold");
  cache.set("lint", "some-key", { diagnostics: [] });
  assert.equal(await count(await startEarly(tasks, both, new Set())), 0, "lint results cached: not cold");
  const fmt = [task("src/c.ts", "fmt")];
  assert.equal(await count(await startEarly(fmt, new Map(), new Set())), 0, "format checks never start early");
  cache.close();
});

Deno.test("a cold lint check starts the rules batch before reading, per namespace: cached lint results do not stop it", async () => {
  const { startEarly } = await import("../../lib/run/prepass.ts");
  const { openCache } = await import("../../lib/cache/mod.ts");
  const { root, tasks, count } = await earlyFixture("ast-grep", { rules: { dirs: [] } });
  // The rule set is relative to the workspace (configDir), as the pipeline passes it.
  for (const t of tasks) Object.assign(t.engines[0].settings, { configDir: root });
  assert.equal(await count(await startEarly(tasks, new Map(), new Set())), 1, "no cache: one rules batch");
  const cache = await openCache({ anchor: root, root: join(root, ".cache-r") });
  const both = new Map([[0, cache], [1, cache]]);
  cache.set("lint", "some-key", { diagnostics: [] });
  assert.equal(await count(await startEarly(tasks, both, new Set())), 1, "lint results only: rules still cold");
  cache.set("rules", "some-key", { diagnostics: [] });
  assert.equal(await count(await startEarly(tasks, both, new Set())), 0, "rules results cached: not cold");
  cache.close();
});
