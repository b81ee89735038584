/**
 * lib/engines/ruff/_safety.ts: `poly lint --fix` applies the fixes `ruff check --fix` applies, deciding each fix's
 * safety as ruff 0.16.9 does where its WebAssembly build does not say. The expected texts are `ruff check --isolated
 * --select <the rules below> --fix` of parity/ruff-fix-safety/case.py (ruff 0.16.9, the version poly pins), with the
 * default target (py310) and `--target-version py39`, recorded.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultSettings, engine, memoryFile } from "../_engine_harness.ts";
import { ALWAYS_SAFE, CONDITIONAL, fixIsSafe, parseTokens } from "../../../lib/engines/ruff/_safety.ts";

const DIR = join(import.meta.dirname!, "../testdata/parity/ruff-fix-safety");

const SELECT = "W291 W293 UP004 UP006 UP007 UP045 PIE808 SIM300 UP024 RUF100 RET501 E501 PIE790 B009 B010".split(" ");

async function fixed(extra: Record<string, unknown> = {}): Promise<string> {
  const ruff = await engine("ruff");
  const path = join(DIR, "case.py");
  const file = { path, relPath: "case.py", language: "python" as const, text: await Deno.readTextFile(path) };
  return (await ruff.fix!(file, defaultSettings({ select: SELECT, ...extra }))).text;
}

Deno.test("ruff fix() applies what ruff check --fix applies: conditional fixes by comment, string and target", async () => {
  // Left as ruff leaves them: trailing whitespace inside a triple-quoted string (W291), `object` removed across a
  // comment (UP004), a union holding a comment (UP007), `pass` before a string that would become a docstring (PIE790),
  // `getattr` across a comment or of a name NFKC changes (B009).
  assert.equal(await fixed(), await Deno.readTextFile(join(DIR, "case.fixed.py")));
  // Below Python 3.10, `list[int]` and `int | None` in an annotation are evaluated at run time: unsafe.
  assert.equal(await fixed({ "target-version": "py39" }), await Deno.readTextFile(join(DIR, "case.py39.fixed.py")));
});

/**
 * Nested fixes take a pass each (a fix whose range holds another's is applied alone), and the import goes unused only
 * after the last: ruff's loop runs up to 100 passes. Native (`ruff check --isolated --select UP006,F401 --fix`,
 * recorded): every `List` rewritten, the import removed — 13 fixes.
 */
Deno.test("ruff fix() runs its passes as long as ruff does: twelve nested fixes and the import they leave unused", async () => {
  const ruff = await engine("ruff");
  let annotation = "int";
  for (let i = 0; i < 12; i++) annotation = `List[${annotation}]`;
  const text = `from typing import List\n\nx: ${annotation} = []\n`;
  const out = await ruff.fix!(memoryFile("nested.py", "python", text), defaultSettings({ select: ["UP006", "F401"] }));
  assert.equal(out.text, `\nx: ${annotation.replaceAll("List", "list")} = []\n`);
  assert.equal(out.fixed, 13);
});

Deno.test("ruff's lint findings offer a fix exactly where its fix would apply it", async () => {
  const ruff = await engine("ruff");
  const path = join(DIR, "case.py");
  const text = await Deno.readTextFile(path);
  const out = await ruff.lint!(
    { path, relPath: "case.py", language: "python", text },
    defaultSettings({ select: SELECT }),
  );
  const offered = out.diagnostics.map((d) => `${d.span!.start_line} ${d.code} ${d.fix ? "fix" : "-"}`);
  for (const line of ["4 W291 -", "6 W291 fix", "9 UP004 fix", "14 UP004 -", "30 UP007 -", "34 PIE790 -"]) {
    assert.ok(offered.includes(line), `${line} in ${offered.join(", ")}`);
  }
});

Deno.test("fixIsSafe(): the rule's verdict, or the condition's from the text and the options", () => {
  const ask = (code: string, text: string, ranges: [number, number][], options = {}, path = "/r/m.py") =>
    fixIsSafe({
      code,
      path,
      text,
      options,
      ranges,
      tokens: () => parseTokens(tokensOf(text)),
      toBytes: (indices) => indices,
    });
  assert.ok(ALWAYS_SAFE.has("I001") && ask("I001", "", [[0, 0]]));
  assert.ok(!ask("E711", "x == None\n", [[0, 9]]), "a rule on neither list is left");
  assert.ok(ask("F401", "import os\n", [[0, 9]]) && !ask("F401", "import os\n", [[0, 9]], {}, "/r/p/__init__.py"));
  assert.ok(ask("UP006", "", [[0, 0]]) && !ask("UP006", "", [[0, 0]], { "target-version": "py39" }));
  assert.ok(ask("UP006", "", [[0, 0]], { "target-version": "py313" }));
  assert.ok(!ask("UP037", "", [[0, 0]], { lint: { "future-annotations": true } }));
  assert.ok(ask("RUF100", "x = 1  # noqa: E501\n", [[7, 19]]));
  assert.ok(!ask("RUF100", "x = 1  # ruff: ignore[E501]\n", [[7, 27]]));
  // PIE790: the statement after the placeholder, in the same body, is a string (it would become the docstring).
  const pass = (after: string) => ask("PIE790", `def f():\n    pass${after}`, [[13, 17]]);
  assert.ok(!pass("\n    'doc'\n") && !pass('  # c\n\n    # d\n    (\n        "doc"\n    )\n') && !pass('; "x"\n'));
  assert.ok(pass("\n    x = 1\n") && pass("\n'module level'\n") && pass("\n"));
  // B009: ASCII and no comment.
  assert.ok(ask("B009", 'getattr(o, "name")', [[0, 18]]) && !ask("B009", 'getattr(o, "ﬁle")', [[0, 17]]));
  assert.equal(
    CONDITIONAL.get("PLE0241"),
    undefined,
    "a rule whose comment check reaches beyond its ranges is left out",
  );
});

Deno.test("parseTokens(): ruff's token dump, and undefined for a text in another format", () => {
  assert.deepEqual(parseTokens(tokensOf('x = """a"""  # c\n')), [
    { kind: "String", start: 4, end: 11, triple: true },
    { kind: "Comment", start: 13, end: 16, triple: false },
  ], "the comments and strings: what the conditions read");
  assert.deepEqual(parseTokens("[]"), []);
  assert.equal(parseTokens("something else"), undefined);
});

/** ruff 0.16.9's `Workspace.tokens()` of the few texts above, recorded. */
function tokensOf(text: string): string {
  const dumps: Record<string, string> = {
    'x = """a"""  # c\n': `[
    Identifier 0..1,
    Equal 2..3,
    String 4..11 (flags = DOUBLE_QUOTES | TRIPLE_QUOTED_STRING),
    Comment 13..16,
    Newline 16..17,
]`,
  };
  return dumps[text] ?? "[]";
}
