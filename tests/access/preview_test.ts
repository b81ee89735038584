/**
 * The preview behind a proposal: the lint/fmt pipeline in preview mode writes
 * nothing and hands over each change; unifiedDiff() formats them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { workspace } from "./_env.ts";
import { runFmt, runLint } from "../../lib/run/mod.ts";
import type { ProposedChange } from "../../lib/run/mod.ts";
import { unifiedDiff } from "../../lib/access/preview.ts";

Deno.test("runLint/runFmt with preview compute fixes, hand them over and write nothing", async () => {
  const root = await workspace({ "a.py": "import os\nx = 1\n", "b.py": "x = {  'a':1 }\n", "c.py": "y = 2\n" });
  const lint: ProposedChange[] = [];
  const report = await runLint({
    paths: [],
    cwd: root,
    fix: true,
    preview: true,
    onProposed: (c) => lint.push(c),
  });
  assert.deepEqual(lint.map((c) => [c.relPath, c.before, c.after]), [["a.py", "import os\nx = 1\n", "x = 1\n"]]);
  assert.equal(lint[0].path, join(root, "a.py"));
  assert.equal(report.summary.checked, 3);
  const fmt: ProposedChange[] = [];
  await runFmt({ paths: [], cwd: root, fix: true, preview: true, onProposed: (c) => fmt.push(c) });
  assert.deepEqual(fmt.map((c) => [c.relPath, c.after]), [["a.py", "import os\n\nx = 1\n"], [
    "b.py",
    'x = {"a": 1}\n',
  ]]);
  assert.equal(await Deno.readTextFile(join(root, "a.py")), "import os\nx = 1\n");
  assert.equal(await Deno.readTextFile(join(root, "b.py")), "x = {  'a':1 }\n");
});

Deno.test("unifiedDiff() writes git-style hunks per file, sorted, with counts", () => {
  const { diff, files } = unifiedDiff([
    { relPath: "z.txt", before: "a\nb\n", after: "a\nc\n" },
    { relPath: "dir/y.txt", before: "1\n2\n3\n4\n5\n6\n7\n8\n9\n", after: "0\n1\n2\n3\n4\n5\n6\n7\n8\n" },
    { relPath: "n.txt", before: "no newline", after: "no newline\n" },
  ]);
  assert.deepEqual(files, [
    { path: "dir/y.txt", additions: 1, deletions: 1 },
    { path: "n.txt", additions: 1, deletions: 1 },
    { path: "z.txt", additions: 1, deletions: 1 },
  ]);
  assert.equal(
    diff,
    [
      "--- a/dir/y.txt",
      "+++ b/dir/y.txt",
      "@@ -1,3 +1,4 @@",
      "+0",
      " 1",
      " 2",
      " 3",
      "@@ -6,4 +7,3 @@",
      " 6",
      " 7",
      " 8",
      "-9",
      "--- a/n.txt",
      "+++ b/n.txt",
      "@@ -1,1 +1,1 @@",
      "-no newline",
      "\\ No newline at end of file",
      "+no newline",
      "--- a/z.txt",
      "+++ b/z.txt",
      "@@ -1,2 +1,2 @@",
      " a",
      "-b",
      "+c",
      "",
    ].join("\n"),
  );
  assert.deepEqual(unifiedDiff([]), { diff: "", files: [] });
});
