/** The parity harness's matching: diagnostics agree by path, line, column and code, counted as multisets. */
import assert from "node:assert/strict";
import { compare, type Finding } from "./parity.ts";

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
