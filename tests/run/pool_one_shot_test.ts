/**
 * A one-shot run (lib/run/pool.ts ONE_SHOT_WORKER_THRESHOLD): nothing else runs in
 * its process, so this thread lints a pool's worth of files itself where a
 * resident process would start workers. (Alone in its file: the check is about
 * which engines this test process loaded.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLint } from "../../lib/run/mod.ts";
import { loadedEngine } from "../../lib/engines/registry.ts";
import { ONE_SHOT_WORKER_THRESHOLD, WORKER_THRESHOLD } from "../../lib/run/pool.ts";
import { tempDir } from "../_helpers/temp.ts";

Deno.test("Pool: a one-shot run keeps on this thread a call that would start workers in a resident process", async () => {
  const root = await tempDir({ prefix: "poly-pool-one-shot-" });
  await Deno.mkdir(join(root, ".git"));
  await Deno.mkdir(join(root, "py"));
  // More Python files than start workers in a resident process, fewer than in a one-shot one (ruff runs in the pool).
  const count = WORKER_THRESHOLD + 12;
  assert.ok(count < ONE_SHOT_WORKER_THRESHOLD);
  for (let i = 0; i < count; i++) {
    await Deno.writeTextFile(join(root, "py", `m${String(i).padStart(3, "0")}.py`), `import sys\nv${i} = ${i}\n`);
  }
  const report = await runLint({ paths: [], cwd: root, noCache: true, jobs: 2, oneShot: true });
  assert.equal(report.summary.checked, count);
  assert.ok(report.results.every((r) => r.diagnostics?.some((d) => d.code === "F401")));
  // ruff ran on this thread.
  assert.notEqual(loadedEngine("ruff"), undefined);
});
