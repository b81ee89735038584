/** The JSONC reader the native configuration files go through (lib/config/native/_jsonc.ts). */
import assert from "node:assert/strict";
import { JsoncError, parseJsonc } from "../../../lib/config/native/_jsonc.ts";

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
