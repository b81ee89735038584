/**
 * oxlint's configuration as oxlint finds it (lib/config/native/oxlint.ts): the nearest file governs alone, `extends`
 * are listed for their hashes, `ignorePatterns` of the governing file keep files from oxlint, and what poly cannot
 * honour names the file and key. The end-to-end parity with oxlint's own runs is tests/e2e/oxlint_native_config_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openConfig } from "../../../lib/config/load.ts";
import { nativeExcluded } from "../../../lib/config/native/mod.ts";
import { ConfigError } from "../../../lib/errors/mod.ts";
import { tempDir } from "../../_helpers/temp.ts";

const ON = "[lint.typescript.oxlint]\n";

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await tempDir({ prefix: "poly-native-oxlint-" });
  await Deno.mkdir(join(dir, ".git"));
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  return dir;
}

async function rejects(dir: string, sub: string, pattern: RegExp): Promise<void> {
  const configs = await openConfig({ cwd: dir });
  await assert.rejects(
    configs.forDir(join(dir, sub)),
    (e) => e instanceof ConfigError && pattern.test(e.message),
  );
}

Deno.test("the nearest oxlint file governs its folders alone, its extends listed before it", async () => {
  const dir = await tree({
    "poly.toml": ON,
    ".oxlintrc.json": '{ "rules": { "eqeqeq": "error" }, "ignorePatterns": ["gen/**", "*.min.js"] }',
    "pkg/.oxlintrc.jsonc": '// nested\n{ "extends": ["../shared/base.json"], "rules": { "no-console": "error" }, }',
    "shared/base.json": '{ "rules": { "no-var": "error" }, "ignorePatterns": ["**"] }',
    "pkg/src/deep/.keep": "",
  });
  const configs = await openConfig({ cwd: dir });
  const top = (await configs.forDir(dir)).native!.oxlint;
  assert.deepEqual(top.options.rules, { eqeqeq: "error" });
  assert.equal(top.root, dir);
  assert.equal((await configs.forDir(join(dir, "shared"))).native!.oxlint, top, "one object per governing file");
  const pkg = (await configs.forDir(join(dir, "pkg", "src", "deep"))).native!.oxlint;
  assert.deepEqual(pkg.options.rules, { "no-console": "error" }, "not merged with the root's");
  assert.deepEqual(pkg.options.extends, ["../shared/base.json"], "as written: the engine makes it absolute");
  assert.deepEqual(pkg.files.map((f) => f.path), [join(dir, "shared/base.json"), join(dir, "pkg/.oxlintrc.jsonc")]);
  assert.equal(pkg.root, join(dir, "pkg"));
  // The governing file's ignorePatterns, rooted at its folder; an extended file's are not oxlint's to apply.
  assert.equal(
    nativeExcluded("oxlint", "lint", top, join(dir, "gen", "a.js")),
    'ignored by oxlint: in ignorePatterns of "../.oxlintrc.json"',
  );
  assert.equal(
    nativeExcluded("oxlint", "lint", top, join(dir, "app.min.js")),
    'ignored by oxlint: in ignorePatterns of ".oxlintrc.json"',
  );
  assert.equal(nativeExcluded("oxlint", "lint", top, join(dir, "src", "gen.js")), undefined);
  assert.equal(nativeExcluded("oxlint", "lint", pkg, join(dir, "pkg", "a.js")), undefined);
});

Deno.test("oxlint's files are read only where poly.toml turns oxlint on", async () => {
  const dir = await tree({ ".oxlintrc.json": "{ not json", "a.ts": "export {};\n" });
  const off = await openConfig({ cwd: dir });
  assert.equal((await off.forDir(dir)).native?.oxlint, undefined);
  await Deno.writeTextFile(join(dir, "poly.toml"), ON);
  await rejects(dir, ".", /\.oxlintrc\.json: cannot parse/);
  await Deno.writeTextFile(join(dir, "poly.toml"), `${ON}\n[tools.oxlint]\nnative_config = false\n`);
  const opted = await openConfig({ cwd: dir });
  assert.equal((await opted.forDir(dir)).native?.oxlint, undefined);
});

Deno.test("an oxlint file poly cannot honour is an error naming the file and key", async () => {
  const dir = await tree({
    "poly.toml": ON,
    "two/.oxlintrc.json": "{}",
    "two/oxlint.config.ts": "export default {};\n",
    "plugins/.oxlintrc.json": '{ "jsPlugins": ["./rules.js"] }',
    "typed/.oxlintrc.json": '{ "options": { "typeAware": true } }',
    "cycle/.oxlintrc.json": '{ "extends": ["./b.json"] }',
    "cycle/b.json": '{ "extends": ["./.oxlintrc.json"] }',
    "gone/.oxlintrc.json": '{ "extends": ["./missing.json"] }',
    "up/.oxlintrc.json": '{ "ignorePatterns": ["../x/**"] }',
    "based/.oxlintrc.json": '{ "extends": ["./base.json"] }',
    "based/base.json": '{ "jsPlugins": ["eslint-plugin-x"] }',
  });
  await rejects(dir, "two", /two\/oxlint\.config\.ts: oxlint takes one configuration file per folder/);
  await rejects(dir, "plugins", /plugins\/\.oxlintrc\.json: oxlint key "jsPlugins" cannot be honoured/);
  await rejects(dir, "typed", /typed\/\.oxlintrc\.json: oxlint key "options\.typeAware" cannot be honoured/);
  await rejects(dir, "cycle", /"extends" forms a cycle/);
  await rejects(dir, "gone", /gone\/\.oxlintrc\.json: "extends" names "gone\/missing\.json", which cannot be read/);
  await rejects(dir, "up", /up\/\.oxlintrc\.json: oxlint key "ignorePatterns" has "\.\.\/x\/\*\*"/);
  await rejects(dir, "based", /based\/base\.json: oxlint key "jsPlugins"/);
});

Deno.test("oxlint.config.ts is read as literal values without running it", async () => {
  const dir = await tree({
    "poly.toml": ON,
    "lit/oxlint.config.ts":
      'import { defineConfig } from "oxlint";\n\nexport default defineConfig({ rules: { eqeqeq: "warn" } });\n',
    "run/oxlint.config.mts": 'import base from "./base.ts";\n\nexport default { extends: [base] };\n',
  });
  const configs = await openConfig({ cwd: dir });
  assert.deepEqual((await configs.forDir(join(dir, "lit"))).native!.oxlint.options, { rules: { eqeqeq: "warn" } });
  await rejects(
    dir,
    "run",
    /run\/oxlint\.config\.mts:3:28: "base", whose value is not written in the file.*write it as \.oxlintrc\.json/,
  );
});
