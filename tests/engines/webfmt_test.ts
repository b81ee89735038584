import { equal } from "node:assert/strict";
import { webfmt } from "../../lib/engines/webfmt/mod.ts";
import {
  assertPrettierOutput,
  fixture,
  formatCrashTest,
  formatGoldenTests,
  formatSyntaxErrorTest,
  settings,
} from "./_harness.ts";

formatGoldenTests(webfmt, [
  { fixture: "webfmt/unformatted.html", language: "html" },
  { fixture: "webfmt/unformatted.vue", language: "vue" },
  { fixture: "webfmt/unformatted.svelte", language: "svelte" },
  { fixture: "webfmt/unformatted.astro", language: "astro" },
]);
formatSyntaxErrorTest(webfmt, { fixture: "webfmt/syntax.html", language: "html" }, { line: 3, column: 2 });

Deno.test("webfmt format() formats embedded script and style and honours indent_width", async () => {
  const file = await fixture("webfmt/unformatted.html", "html");
  const out = await (await webfmt.load()).format!(file, settings({}, { indent_width: 4 }));
  equal(out.includes("items.forEach((i) => console.log(i));"), true, out);
  equal(out.includes("margin: 0;"), true, out);
  equal(out.includes("\n    <head>"), true, out);
});

for (const [name, language] of [["prettier-style.html", "html"], ["prettier-style.vue", "vue"]] as const) {
  Deno.test(`webfmt format() under a repository's prettier options gives prettier's own output (${name})`, async () => {
    // Scripts without semicolons in single quotes, styles' strings quoted alike, a tag whose attribute does not fit
    // broken, `<!doctype html>`, scripts and styles indented in HTML (not in Vue), `<!-- prettier-ignore -->` kept.
    const file = await fixture(`webfmt/${name}`, language);
    await assertPrettierOutput(webfmt, file, { semi: false, singleQuote: true, printWidth: 80 });
  });
}

Deno.test("webfmt format() indents a Vue file's script and style by prettier's vueIndentScriptAndStyle", async () => {
  const file = await fixture("webfmt/prettier-style.vue", "vue");
  // (With double quotes a Vue attribute's strings would differ: prettier keeps them single inside the attribute's
  // double quotes, where markup_fmt swaps the attribute's quotes.)
  await assertPrettierOutput(webfmt, file, { vueIndentScriptAndStyle: true, tabWidth: 4, singleQuote: true });
});

Deno.test("webfmt format() applies [fmt.html.webfmt]'s script and style sub-tables", async () => {
  const file = await fixture("webfmt/prettier-style.html", "html");
  const out = await (await webfmt.load()).format!(
    file,
    settings({ script: { quoteStyle: "single", semicolons: "as-needed" }, style: { quotes: "alwaysSingle" } }),
  );
  equal(out.includes("import a from 'x'\n"), true, out);
  equal(out.includes("content: 'x';"), true, out);
});

formatCrashTest(
  webfmt,
  "html",
  `${"<div>".repeat(100000)}${"</div>".repeat(100000)}\n`,
  "<div><p>x</p>\n</div>\n",
  "<div>\n  <p>x</p>\n</div>\n",
);
