import assert from "node:assert/strict";
import { join } from "node:path";
import { EslintReader } from "../../../lib/config/native/eslint.ts";
import { NativeFiles } from "../../../lib/config/native/_files.ts";
import { tempDir } from "../../_helpers/temp.ts";

Deno.test("EslintReader finds the nearest ESLint configuration: flat, legacy, or package.json's eslintConfig", async () => {
  const root = await tempDir({ prefix: "poly-eslint-" });
  const write = async (path: string, text: string) => {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  };
  await write("eslint.config.mjs", "export default [];\n");
  await write("legacy/.eslintrc.json", "{}\n");
  await write("manifest/package.json", '{"name": "m", "eslintConfig": {"root": true}}\n');
  await write("plain/package.json", '{"name": "p", "description": "\\"eslintConfig\\" is only words here"}\n');
  await Deno.mkdir(join(root, "legacy/deep/er"), { recursive: true });
  const reader = new EslintReader(new NativeFiles());
  const file = async (dir: string) =>
    (await reader.forDir(join(root, dir), root))?.files[0]?.path.slice(root.length + 1);
  assert.equal(await file("."), "eslint.config.mjs");
  assert.equal(await file("legacy/deep/er"), "legacy/.eslintrc.json");
  assert.equal(await file("manifest"), "manifest/package.json");
  assert.equal(await file("plain"), "eslint.config.mjs", "a package.json without the key is passed over");
  const outside = await tempDir({ prefix: "poly-eslint-none-" });
  assert.equal(await reader.forDir(outside, outside), undefined);
});

Deno.test("EslintReader finds where xo or standard lints: xo's files, a package.json key, or the package as a dependency", async () => {
  const root = await tempDir({ prefix: "poly-xo-" });
  const write = async (path: string, text: string) => {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  };
  await write("keyed/package.json", '{"name": "k", "xo": {"space": true}}\n');
  await write("dependent/package.json", '{"name": "d", "devDependencies": {"xo": "^0.60.0"}}\n');
  await write("flat/xo.config.js", "export default [];\n");
  await write("both/eslint.config.js", "export default [];\n");
  await write("both/package.json", '{"name": "b", "xo": {}}\n');
  await write("named/package.json", '{"name": "n", "description": "uses \\"xo\\" in words", "keywords": ["xo"]}\n');
  await write("std/package.json", '{"name": "s", "devDependencies": {"standard": "^17.1.2"}}\n');
  await write("semi/package.json", '{"name": "s", "semistandard": {"ignore": ["gen/"]}}\n');
  const reader = new EslintReader(new NativeFiles());
  const found = async (dir: string) => {
    const config = await reader.forDir(join(root, dir), root);
    return config && [config.files[0]?.path.slice(root.length + 1), config.options.runner ?? "eslint"];
  };
  assert.deepEqual(await found("keyed"), ["keyed/package.json", "xo"]);
  assert.deepEqual(await found("dependent"), ["dependent/package.json", "xo"]);
  assert.deepEqual(await found("flat"), ["flat/xo.config.js", "xo"]);
  assert.deepEqual(await found("both"), ["both/eslint.config.js", "eslint"], "ESLint's own file first");
  assert.equal(await found("named"), undefined, "words are not a configuration");
  assert.deepEqual(await found("std"), ["std/package.json", "standard"]);
  assert.deepEqual(await found("semi"), ["semi/package.json", "semistandard"]);
});
