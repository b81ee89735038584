/** Reading a JavaScript or TypeScript configuration file as literal values, without running it. */
import assert from "node:assert/strict";
import { staticExport } from "../../../lib/config/native/_jsconfig.ts";
import { ConfigError } from "../../../lib/errors/mod.ts";

const read = (text: string, name = "prettier.config.js", definer?: string) =>
  staticExport(text, name, name, { instead: "write it as JSON", ...(definer ? { definer } : {}) });

Deno.test("staticExport() reads what a file exports as JavaScript reads its literals", () => {
  assert.deepEqual(
    read(
      "#!/usr/bin/env node\n'use strict'\nconst width = 90\nconst base = { semi: false, printWidth: width }\n" +
        "module.exports = base\n",
    ),
    { semi: false, printWidth: 90 },
  );
  assert.deepEqual(
    read(
      "const width = 80\nexport default {\n  // a comment\n  'quoted-key': 'it\\'s \\u0041\\x42\\u{1F600}\\n',\n  \"d\": \"x\",\n  1: -2.5,\n" +
        "  t: `plain`,\n  n: null,\n  list: [true, false, [1]],\n  width,\n}\n",
    ),
    { "quoted-key": "it's AB\u{1F600}\n", d: "x", 1: -2.5, t: "plain", n: null, list: [true, false, [1]], width: 80 },
  );
  // TypeScript: type imports and declarations pass, `satisfies` and `as const` are read through.
  assert.deepEqual(
    read(
      "import type { Config } from 'prettier'\ntype X = string\ninterface Y { a: X }\n" +
        "const c = ({ semi: true } as const) satisfies Config\nexport default c\n",
      "prettier.config.ts",
    ),
    { semi: true },
  );
});

Deno.test("staticExport() takes the tool's own defineConfig as the object it is given, and no other call", () => {
  const text = 'import { defineConfig as define } from "oxfmt"\nexport default define({ semi: false })\n';
  assert.deepEqual(read(text, "oxfmt.config.ts", "oxfmt"), { semi: false });
  assert.throws(() => read(text.replace('"oxfmt"', '"./mine"'), "oxfmt.config.ts", "oxfmt"), /2:16: a call/);
});

Deno.test("staticExport() refuses what only running the file would tell, naming its line and column", () => {
  const cases: [string, RegExp][] = [
    ["module.exports = require('@acme/prettier')\n", /:1:18: a call/],
    ["const shared = require('./x')\nmodule.exports = { ...shared }\n", /:2:20: a spread/],
    ["module.exports = { plugins: [import.meta.resolve('x')] }\n", /:1:30: a call/],
    ["const c = {}\nc.semi = false\nmodule.exports = c\n", /:2:1: a statement that runs code/],
    ["module.exports = { [key]: 1 }\n", /:1:20: a computed key/],
    ["module.exports = { w: width }\n", /:1:23: "width", whose value is not written in the file/],
    // Declared below the export: not yet there when JavaScript evaluates it.
    ["export default { width }\nconst width = 80\n", /:1:18: "width", whose value is not written/],
    ["module.exports = { s: `${x}` }\n", /:1:23: a template string with a substitution/],
    ["module.exports = { f() { return 1 } }\n", /:1:20: a method/],
    ["const a = b\nconst b = a\nmodule.exports = { a }\n", /a value that refers to itself/],
    ["module.exports = [1]\n", /its export is not an object/],
    ["// nothing\n", /it exports nothing poly can read/],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => read(text), (e) => {
      assert.ok(e instanceof ConfigError, String(e));
      assert.match(e.message, message, text);
      assert.match(e.message, /without running it: write it as JSON/);
      return true;
    });
  }
});
