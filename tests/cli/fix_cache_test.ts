/**
 * `poly lint --fix` keeps each engine's fixes in the result cache (namespace `fix`), as it keeps findings: a file
 * whose text, settings and engines were fixed before is fixed again from the cache, no engine loaded, to the same
 * bytes; a text not seen before is fixed by the engine.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runPoly } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";

const FIXABLE_PY = "import os\nimport sys\n\nprint(sys.argv)\n";
const FIXED_PY = "import sys\n\nprint(sys.argv)\n";

/** A `poly lint --fix` run with `POLY_DEBUG=timing`: its report, and the engines it loaded. */
async function fix(cwd: string): Promise<{ fixed: number; hits: number; loaded: string[] }> {
  const run = await runPoly(["lint", "--no-workspace", "--fix", "--format", "json", "."], {
    cwd,
    env: { POLY_DEBUG: "timing" },
  });
  const doc = JSON.parse(run.stdout) as { summary: { fixed?: number; cache?: { hits: number } } };
  const loaded = [...run.stderr.matchAll(/^ {2}load (\S+) /gm)].map((m) => m[1]).filter((id) => id !== "run");
  return { fixed: doc.summary.fixed ?? 0, hits: doc.summary.cache?.hits ?? 0, loaded };
}

Deno.test("poly lint --fix answers a text it fixed before from the cache, loading no engine to fix it", async () => {
  const dir = await Deno.realPath(await tempDir({ prefix: "poly-fix-cache-" }));
  await Deno.mkdir(join(dir, ".git"));
  const file = join(dir, "a.py");
  await Deno.writeTextFile(file, FIXABLE_PY);
  const first = await fix(dir);
  assert.equal(first.fixed, 1);
  assert.ok(first.loaded.includes("ruff"), `ruff fixed it: ${first.loaded}`);
  assert.equal(await Deno.readTextFile(file), FIXED_PY);

  // The same text again (an agent's edit undone): the fix and the findings after it come from the cache.
  await Deno.writeTextFile(file, FIXABLE_PY);
  const again = await fix(dir);
  assert.equal(again.fixed, 1);
  assert.deepEqual(again.loaded, [], "no engine loaded");
  assert.ok(again.hits >= 2, `fix and findings from the cache: ${again.hits}`);
  assert.equal(await Deno.readTextFile(file), FIXED_PY);

  // A text not fixed before: ruff fixes it.
  await Deno.writeTextFile(file, "import json\n" + FIXABLE_PY);
  const other = await fix(dir);
  assert.equal(other.fixed, 2);
  assert.ok(other.loaded.includes("ruff"));
  assert.equal(await Deno.readTextFile(file), FIXED_PY);
  await Deno.remove(dir, { recursive: true });
});
