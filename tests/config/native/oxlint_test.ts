/**
 * oxlint's configuration as oxlint finds it (lib/config/native/oxlint.ts): the nearest file governs alone, `extends`
 * are listed for their hashes, `ignorePatterns` of the governing file keep files from oxlint, and what poly cannot
 * honour is said naming the file and key. The end-to-end parity with oxlint's own runs is tests/e2e/oxlint_native_config_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openConfig } from "../../../lib/config/load.ts";
import { nativeExcluded } from "../../../lib/config/native/mod.ts";
import { tempRepository } from "../../_helpers/temp.ts";

function tree(files: Record<string, string>): Promise<string> {
  return tempRepository(files, "poly-native-oxlint-");
}

/** The reason the oxlint configuration governing `sub` cannot be honoured (`unhonoured`). */
async function unhonoured(dir: string, sub: string): Promise<string | undefined> {
  const configs = await openConfig({ cwd: dir });
  return (await configs.forDir(join(dir, sub))).native?.oxlint?.unhonoured;
}

Deno.test("the nearest oxlint file governs its folders alone, its extends listed before it", async () => {
  const dir = await tree({
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

Deno.test("oxlint's files are read unless poly.toml turns oxlint or its files off", async () => {
  const dir = await tree({ ".oxlintrc.json": '{ "rules": { "eqeqeq": "error" } }', "a.ts": "export {};\n" });
  assert.deepEqual((await (await openConfig({ cwd: dir })).forDir(dir)).native?.oxlint?.options, {
    rules: { eqeqeq: "error" },
  });
  for (const off of ["[tools.oxlint]\nnative_config = false\n", "[tools.oxlint]\nenabled = false\n"]) {
    await Deno.writeTextFile(join(dir, "poly.toml"), off);
    assert.equal((await (await openConfig({ cwd: dir })).forDir(dir)).native?.oxlint, undefined, off);
  }
});

Deno.test("an oxlint file poly cannot honour says why, naming the file and key, and stops no run", async () => {
  const dir = await tree({
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
    "broken/.oxlintrc.json": "{ not json",
  });
  const cases: [string, RegExp][] = [
    ["two", /two\/oxlint\.config\.ts: oxlint takes one configuration file per folder/],
    ["plugins", /plugins\/\.oxlintrc\.json: oxlint key "jsPlugins" cannot be honoured/],
    ["typed", /typed\/\.oxlintrc\.json: oxlint key "options\.typeAware" cannot be honoured/],
    ["cycle", /"extends" forms a cycle/],
    ["gone", /gone\/\.oxlintrc\.json: "extends" names "gone\/missing\.json", which cannot be read/],
    ["up", /up\/\.oxlintrc\.json: oxlint key "ignorePatterns" has "\.\.\/x\/\*\*"/],
    ["based", /based\/base\.json: oxlint key "jsPlugins"/],
    ["broken", /broken\/\.oxlintrc\.json:1:3: cannot parse: /],
  ];
  for (const [sub, pattern] of cases) {
    const why = await unhonoured(dir, sub);
    assert.match(why ?? "", pattern, sub);
    assert.match(why ?? "", /\[tools\.oxlint\] enabled = false lints them without oxlint/, sub);
  }
  // The governing file is listed (its hash in the configuration), so mending it re-checks its files.
  const plugins = (await (await openConfig({ cwd: dir })).forDir(join(dir, "plugins"))).native!.oxlint;
  assert.deepEqual(plugins.files.map((f) => f.path), [join(dir, "plugins/.oxlintrc.json")]);
});

Deno.test("oxlint.config.ts is read as literal values without running it", async () => {
  const dir = await tree({
    "lit/oxlint.config.ts":
      'import { defineConfig } from "oxlint";\n\nexport default defineConfig({ rules: { eqeqeq: "warn" } });\n',
    "run/oxlint.config.mts": 'import base from "./base.ts";\n\nexport default { extends: [base] };\n',
  });
  const configs = await openConfig({ cwd: dir });
  assert.deepEqual((await configs.forDir(join(dir, "lit"))).native!.oxlint.options, { rules: { eqeqeq: "warn" } });
  assert.match(
    await unhonoured(dir, "run") ?? "",
    /run\/oxlint\.config\.mts:3:28: "base", whose value is not written in the file.*write it as \.oxlintrc\.json/,
  );
});
