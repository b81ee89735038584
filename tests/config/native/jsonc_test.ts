/** The JSONC reader the native configuration files go through (lib/config/native/_jsonc.ts). */
import assert from "node:assert/strict";
import { JsoncError, parseJson5, parseJsonc } from "../../../lib/config/native/_jsonc.ts";

Deno.test("parseJsonc() takes comments and trailing commas, and leaves strings as written", () => {
  const text = '// biome\n{\n  "a": "x, }", /* note */ "b": [1, 2,],\n  "c": "// not a comment",\n}\n';
  assert.deepEqual(parseJsonc(text), { a: "x, }", b: [1, 2], c: "// not a comment" });
});

Deno.test("parseJsonc() names the first error's line and column", () => {
  const cases: [string, number, number, RegExp][] = [
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, /expected a comma/],
    ['{ "a": 1 }\n}', 2, 1, /unexpected text after the end/],
    ['{ "a": "open\n}', 1, 8, /unclosed string/],
    ["", 1, 1, /expected a value/],
  ];
  for (const [text, line, column, reason] of cases) {
    assert.throws(
      () => parseJsonc(text),
      (e) => e instanceof JsoncError && e.line === line && e.column === column && reason.test(e.reason),
      text,
    );
  }
});

Deno.test("parseJson5() reads what prettier reads in a .prettierrc.json5, and names an error's line and column", () => {
  assert.deepEqual(parseJson5("// options\n{ semi: false, singleQuote: true, 'tab-width': 4, }\n"), {
    semi: false,
    singleQuote: true,
    "tab-width": 4,
  });
  assert.throws(
    () => parseJson5("{\n  semi: false\n  tabWidth: 4\n}\n"),
    (e) => e instanceof JsoncError && e.line === 3 && e.column === 3 && /invalid character 't'/.test(e.reason),
  );
});
