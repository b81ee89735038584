/** The parity harness's matching: diagnostics agree by path, line, column and code, counted as multisets. */
import assert from "node:assert/strict";
import { compare, type Finding, onceByRealPath } from "./parity.ts";
import { tempDir } from "../_helpers/temp.ts";

const f = (path: string, line: number, col: number, code: string): Finding => ({ path, line, col, code, message: "" });

Deno.test("compare() matches by path, line, column and code, each finding once", () => {
  const native = [f("a.py", 1, 1, "F401"), f("a.py", 1, 1, "F401"), f("a.py", 2, 5, "E711"), f("b.py", 3, 1, "F841")];
  const poly = [f("a.py", 1, 1, "F401"), f("a.py", 2, 5, "E712"), f("b.py", 3, 2, "F841")];
  const c = compare(native, poly);
  assert.equal(c.matched, 1);
  assert.deepEqual(c.onlyNative.map((x) => `${x.line}:${x.col}:${x.code}`), ["1:1:F401", "2:5:E711", "3:1:F841"]);
  assert.deepEqual(c.onlyPoly.map((x) => `${x.line}:${x.col}:${x.code}`), ["2:5:E712", "3:2:F841"]);
  assert.equal(c.agreement, 1 / 6);
});

Deno.test("compare() calls two empty sides in full agreement", () => {
  assert.equal(compare([], []).agreement, 1);
});

Deno.test("onceByRealPath() counts a file reached through a symlink once, under its real path", async () => {
  const dir = await tempDir({ prefix: "poly-parity-links-" });
  await Deno.mkdir(`${dir}/docs`);
  await Deno.writeTextFile(`${dir}/docs/guide.md`, "# Guide\n");
  await Deno.symlink("docs/guide.md", `${dir}/README.md`);
  await Deno.symlink("guide.md", `${dir}/docs/CLAUDE.md`);
  await Deno.writeTextFile(`${dir}/other.md`, "# Other\n");
  // The native tool linted all three names; poly linted the file once.
  const native = [
    f("README.md", 1, 1, "MD041"),
    f("docs/guide.md", 1, 1, "MD041"),
    f("docs/CLAUDE.md", 1, 1, "MD041"),
    f("other.md", 2, 1, "MD012"),
  ];
  const once = onceByRealPath(dir, native);
  assert.deepEqual(once.map((x) => `${x.path}:${x.code}`), ["docs/guide.md:MD041", "other.md:MD012"]);
  // Reached only through a link, the finding is kept, under the real path.
  assert.deepEqual(onceByRealPath(dir, [f("README.md", 1, 1, "MD041")]).map((x) => x.path), ["docs/guide.md"]);
  await Deno.remove(dir, { recursive: true });
});
