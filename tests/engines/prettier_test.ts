import { equal } from "node:assert/strict";
import { prettier } from "../../lib/engines/prettier/mod.ts";
import type { Language } from "../../lib/engines/types.ts";
import {
  assertPrettierOutput,
  engineError,
  fixture,
  FIXTURES,
  formatGoldenTests,
  formatSyntaxErrorTest,
  settings,
} from "./_harness.ts";

formatGoldenTests(prettier, [{ fixture: "prettier/unformatted.yaml", language: "yaml" }]);
formatSyntaxErrorTest(prettier, { fixture: "prettier/syntax.yaml", language: "yaml" }, { line: 3, column: 1 });

Deno.test("prettier format() honours indent_width and single_quote, and rejects unknown keys", async () => {
  const engine = await prettier.load();
  const file = await fixture("prettier/unformatted.yaml", "yaml");
  const out = await engine.format!(file, settings({ single_quote: true }, { indent_width: 4 }));
  equal(out.includes("\n    web:"), true);
  equal(out.includes("'nginx:1.27'"), true);
  await engineError(() => engine.format!(file, settings({ singel_quote: true })));
});

Deno.test("prettier format() formats every language prettier ships a plugin for, as prettier's own format does", async () => {
  // Under a repository's prettier options each file takes its options and the parser its name gives (package.json is
  // json-stringify, which prettier keeps one entry per line); a script without an extension takes its language's.
  const options = { semi: false, singleQuote: true, printWidth: 80 };
  const cases: [string, Language, string][] = [
    ["src/a.ts", "typescript", "export interface A extends Required<Omit<B, keyof C>>, C, D, E, F, G, H, I, J {\n}\n"],
    ["src/b.js", "javascript", 'const a = {b: "c"};\n'],
    ["package.json", "json", '{"name":"x","files":["a","b"]}\n'],
    ["a.css", "css", 'a{content:"x"}\n'],
    ["q.graphql", "graphql", "query { a { b } }\n"],
    ["README.md", "markdown", "# T\n\n```js\nconst a = 1;\n```\n"],
    ["index.html", "html", "<div><p>hi</p></div>\n"],
    ["App.vue", "vue", '<script setup>\nconst a = "b";\n</script>\n<template><p>{{a}}</p></template>\n'],
    ["bin/tool", "javascript", 'console.log("x");\n'],
  ];
  for (const [path, language, text] of cases) {
    const file = { path: `${FIXTURES}/${path}`, relPath: path, language, text };
    const expected = path === "bin/tool" ? { ...options, parser: "babel" } : options;
    await assertPrettierOutput(prettier, file, options, { expected, same: true });
  }
});
