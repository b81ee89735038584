import { equal } from "node:assert/strict";
import { join } from "node:path";
import { encodeHuman } from "../../lib/report/mod.ts";
import type { Diagnostic } from "../../lib/report/mod.ts";
import { report } from "./_fixture.ts";
import { tempDir } from "../_helpers/temp.ts";

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await tempDir({ prefix: "poly-human-" });
  for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(join(dir, name), text);
  return dir;
}

const diag = (line: number, col: number, endCol: number, extra: Partial<Diagnostic> = {}): Diagnostic => ({
  engine: "ruff",
  code: "X1",
  severity: "error",
  title: "bad",
  span: { start_line: line, start_col: col, end_line: line, end_col: endCol },
  ...extra,
});

Deno.test("encodeHuman() underlines the span under the source line, keeping tabs aligned", async () => {
  const cwd = await tree({ "a.py": "x = 1\n\tif  y:\r\n" });
  const text = encodeHuman(report({ results: [{ path: "a.py", diagnostics: [diag(2, 5, 7)] }] }), {
    color: false,
    cwd,
  });
  equal(
    text.split("\n").slice(0, 4).join("\n"),
    ["a.py", "  2:5  error    X1  bad  [ruff]", "    2 | \tif  y:", "      | \t   ^^"].join("\n"),
  );
});

Deno.test("encodeHuman() omits the excerpt when the file or line cannot be read", async () => {
  const cwd = await tree({ "a.py": "x = 1\n" });
  const text = encodeHuman(
    report({
      results: [{ path: "gone.py", diagnostics: [diag(1, 1, 2)] }, { path: "a.py", diagnostics: [diag(9, 1, 2)] }],
    }),
    {
      color: false,
      cwd,
    },
  );
  equal(
    text,
    "a.py\n  9:1  error    X1  bad  [ruff]\n\ngone.py\n  1:1  error    X1  bad  [ruff]\n\n  ruff  2  X1 2\n\n1 file checked, 0 skipped, 0 errored: 2 errors\n",
  );
});

Deno.test("encodeHuman() underlines at least one column, and to the line's end for multi-line spans", async () => {
  const cwd = await tree({ "a.py": "abc\ndef\n" });
  const empty = encodeHuman(report({ results: [{ path: "a.py", diagnostics: [diag(1, 4, 4)] }] }), {
    color: false,
    cwd,
  });
  equal(empty.split("\n")[3], "      |    ^");
  const multi = encodeHuman(
    report({
      results: [{
        path: "a.py",
        diagnostics: [{ ...diag(1, 2, 2), span: { start_line: 1, start_col: 2, end_line: 2, end_col: 1 } }],
      }],
    }),
    {
      color: false,
      cwd,
    },
  );
  equal(multi.split("\n")[3], "      |  ^^");
});

Deno.test("encodeHuman() prints no escape codes without colour and neutralises those in the input", async () => {
  const cwd = await tree({ "a.py": "\x1b[2Jx = 1\n" });
  const text = encodeHuman(
    report({ results: [{ path: "a.py", diagnostics: [diag(1, 1, 2, { title: "t\x1b]0;x\x07" })] }] }),
    { color: false, cwd },
  );
  equal(text.includes("\x1b"), false);
  equal(text.includes("\x07"), false);
});

Deno.test("encodeHuman() lists run-level errors and skips that have no file record", () => {
  const text = encodeHuman(
    report({
      errors: [{ path: "", message: "the workspace phase crashed" }],
      skipped: [{ path: "x.zig", reason: "no engine lints Zig" }],
    }),
    {
      color: false,
      cwd: "/nonexistent",
    },
  );
  equal(
    text,
    "error: the workspace phase crashed\n\nx.zig  skipped: no engine lints Zig\n\n1 file checked, 0 skipped, 0 errored: no issues found in the files checked, but not every file could be\n",
  );
});

const many = () =>
  report({
    summary: { checked: 2, skipped: 0, errored: 0 },
    results: [
      {
        path: "a.md",
        diagnostics: [
          diag(1, 1, 2, { engine: "markdownlint", code: "MD013/line-length", title: "Line length [Expected: 80]" }),
          diag(2, 1, 2, { engine: "markdownlint", code: "MD013/line-length", title: "Line length [Expected: 80]" }),
          diag(3, 1, 2, {
            engine: "markdownlint",
            code: "MD009/no-trailing-spaces",
            title: "Trailing spaces",
            fix: [{ start_byte: 0, end_byte: 1, replacement: "" }],
          }),
        ],
      },
      {
        path: "b.py",
        diagnostics: [diag(1, 8, 10, { code: "F401", title: "`os` imported but unused", fix: [] }), diag(2, 1, 2)],
      },
    ],
  });

