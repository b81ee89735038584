import { equal } from "node:assert/strict";
import { luafmt } from "../../lib/engines/luafmt/mod.ts";
import {
  engineError,
  fixture,
  formatCrashTest,
  formatGoldenTests,
  formatSyntaxErrorTest,
  settings,
} from "./_harness.ts";

formatGoldenTests(luafmt, [{ fixture: "luafmt/unformatted.lua", language: "lua" }]);
formatSyntaxErrorTest(luafmt, { fixture: "luafmt/syntax.lua", language: "lua" }, { line: 1, column: 9 });

Deno.test("luafmt format() honours indent_style and indent_width", async () => {
  const file = await fixture("luafmt/unformatted.lua", "lua");
  const out = await (await luafmt.load()).format!(file, settings({ indent_style: "space" }, { indent_width: 3 }));
  equal(out.includes("\n   return a + b") || out.includes("\n   if name then"), true, out);
});

Deno.test("luafmt format() names a trap of the StyLua build as such, and formats the next file", async () => {
  const engine = await luafmt.load();
  const file = (text: string) => ({ path: "/x/a.lua", relPath: "a.lua", language: "lua" as const, text });
  const error = await engineError(() => engine.format!(file("local s = `a{b}`\n"), settings()));
  equal(
    /crashed on this file twice .*StyLua.s WebAssembly build stops so on a construct it cannot parse/.test(
      error.message,
    ),
    true,
    error.message,
  );
  equal(await engine.format!(file("local   x=1\n"), settings()), "local x = 1\n");
});

formatCrashTest(
  luafmt,
  "lua",
  `local x = ${"(".repeat(100000)}1${")".repeat(100000)}\n`,
  "local  y=1\n",
  "local y = 1\n",
);
