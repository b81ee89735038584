import { equal } from "node:assert/strict";
import { webfmt } from "../../lib/engines/webfmt/mod.ts";
import { fixture, formatGoldenTests, formatSyntaxErrorTest, settings } from "./_harness.ts";

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
