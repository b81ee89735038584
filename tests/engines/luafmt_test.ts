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

Deno.test("luafmt under syntax = LuaJIT: goto and labels formatted as StyLua formats them; its number literals an error", async () => {
  const engine = await luafmt.load();
  const jit = {
    ...settings(),
    native: { files: [], options: { syntax: "LuaJIT", indent_style: "space" }, root: "/r" },
  };
  const file = (text: string) => ({ path: "/r/a.lua", relPath: "a.lua", language: "lua" as const, text });
  // StyLua 2.5.2 (`syntax = "LuaJIT"`, `indent_type = "Spaces"`) splits the one-line `if` the same way.
  equal(
    await engine.format!(file("for i = 1, 3 do\n    if i == 2 then goto continue end\n    ::continue::\nend\n"), jit),
    "for i = 1, 3 do\n    if i == 2 then\n        goto continue\n    end\n    ::continue::\nend\n",
  );
  const error = await engineError(() => engine.format!(file("local big = 1LL\nreturn big\n"), jit));
  equal(/cannot parse LuaJIT's 64-bit and imaginary number literals/.test(error.message), true, error.message);
});
