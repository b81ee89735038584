import { equal, match } from "node:assert/strict";
import { join } from "node:path";
import { oxfmt } from "../../lib/engines/oxfmt/mod.ts";
import type { EngineSettings, Language } from "../../lib/engines/types.ts";
import {
  engineError,
  FIXTURES,
  formatGoldenTests,
  formatSyntaxErrorTest,
  settings,
  styleSettings,
} from "./_harness.ts";

formatGoldenTests(oxfmt, [{ fixture: "oxfmt/unformatted.ts", language: "typescript" }]);
// `名前` is 6 bytes of UTF-8 and 2 UTF-16 units: the column is counted as the rest of poly counts it.
formatSyntaxErrorTest(oxfmt, { fixture: "oxfmt/syntax.ts", language: "typescript" }, { line: 1, column: 28 });

const format = async (path: string, language: Language, text: string, s: EngineSettings) =>
  (await oxfmt.load()).format!({ path: join(FIXTURES, path), relPath: path, language, text }, s);

Deno.test("oxfmt format() takes an oxfmt file's own options: sorting, overrides by path, insertFinalNewline", async () => {
  const imports = 'import { b } from "b";\nimport { a } from "a";\n';
  equal(await format("src/x.ts", "typescript", imports, styleSettings({}, "oxfmt")), imports);
  equal(
    await format("src/x.ts", "typescript", imports, styleSettings({ sortImports: true }, "oxfmt")),
    'import { a } from "a";\nimport { b } from "b";\n',
  );
  const overrides = { semi: false, overrides: [{ files: ["legacy/**"], options: { semi: true } }] };
  equal(await format("src/x.js", "javascript", "a()\n", styleSettings(overrides, "oxfmt")), "a()\n");
  equal(await format("legacy/x.js", "javascript", "a()\n", styleSettings(overrides, "oxfmt")), "a();\n");
  equal(await format("x.js", "javascript", "a();\n", styleSettings({ insertFinalNewline: false }, "oxfmt")), "a();");
  // oxfmt's width is 100 where prettier's is 80.
  const long = `call(${"a".repeat(40)}, ${"b".repeat(40)});\n`;
  equal(await format("x.js", "javascript", long, styleSettings({}, "oxfmt")), long);
});

Deno.test("oxfmt format() formats each language oxfmt's command line formats, by the file's name", async () => {
  const cases: [string, Language, string, string][] = [
    ["a.json", "json", '{"a":1}', '{ "a": 1 }\n'],
    ["a.css", "css", "a{color:red}", "a {\n  color: red;\n}\n"],
    ["q.graphql", "graphql", "query { a { b } }", "query {\n  a {\n    b\n  }\n}\n"],
    ["README.md", "markdown", "# T\n* a\n", "# T\n\n- a\n"],
    ["a.yaml", "yaml", "a:   1\n", "a: 1\n"],
    ["a.toml", "toml", "a   =  1\n", "a = 1\n"],
    // A name oxfmt does not know, of a language poly knows: formatted as that language.
    [".clang-format", "yaml", "BasedOnStyle:   LLVM\n", "BasedOnStyle: LLVM\n"],
  ];
  for (const [path, language, text, expected] of cases) {
    equal(await format(path, language, text, styleSettings({}, "oxfmt")), expected, path);
  }
});

Deno.test("oxfmt format() without an oxfmt file: poly's [defaults] and the table's oxfmt options", async () => {
  const text = "const a = {b: 'c'}\n";
  equal(await format("x.ts", "typescript", text, settings()), 'const a = { b: "c" };\n');
  equal(
    await format("x.ts", "typescript", text, settings({ singleQuote: true, semi: false })),
    "const a = { b: 'c' }\n",
  );
  equal(await format("x.ts", "typescript", text, settings({}, { line_ending: "crlf" })), 'const a = { b: "c" };\r\n');
  const error = await engineError(() => format("x.ts", "typescript", text, settings({ single_quote: true })));
  match(error.message, /unknown setting "single_quote" in \[fmt\.typescript\.oxfmt\]/);
});

Deno.test("oxfmt format() of a file under a configuration poly could not read is an error saying why", async () => {
  const s = styleSettings({}, "oxfmt");
  s.native!.unmapped = "oxfmt.config.ts: a call at 3:5 cannot be read without running it";
  const error = await engineError(() => format("x.ts", "typescript", "a\n", s));
  match(error.message, /cannot be read without running it/);
});