Deno.test("encodeHuman() groups findings under their file, marks fixable ones and ends with counts and the fixable total", () => {
  const text = encodeHuman(many(), { color: false, cwd: "/nonexistent" });
  equal(
    text,
    [
      "a.md",
      "  1:1  error    MD013/line-length  Line length [Expected: 80]  [markdownlint]",
      "  2:1  error    MD013/line-length  Line length [Expected: 80]  [markdownlint]",
      "  3:1  error    MD009/no-trailing-spaces [*]  Trailing spaces  [markdownlint]",
      "",
      "b.py",
      "  1:8  error    F401  `os` imported but unused  [ruff]",
      "  2:1  error    X1  bad  [ruff]",
      "",
      "  markdownlint  3  MD013/line-length 2, MD009/no-trailing-spaces 1",
      "  ruff          2  F401 1, X1 1",
      "",
      "2 files checked, 0 skipped, 0 errored: 5 errors",
      "[*] 1 fixable with --fix",
      "",
    ].join("\n"),
  );
});

Deno.test("encodeHuman() with statistics counts per rule, commonest first, instead of listing (as ruff --statistics)", () => {
  const text = encodeHuman(many(), { color: false, cwd: "/nonexistent", statistics: true });
  equal(
    text,
    [
      "2  MD013/line-length              markdownlint  Line length",
      "1  F401                           ruff          `os` imported but unused",
      "1  MD009/no-trailing-spaces  [*]  markdownlint  Trailing spaces",
      "1  X1                             ruff          bad",
      "",
      "2 files checked, 0 skipped, 0 errored: 5 errors",
      "[*] 1 fixable with --fix",
      "",
    ].join("\n"),
  );
});

Deno.test("encodeHuman() with maxDiagnostics lists that many findings and says how many are not shown", () => {
  const text = encodeHuman(many(), { color: false, cwd: "/nonexistent", maxDiagnostics: 2 });
  equal(
    text,
    [
      "a.md",
      "  1:1  error    MD013/line-length  Line length [Expected: 80]  [markdownlint]",
      "  2:1  error    MD013/line-length  Line length [Expected: 80]  [markdownlint]",
      "",
      "3 findings not shown (--max-diagnostics 2); --statistics counts every one per rule",
      "  markdownlint  3  MD013/line-length 2, MD009/no-trailing-spaces 1",
      "  ruff          2  F401 1, X1 1",
      "",
      "2 files checked, 0 skipped, 0 errored: 5 errors",
      "[*] 1 fixable with --fix",
      "",
    ].join("\n"),
  );
});

Deno.test("encodeHuman() marks nothing fixable in a --fix run (what remains could not be fixed)", () => {
  const text = encodeHuman({ ...many(), mode: "fix" }, { color: false, cwd: "/nonexistent" });
  equal(text.includes("[*]"), false);
});

Deno.test("encodeHuman() lists up to ten skipped files, and summarises more per reason with examples", () => {
  const few = encodeHuman(
    report({ skipped: [{ path: "a.zig", reason: "no lint engine for Zig" }] }),
    { color: false, cwd: "/nonexistent" },
  );
  equal(few.split("\n")[0], "a.zig  skipped: no lint engine for Zig");
  const skipped = [
    ...Array.from(
      { length: 200 },
      (_, i) => ({ path: `z/${String(i).padStart(3, "0")}.zig`, reason: "no lint engine for Zig" }),
    ),
    { path: "charts/t.yaml", reason: "template file" },
  ];
  const many = encodeHuman(
    report({ skipped, summary: { checked: 1, skipped: 201, errored: 0 } }),
    { color: false, cwd: "/nonexistent" },
  );
  equal(
    many,
    [
      "skipped 201 files (--format json lists each):",
      "  no lint engine for Zig: 200 files (z/000.zig, z/001.zig, z/002.zig, …)",
      "  template file: 1 file (charts/t.yaml)",
      "",
      "1 file checked, 201 skipped, 0 errored: no issues found",
      "",
    ].join("\n"),
  );
});
