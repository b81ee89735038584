import { equal } from "node:assert/strict";
import { luafmt } from "../../lib/engines/luafmt/mod.ts";
import { fixture, formatGoldenTests, formatSyntaxErrorTest, settings } from "./_harness.ts";

formatGoldenTests(luafmt, [{ fixture: "luafmt/unformatted.lua", language: "lua" }]);
formatSyntaxErrorTest(luafmt, { fixture: "luafmt/syntax.lua", language: "lua" }, { line: 1, column: 9 });

Deno.test("luafmt format() honours indent_style and indent_width", async () => {
  const file = await fixture("luafmt/unformatted.lua", "lua");
  const out = await (await luafmt.load()).format!(file, settings({ indent_style: "space" }, { indent_width: 3 }));
  equal(out.includes("\n   return a + b") || out.includes("\n   if name then"), true, out);
});
