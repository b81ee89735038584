import assert, { equal } from "node:assert/strict";
import { join } from "node:path";
import { dprint, embeddedTemplate } from "../../lib/engines/dprint/mod.ts";
import { EngineRefusal } from "../../lib/engines/types.ts";
import { loadEngine } from "../../lib/engines/registry.ts";
import { type Biome, biome } from "../../lib/engines/biome/mod.ts";
import { biomeCommand } from "../../lib/engines/biome/_bin.ts";
import {
  assertPrettierOutput,
  engineError,
  fixture,
  FIXTURES,
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

/** `deno fmt`'s own output for `text` (as a file of extension `ext`) under a deno.json whose `fmt` is `options`. */
async function denoFmt(text: string, ext: string, options: Record<string, unknown>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "poly-denofmt-" });
  try {
    await Deno.writeTextFile(join(dir, "deno.json"), JSON.stringify({ fmt: options }));
    const child = new Deno.Command(Deno.execPath(), {
      args: ["fmt", "--config", join(dir, "deno.json"), "--ext", ext, "-"],
      cwd: dir,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
    const out = await child.output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("dprint format() under a deno.json's fmt writes what deno fmt writes, option by option", async () => {
  const engine = await dprint.load();
  const ts = [
    "import {a} from './a.ts'",
    "export {a}",
    'const o = {\'x\': 1, "y-z": [1,2,3], nested: {deep: "value that makes the line long enough to wrap somewhere"}}',
    "export function f(a: number, b: string): string { if (a > 1) return b; else { return `${a}` } }",
    "type T = {a: string, b: number}",
    'const el = <div className="x"><span>{o.x}</span><span>text</span></div>',
    "",
  ].join("\n");
  const cases: Record<string, unknown>[] = [
    {},
    { lineWidth: 60, indentWidth: 4, semiColons: false, singleQuote: true },
    { useTabs: true, quoteProps: "asNeeded", trailingCommas: "never", operatorPosition: "sameLine" },
    { semiColons: true, singleQuote: false, bracePosition: "nextLine", "typeLiteral.separatorKind": "comma" },
    { "jsx.multiLineParens": "never", "jsx.bracketPosition": "sameLine", spaceSurroundingProperties: false },
  ];
  for (const options of cases) {
    const file = { path: join(FIXTURES, "x.tsx"), relPath: "x.tsx", language: "typescript" as const, text: ts };
    const under = { ...settings(), native: { files: [], options, root: FIXTURES, deno: true as const } };
    equal(await engine.format!(file, under), await denoFmt(ts, "tsx", options), JSON.stringify(options));
  }
  const json = '{"a":1,"list":[1,2,3],"nested":{"key":"value"}}';
  for (const options of [{}, { useTabs: true }, { indentWidth: 4, lineWidth: 20 }]) {
    const file = { path: join(FIXTURES, "x.json"), relPath: "x.json", language: "json" as const, text: json };
    const under = { ...settings(), native: { files: [], options, root: FIXTURES, deno: true as const } };
    equal(await engine.format!(file, under), await denoFmt(json, "json", options), JSON.stringify(options));
  }
  // An option deno fmt does not have is an error naming it.
  const bad = {
    ...settings(),
    native: { files: [], options: { semicolons: false }, root: FIXTURES, deno: true as const },
  };
  const file = { path: join(FIXTURES, "x.ts"), relPath: "x.ts", language: "typescript" as const, text: "a\n" };
  const error = await engineError(() => engine.format!(file, bad));
  assert.match(error.message, /unknown deno fmt option "semicolons"/);
});

Deno.test("dprint under a deno.json leaves a file alone where deno fmt formats a tagged template's contents itself", async () => {
  // A template deno fmt reformats exactly where its tag sends the contents to its own HTML or CSS formatter.
  const template = (tag: string) => `const a = ${tag}\`\n      <p>\n   x   </p>\n   \`;\n`;
  const tags = ["html", "svg", "css", "styled.div", "styled(Button)", "html<T>", "x.html", "keyframes", "Html", "sql"];
  for (const tag of tags) {
    const text = template(tag);
    const deno = await denoFmt(text, "ts", {});
    equal(
      embeddedTemplate(text) !== undefined,
      deno !== text,
      `${tag}: deno fmt ${deno === text ? "keeps" : "formats"} it`,
    );
  }
  const engine = await dprint.load();
  const under = { ...settings(), native: { files: [], options: {}, root: FIXTURES, deno: true as const } };
  const file = {
    path: join(FIXTURES, "x.ts"),
    relPath: "x.ts",
    language: "typescript" as const,
    text: template("html"),
  };
  await assert.rejects(
    async () => await engine.format!(file, under),
    (e: unknown) => e instanceof EngineRefusal && /holds a template tagged `html`.*left as it is/.test(e.message),
  );
  // A file without one is formatted as deno fmt formats it.
  const plain = { ...file, text: template("x.html") };
  equal(await engine.format!(plain, under), await denoFmt(plain.text, "ts", {}));
});

Deno.test("dprint formatMany() gives its Markdown files' biome blocks to one native process, with the module's output", async () => {
  const files = [
    await fixture("dprint/blocks.md", "markdown"),
    await fixture("dprint/unformatted.md", "markdown"),
    await fixture("dprint/unformatted.toml", "toml"),
  ];
  const instance = (await loadEngine(biome)) as Biome;
  const kept = instance.native;
  const s = settings({}, { line_length: 80 });
  try {
    const runs: number[] = [];
    instance.native = { onRun: (r) => runs.push(r.files) };
    const native = await (await dprint.load()).formatMany!(files, s);
    if (await biomeCommand()) {
      // The ten blocks at the files' width (nine and a TypeScript one) in one process, the one in a list in another.
      assert.deepEqual(runs, [10, 1]);
    }
    instance.native = { command: null };
    const wasm = await Promise.all(files.map(async (f) => await (await dprint.load()).format!(f, s)));
    assert.deepEqual(native, wasm, "the same documents whichever path formatted their blocks");
    equal(wasm[0].includes("const a = { b: 1, c: [1, 2, 3] };\nfunction f(x) {\n  return x * 2;\n}"), true);
    equal(wasm[0].includes("const options = {\n  ...\n}"), true, "a block that does not parse is left alone");
    equal(wasm[0].includes('const é = "😀";\nexport { é };'), true);
    equal(wasm[1].includes("const x = { a: 1, b: [1, 2, 3] };"), true);
  } finally {
    instance.native = kept;
  }
});

Deno.test("dprint format() under code_block_tabs = false leaves a block its formatter indents with tabs as written", async () => {
  const engine = await dprint.load();
  const text = "# A\n\n```sh\nif [ -f x ]; then\n    echo y\nfi\n```\n\n```ts\nconst x = {a:1}\n```\n";
  const file = { path: "/x/a.md", relPath: "a.md", language: "markdown" as const, text };
  const tabbed = await engine.format!(file, settings());
  equal(tabbed.includes("\techo y"), true, "shfmt indents with a tab");
  const kept = await engine.format!(file, settings({ code_block_tabs: false }));
  equal(kept.includes("    echo y"), true, "the shell block is left as written");
  equal(kept.includes("const x = { a: 1 };"), true, "a block formatted without tabs is formatted");
});

Deno.test("dprint format() keeps a next-line directive on the line before what it acts on", async () => {
  const engine = await dprint.load();
  const text =
    "# A\n\n<!-- markdownlint-disable-next-line MD038 -->\nSpan `js `.\n\n<!-- cspell:disable-next-line -->\n\nApart.\n";
  const out = await engine.format!({ path: "/x/a.md", relPath: "a.md", language: "markdown", text }, settings());
  equal(out, text, "dprint's blank line after the first directive is taken back; the second had one already");
});
