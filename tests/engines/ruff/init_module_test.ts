/**
 * lib/engines/ruff/_init_module.ts: `RUF067` (code in an `__init__.py`, a preview rule), which ruff's WebAssembly build
 * cannot report (it sees no path) and poly works out from ruff's tokens. The expected findings are `ruff check`'s on
 * parity/ruff-init-module-code (ruff 0.16.9, `--output-format=json`: start, end, code, message), recorded here.
 */
import assert from "node:assert/strict";
import { initModuleFindings, mayImportSelf, tokenList, topStatements } from "../../../lib/engines/ruff/_init_module.ts";
import { runPoly } from "../../_helpers/cli.ts";
import { parityCopy } from "./_parity.ts";

/** `ruff check --output-format=json .` on the fixture, as `path start-end code message` lines. */
const NATIVE = [
  "other/mod.py 5:12-5:26 RUF100 Unused `noqa` directive (unused: `RUF067`)",
  "other/mod.py 64:16-64:30 RUF100 Unused `noqa` directive (unused: `RUF067`)",
  "other/mod.py 71:8-71:22 RUF100 Unused `noqa` directive (unused: `RUF067`)",
  "other/mod.py 75:10-75:24 RUF100 Unused `noqa` directive (unused: `RUF067`)",
  "pkg/__init__.py 5:12-5:26 RUF100 Unused `noqa` directive (unused: `RUF067`)",
  "pkg/__init__.py 23:1-24:9 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 31:1-31:18 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 32:1-32:10 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 34:1-34:23 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 35:1-35:7 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 37:1-37:7 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 38:1-38:46 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 39:1-39:9 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 40:1-40:19 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 41:1-41:33 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 60:1-61:9 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 68:1-68:6 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 68:8-68:13 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 69:1-69:22 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 72:1-72:20 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 75:10-75:24 RUF100 Unused `noqa` directive (unused: `RUF067`)",
  "pkg/__init__.py 76:1-77:9 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 78:1-83:9 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 85:1-85:14 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 86:1-86:13 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 87:1-87:13 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/__init__.py 88:1-90:13 RUF067 `__init__` module should only contain docstrings and re-exports",
  "pkg/sub/__init__.py 1:12-1:26 RUF100 Unused `noqa` directive (unused: `RUF067`)",
  "strict/pkg/__init__.py 1:1-1:11 RUF067 `__init__` module should not contain any code",
  "strict/pkg/__init__.py 3:1-3:16 RUF067 `__init__` module should not contain any code",
  "strict/pkg/__init__.py 5:1-5:16 RUF067 `__init__` module should not contain any code",
];

Deno.test("poly lint: RUF067 in __init__.py files as ruff check reports it (allowed statements, noqa, strict mode)", async () => {
  const dir = await parityCopy("ruff-init-module-code");
  const run = await runPoly(["lint", "--no-workspace", "--format", "json", "."], { cwd: dir });
  const doc = JSON.parse(run.stdout) as {
    results: {
      path: string;
      diagnostics?: {
        engine: string;
        code: string;
        title: string;
        span: { start_line: number; start_col: number; end_line: number; end_col: number };
      }[];
    }[];
  };
  const found = doc.results.flatMap((r) =>
    (r.diagnostics ?? []).filter((d) => d.engine === "ruff").map((d) => ({
      key: [r.path, d.span.start_line, d.span.start_col] as const,
      line:
        `${r.path} ${d.span.start_line}:${d.span.start_col}-${d.span.end_line}:${d.span.end_col} ${d.code} ${d.title}`,
    }))
  ).sort((a, b) => a.key[0].localeCompare(b.key[0]) || a.key[1] - b.key[1] || a.key[2] - b.key[2]);
  assert.deepEqual(found.map((f) => f.line), NATIVE);
});

/** ruff's tokens of a text, from the module poly pins. */
async function tokensOf(text: string) {
  const { Workspace, PositionEncoding } = await import("@astral-sh/ruff-wasm-nodejs");
  const ws = new Workspace({}, PositionEncoding.Utf16);
  try {
    return tokenList(ws.tokens(text));
  } finally {
    ws.free();
  }
}

Deno.test("topStatements(): a statement's decorators, clauses, one-line body and `;`-separated neighbours", async () => {
  const text = "@a\n@b(\n  1,\n)\ndef f():\n    x = 1; y = 2\n\n    return x\n" +
    "if a: b; c\nelif d:\n    pass\nelse:\n    pass\nx = 1; y = [2,\n 3]\nclass C:\n  pass\n# end\n";
  const tokens = await tokensOf(text);
  const bytes = new TextEncoder().encode(text);
  const source = (from: number, to: number) => new TextDecoder().decode(bytes.subarray(from, to));
  assert.deepEqual(topStatements(tokens).map((s) => source(s[0].start, s[s.length - 1].end)), [
    "@a\n@b(\n  1,\n)\ndef f():\n    x = 1; y = 2\n\n    return x",
    "if a: b; c\nelif d:\n    pass\nelse:\n    pass",
    "x = 1",
    "y = [2,\n 3]",
    "class C:\n  pass",
  ]);
});

Deno.test("initModuleFindings(): rows and UTF-16 columns past non-ASCII text; nothing in an empty file", async () => {
  const text = 'é = "ü"; ß = 1\n';
  const found = initModuleFindings({ text, tokens: await tokensOf(text), strict: false });
  assert.deepEqual(found.map((f) => [f.start, f.end]), [
    [{ row: 1, column: 1 }, { row: 1, column: 8 }],
    [{ row: 1, column: 10 }, { row: 1, column: 15 }],
  ]);
  assert.deepEqual(initModuleFindings({ text: "", tokens: await tokensOf(""), strict: true }), []);
});

Deno.test("mayImportSelf(): a first look at the lines that may import the module itself", () => {
  const module = ["pkg", "sub", "mod"];
  const yes = [
    "import pkg.sub.mod\n",
    "import os, pkg.sub.mod as m\n",
    "from . import mod\n",
    "from .. import x\nfrom ..sub import (\n    other,\n    mod as m,\n)\n",
    "from pkg.sub import other, \\\n    mod\n",
    "    from pkg.sub import mod  # noqa: PLW0406\n",
  ];
  for (const text of yes) assert.ok(mayImportSelf(text, module), text);
  const no = ["import pkg.sub\n", "from pkg import mod\n", "from . import other\n", "from ... import mod\n", "x = 1\n"];
  for (const text of no) assert.ok(!mayImportSelf(text, module), text);
});
