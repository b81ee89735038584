import { equal } from "node:assert/strict";
import { join } from "node:path";
import { encodeHuman } from "../../lib/report/mod.ts";
import type { Diagnostic } from "../../lib/report/mod.ts";
import { report } from "./_fixture.ts";

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "poly-human-" });
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
    text.split("\n").slice(0, 3).join("\n"),
    ["a.py:2:5  error    X1  bad  [ruff]", "  2 | \tif  y:", "    | \t   ^^"].join("\n"),
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
    "a.py:9:1  error    X1  bad  [ruff]\n\ngone.py:1:1  error    X1  bad  [ruff]\n\n1 file checked, 0 skipped, 0 errored: 2 errors\n",
  );
});

Deno.test("encodeHuman() underlines at least one column, and to the line's end for multi-line spans", async () => {
  const cwd = await tree({ "a.py": "abc\ndef\n" });
  const empty = encodeHuman(report({ results: [{ path: "a.py", diagnostics: [diag(1, 4, 4)] }] }), {
    color: false,
    cwd,
  });
  equal(empty.split("\n")[2], "    |    ^");
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
  equal(multi.split("\n")[2], "    |  ^^");
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
