import { equal } from "node:assert/strict";
import { dprint } from "../../lib/engines/dprint/mod.ts";
import {
  assertPrettierOutput,
  engineError,
  fixture,
  formatGoldenTests,
  formatSyntaxErrorTest,
  settings,
} from "./_harness.ts";

formatGoldenTests(dprint, [
  { fixture: "dprint/unformatted.toml", language: "toml" },
  { fixture: "dprint/unformatted.md", language: "markdown" },
  { fixture: "dprint/Dockerfile", language: "dockerfile" },
]);
formatSyntaxErrorTest(dprint, { fixture: "toml/syntax.toml", language: "toml" }, { line: 3, column: 8 });

Deno.test("dprint format() formats Markdown code blocks with poly's engines and leaves the rest alone", async () => {
  const out = await (await dprint.load()).format!(await fixture("dprint/unformatted.md", "markdown"), settings());
  equal(out.includes('func main() { println("hi") }'), true, "go block formatted by gofmt");
  equal(out.includes("const x = { a: 1, b: [1, 2, 3] };"), true, "ts block formatted by biome");
  equal(out.includes("if [ -f x ]; then\n\techo y\nfi"), true, "sh block formatted by shfmt");
  equal(out.includes("func broken( {"), true, "a block with a syntax error is left alone");
  equal(out.includes("keep   this   as   is"), true, "an unknown language is left alone");
  const plain = await (await dprint.load()).format!(
    await fixture("dprint/unformatted.md", "markdown"),
    settings({ code_blocks: false }),
  );
  equal(plain.includes("const x={a:1,b:[1,2,3]}"), true, "code_blocks = false leaves blocks alone");
});

Deno.test("dprint format() rejects an unknown plugin setting with its name", async () => {
  const file = await fixture("dprint/unformatted.toml", "toml");
  const error = await engineError(() => dprint.load().then((e) => e.format!(file, settings({ bogusKey: 1 }))));
  equal(error.message.includes('"bogusKey"'), true, error.message);
});

Deno.test("dprint format() honours line_length and line_ending", async () => {
  const engine = await dprint.load();
  const file = await fixture("dprint/unformatted.toml", "toml");
  const crlf = await engine.format!(file, settings({}, { line_ending: "crlf" }));
  equal(crlf.split("\r\n").length > 3, true);
  const md = await fixture("dprint/unformatted.md", "markdown");
  const wrapped = await engine.format!(
    { ...md, text: "word ".repeat(40) + "\n" },
    settings({ textWrap: "always" }, { line_length: 40 }),
  );
  equal(wrapped.split("\n").every((l) => l.length <= 40), true);
});

Deno.test("dprint format() of Markdown under a repository's prettier options gives prettier's own output", async () => {
  // The width and the code block's options (no semicolons, single quotes) are prettier's; its HTML is left as
  // written, as is the table after `<!-- prettier-ignore -->`.
  const file = await fixture("dprint/prettier-style.md", "markdown");
  await assertPrettierOutput(dprint, file, { semi: false, singleQuote: true, printWidth: 80 });
});

Deno.test("dprint format() of Markdown wraps prose by prettier's proseWrap at oxfmt's default width", async () => {
  const file = await fixture("dprint/prettier-style.md", "markdown");
  await assertPrettierOutput(dprint, file, { proseWrap: "always" }, {
    tool: "oxfmt",
    expected: { proseWrap: "always", printWidth: 100 },
  });
});
