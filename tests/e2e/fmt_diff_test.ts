/**
 * The unified diff of a formatting change, where a person reads it: `poly fmt
 * --diff` (only the diffs, as `ruff format --diff`) and the human output of
 * `poly fmt --check`; golden files in tests/e2e/golden (POLY_UPDATE_GOLDEN=1).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertGolden, copyFixture, REPO, runPoly } from "../_helpers/cli.ts";

const GOLDEN = join(REPO, "tests", "e2e", "golden");

async function drifted(): Promise<string> {
  const dir = await copyFixture("e2e/findings");
  await Deno.writeTextFile(join(dir, "ugly.ts"), "export const x = {a:1}\n");
  await Deno.writeTextFile(join(dir, "ugly.py"), "import os\nx = {'a':1}\ny=2\n");
  return dir;
}

Deno.test("poly fmt --diff prints the unified diff of each file that would change, and writes nothing", async () => {
  const dir = await drifted();
  const { code, stdout, stderr } = await runPoly(["fmt", "--diff"], { cwd: dir });
  assert.equal(code, 1, stderr);
  assert.match(stderr, /2 files would be reformatted/);
  await assertGolden(join(GOLDEN, "fmt_diff.patch"), stdout);
  assert.equal(await Deno.readTextFile(join(dir, "ugly.ts")), "export const x = {a:1}\n");
});

Deno.test("poly fmt --check shows the diff under each file in its human output", async () => {
  const dir = await drifted();
  const { code, stdout } = await runPoly(["fmt", "--check"], { cwd: dir });
  assert.equal(code, 1);
  await assertGolden(join(GOLDEN, "fmt_check_diff.human"), stdout);
});

Deno.test("poly fmt --format json carries the same diff in each changed record", async () => {
  const dir = await drifted();
  const diff = await runPoly(["fmt", "--diff"], { cwd: dir });
  const json = await runPoly(["fmt", "--format", "json"], { cwd: dir });
  const doc = JSON.parse(json.stdout) as { results: { path: string; diff?: string }[] };
  assert.equal(doc.results.map((r) => r.diff).join(""), diff.stdout);
  assert.match(doc.results.find((r) => r.path === "ugly.py")!.diff!, /^--- a\/ugly\.py\n\+\+\+ b\/ugly\.py\n@@ /);
});
