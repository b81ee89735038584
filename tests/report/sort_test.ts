import { deepEqual } from "node:assert/strict";
import { sortReport } from "../../lib/report/mod.ts";
import type { Diagnostic } from "../../lib/report/mod.ts";
import { report } from "./_fixture.ts";

const at = (line: number, col: number, code?: string): Diagnostic => ({
  engine: "ruff",
  ...(code ? { code } : {}),
  severity: "warning",
  title: "t",
  span: { start_line: line, start_col: col, end_line: line, end_col: col + 1 },
});

Deno.test("sortReport() sorts results, errors and skips by path in code-unit order", () => {
  const sorted = sortReport(report({
    results: [{ path: "b.py" }, { path: "B.py" }, { path: "a/z.py" }, { path: "a.py" }],
    errors: [{ path: "z", message: "2" }, { path: "z", message: "1" }, { path: "a", message: "x" }],
    skipped: [{ path: "é.py", reason: "r" }, { path: "e.py", reason: "r" }],
  }));
  deepEqual(sorted.results.map((r) => r.path), ["B.py", "a.py", "a/z.py", "b.py"]);
  deepEqual(sorted.errors.map((e) => e.path + e.message), ["ax", "z1", "z2"]);
  deepEqual(sorted.skipped.map((s) => s.path), ["e.py", "é.py"]);
});

Deno.test("sortReport() sorts diagnostics by position, spanless first, then code", () => {
  const spanless: Diagnostic = { engine: "ast-grep", severity: "warning", title: "t" };
  const sorted = sortReport(
    report({
      results: [{ path: "a.py", diagnostics: [at(3, 1), at(1, 9, "F401"), at(1, 9, "E401"), spanless, at(1, 2)] }],
    }),
  );
  deepEqual(
    sorted.results[0].diagnostics!.map((d) => `${d.span?.start_line ?? 0}:${d.span?.start_col ?? 0}:${d.code ?? ""}`),
    [
      "0:0:",
      "1:2:",
      "1:9:E401",
      "1:9:F401",
      "3:1:",
    ],
  );
});

Deno.test("sortReport() keeps configs and workspace jobs in their order and leaves its input alone", () => {
  const input = report({
    results: [{ path: "b" }, { path: "a" }],
    configs: [{ hash: "1/ffffffffffffffff" }, { hash: "1/0000000000000000" }],
    workspace: { jobs: [{ name: "z", status: "passed" }, { name: "a", status: "passed" }] },
  });
  const sorted = sortReport(input);
  deepEqual(sorted.configs, input.configs);
  deepEqual(sorted.workspace!.jobs.map((j) => j.name), ["z", "a"]);
  deepEqual(input.results.map((r) => r.path), ["b", "a"]);
});
