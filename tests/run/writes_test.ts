/**
 * How a fix run writes (lib/run/file.ts through lib/fs/atomic.ts): a file edited
 * by someone else between poly's read and its write is left alone and reported
 * (`changed during the run`), whether the pre-pass read it long before the pool
 * formats it (`poly fmt --fix`) or the task read it just before its fixes
 * (`poly lint --fix`); and writeRoots() bounds where a run may write.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openConfig } from "../../lib/config/load.ts";
import { readCandidate } from "../../lib/discover/content.ts";
import { fileStamp } from "../../lib/fs/atomic.ts";
import { type FileTask, processFile } from "../../lib/run/file.ts";
import { writeRoots } from "../../lib/run/mod.ts";
import { planFormat, planLint } from "../../lib/run/plan.ts";
import { prepass } from "../../lib/run/prepass.ts";
import { tempDir } from "../_helpers/temp.ts";

async function workspace(files: Record<string, string>): Promise<string> {
  const root = await Deno.realPath(await tempDir({ prefix: "poly-writes-" }));
  await Deno.mkdir(join(root, ".git"));
  for (const [rel, content] of Object.entries(files)) {
    await Deno.mkdir(join(root, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, rel), content);
  }
  return root;
}

/** A fix task for `rel` planned under the root's config, as runPipeline makes it (no result cache). */
async function fixTask(root: string, rel: string, kind: "lint" | "fmt"): Promise<FileTask> {
  const config = await (await openConfig({ cwd: root })).forDir(root);
  const plan = kind === "lint" ? planLint("python", config) : planFormat("python", config);
  return {
    path: join(root, rel),
    relPath: rel,
    language: "python",
    kind,
    fix: true,
    engines: plan.engines,
    ignoreCodes: [],
    maxSize: config.data.discovery.max_file_size,
    lineEnding: config.data.defaults.line_ending,
    writeRoots: [root],
  };
}

Deno.test("processFile() after the pre-pass: a file edited since the pre-pass read it is not formatted over", async () => {
  const root = await workspace({ "a.py": "x = {'a':1}\n" });
  const path = join(root, "a.py");
  const before = await Deno.stat(path);
  const { rest } = await prepass([await fixTask(root, "a.py", "fmt")]);
  // ruff formats file by file: the pre-pass hands the task to the pool with its text and the stamp of that read.
  const handed = rest.get(0);
  assert.ok(handed, "the task goes on to the pool");
  assert.equal(handed.text, "x = {'a':1}\n");
  assert.deepEqual(handed.stamp, fileStamp(before));
  // Someone appends a line while the pool is busy with other files.
  await Deno.writeTextFile(path, "y = 2\n", { append: true });
  const outcome = await processFile(handed);
  assert.match(outcome.error ?? "", /^not written: changed during the run \(edited after poly read it\)/);
  assert.deepEqual(outcome.record, { path: "a.py", error: outcome.error });
  assert.equal(outcome.checked, false);
  assert.equal(await Deno.readTextFile(path), "x = {'a':1}\ny = 2\n");
});

Deno.test("processFile() with the same read unchanged formats and writes", async () => {
  const root = await workspace({ "a.py": "x = {'a':1}\n" });
  const { rest } = await prepass([await fixTask(root, "a.py", "fmt")]);
  const outcome = await processFile(rest.get(0)!);
  assert.deepEqual(outcome.record, {
    path: "a.py",
    changed: true,
    diff: `--- a/a.py\n+++ b/a.py\n@@ -1,1 +1,1 @@\n-x = {'a':1}\n+x = {"a": 1}\n`,
  });
  assert.equal(await Deno.readTextFile(join(root, "a.py")), 'x = {"a": 1}\n');
});

Deno.test("processFile() lint --fix: a file edited after its read keeps the edit and is an errored record", async () => {
  const root = await workspace({ "a.py": "import os\nimport sys\n\nprint(sys.argv)\n" });
  const path = join(root, "a.py");
  // The same read processFile makes, taken before the edit (the engines then run on it).
  const read = await readCandidate(path, 1 << 20, { language: "python" });
  assert.ok("stamp" in read);
  await Deno.writeTextFile(path, "print(os.name)\n", { append: true });
  const task = { ...await fixTask(root, "a.py", "lint"), text: read.text, stamp: read.stamp };
  const outcome = await processFile(task);
  assert.match(outcome.error ?? "", /not written: changed during the run/);
  assert.equal(outcome.record?.fixed, undefined, "nothing is claimed fixed");
  assert.equal(await Deno.readTextFile(path), "import os\nimport sys\n\nprint(sys.argv)\nprint(os.name)\n");
});

Deno.test("processFile() lint --fix reads, fixes and writes a file nobody else touches", async () => {
  const root = await workspace({ "a.py": "import os\nimport sys\n\nprint(sys.argv)\n" });
  const outcome = await processFile(await fixTask(root, "a.py", "lint"));
  assert.equal(outcome.error, undefined);
  assert.ok((outcome.record?.fixed ?? 0) >= 1);
  assert.equal(await Deno.readTextFile(join(root, "a.py")), "import sys\n\nprint(sys.argv)\n");
});

Deno.test("writeRoots() is the MCP root alone, else the cwd and each named path outside it", async () => {
  const base = await workspace({ "repo/a.py": "", "other/b.py": "", "other/lib/c.py": "" });
  await Deno.symlink(join(base, "other"), join(base, "repo", "link"));
  const repo = join(base, "repo");
  assert.deepEqual(await writeRoots({ root: repo, cwd: repo, paths: ["../other"] }), [repo]);
  assert.deepEqual(await writeRoots({ cwd: repo, paths: [] }), [repo]);
  // A link inside the cwd does not widen the roots; a path named outside it does (as its real path).
  assert.deepEqual(await writeRoots({ cwd: repo, paths: ["link", "a.py"] }), [repo]);
  assert.deepEqual(await writeRoots({ cwd: repo, paths: ["../other/lib", join(base, "other", "b.py")] }), [
    repo,
    join(base, "other", "lib"),
    join(base, "other", "b.py"),
  ]);
});
