/**
 * lib/engines/eslint/_local.ts: the repository's own modules an ESLint configuration loads, found by the relative
 * specifiers written in it and in them, which key the eslint engine's cached results.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { localModules } from "../../../lib/engines/eslint/_local.ts";
import { eslint } from "../../../lib/engines/eslint/mod.ts";
import type { EngineSettings } from "../../../lib/engines/types.ts";
import { tempDir } from "../../_helpers/temp.ts";

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await Deno.realPath(await tempDir({ prefix: "poly-eslint-local-" }));
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  return dir;
}

const FILES = {
  "eslint.config.mjs": `import local from "./tools/eslint/index.js";
import shared from "../outside.js";
import pkg from "./node_modules/some-plugin/index.js";
export default [{ files: ["./src/**/*.js"], plugins: { local }, rules: { "local/no-todo": "error" } }];
`,
  "tools/eslint/index.js": `module.exports = { rules: { "no-todo": require("./no-todo") } };\n`,
  "tools/eslint/no-todo.cjs": `module.exports = { create: () => ({}) }; // "./missing.js" names nothing\n`,
  "tools/eslint/base.json": `{}`,
  "eslint-local-rules.js": `module.exports = {};\n`,
  "node_modules/some-plugin/index.js": `export default {};\n`,
  "src/app.js": `let a = 1;\n`,
};

Deno.test("localModules() follows relative specifiers through the repository's modules, outside node_modules", async () => {
  const dir = await tree(FILES);
  const config = join(dir, "eslint.config.mjs");
  const found = await localModules([config], dir);
  // tools/eslint/index.js (with its .js written), no-todo (".cjs" added), eslint-local-rules.js (by name); not the
  // file outside the repository, not node_modules, not the glob, not what names nothing.
  assert.deepEqual(
    found.paths,
    ["eslint-local-rules.js", "tools/eslint/index.js", "tools/eslint/no-todo.cjs"].map(
      (p) => join(dir, p),
    ),
  );
  assert.match(found.digest ?? "", /^[0-9a-f]{64}$/);
  // A module's content is in the digest; a linted file's is not.
  await Deno.writeTextFile(join(dir, "src/app.js"), "let b = 2;\n");
  assert.equal((await localModules([config], dir)).digest, found.digest);
  await Deno.writeTextFile(
    join(dir, "tools/eslint/no-todo.cjs"),
    "module.exports = { create: () => ({ Program() {} }) };\n",
  );
  assert.notEqual((await localModules([config], dir)).digest, found.digest);
  // A configuration that loads nothing of the repository's has no digest; a legacy one's relative `extends` counts.
  const bare = await tree({ "eslint.config.js": "export default [];\n" });
  assert.deepEqual(await localModules([join(bare, "eslint.config.js")], bare), { paths: [] });
  const legacy = await tree({ ".eslintrc.json": '{ "extends": ["./config/base"] }', "config/base.json": "{}" });
  assert.deepEqual((await localModules([join(legacy, ".eslintrc.json")], legacy)).paths, [
    join(legacy, "config/base.json"),
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("the eslint engine's cache context changes with a local rule's text, and names it among its context files", async () => {
  const dir = await tree(FILES);
  await Deno.mkdir(join(dir, ".git"));
  const settings = {
    rules: {},
    native: { root: dir, options: {}, files: [{ path: join(dir, "eslint.config.mjs"), hash: "0" }] },
  } as unknown as EngineSettings;
  const file = { path: join(dir, "src/app.js"), relPath: "src/app.js", language: "javascript" as const, text: "" };
  const before = await eslint.cacheContext!(file, settings, "run-1");
  assert.match(before, /^eslint none no lockfile local [0-9a-f]{16}$/);
  assert.ok(eslint.contextFiles!(join(dir, "tools/eslint/no-todo.cjs")));
  assert.ok(!eslint.contextFiles!(join(dir, "src/app.js")));
  await Deno.writeTextFile(join(dir, "tools/eslint/no-todo.cjs"), "module.exports = { meta: {} };\n");
  assert.equal(await eslint.cacheContext!(file, settings, "run-1"), before, "once per folder and run");
  assert.notEqual(await eslint.cacheContext!(file, settings, "run-2"), before);
  await Deno.remove(dir, { recursive: true });
});
