/**
 * The worker pool a run keeps across its windows (lib/run/pool.ts): once its
 * workers are up, a window with few files goes to them too, rather than this
 * thread loading the same engines a second time. (Alone in its file: the check
 * is about which engines this test process loaded.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLint } from "../../lib/run/mod.ts";
import { loadedEngine } from "../../lib/engines/registry.ts";
import { tempDir } from "../_helpers/temp.ts";

Deno.test("Pool: a window too small to start workers runs on the workers a larger window started", async () => {
  const root = await tempDir({ prefix: "poly-pool-" });
  await Deno.mkdir(join(root, ".git"));
  await Deno.mkdir(join(root, "py"));
  // 130 Python files (ruff runs in the pool): a window of 100, then one of 30 (under WORKER_THRESHOLD).
  for (let i = 0; i < 130; i++) {
    await Deno.writeTextFile(join(root, "py", `m${String(i).padStart(3, "0")}.py`), `import sys\nv${i} = ${i}\n`);
  }
  const report = await runLint({ paths: [], cwd: root, noCache: true, jobs: 2, window: 100 });
  assert.equal(report.summary.checked, 130);
  assert.equal(report.results.length, 130);
  assert.ok(report.results.every((r) => r.diagnostics?.some((d) => d.code === "F401")));
  // ruff ran on the workers only: this thread never loaded it.
  assert.equal(loadedEngine("ruff"), undefined);
});
