/**
 * The native-configuration layer in-process: discovery and merging of ruff and
 * biome files, ruff's glob matching, biome's `includes` (held to biome's own
 * command line of the same version), the prettier mapping and `.editorconfig`.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { importNative } from "../../../lib/config/native/import.ts";
import { openConfig } from "../../../lib/config/load.ts";
import { nativeExcluded, nativeIgnoredCodes, nativeTargetVersion } from "../../../lib/config/native/mod.ts";
import { biomeExcluded, biomeIncludes, PROJECT_RULES } from "../../../lib/config/native/biome.ts";
import { globsetRegex, ruffMatches } from "../../../lib/config/native/_glob.ts";
import {
  editorconfigStyle,
  oxfmtToBiome,
  prettierToBiome,
  styleOptionsFor,
} from "../../../lib/config/native/prettier.ts";
import { FORMAT_STYLE } from "../../../lib/config/native/mod.ts";
import {
  editorconfigDefaults,
  editorconfigProps,
  parseEditorconfig,
  shfmtEditorconfig,
  shfmtIgnoredBy,
  styluaEditorconfig,
} from "../../../lib/config/native/editorconfig.ts";
import { styluaOptions } from "../../../lib/config/native/host.ts";
import { biomeCommand } from "../../../lib/engines/biome/_bin.ts";
import { tempRepository } from "../../_helpers/temp.ts";

function tree(files: Record<string, string>): Promise<string> {
  return tempRepository(files, "poly-native-");
}

Deno.test("forDir() passes over a pyproject.toml without [tool.ruff] and finds the ruff.toml above it", async () => {
  const dir = await tree({
    "ruff.toml": 'line-length = 99\n[lint]\nselect = ["F"]\n',
    "pkg/pyproject.toml": '[project]\nname = "x"\n[tool.black]\nline-length = 70\n',
  });
  const config = await (await openConfig({ cwd: dir })).forDir(join(dir, "pkg"));
  assert.deepEqual(config.native?.ruff?.files.map((f) => f.path), [join(dir, "ruff.toml")]);
  assert.equal(config.native?.ruff?.options["line-length"], 99);
  assert.ok(config.sources.includes(join(dir, "ruff.toml")));
});

Deno.test("forDir() of a repository outside the run's own finds the native files above a nested folder in it", async () => {
  // `poly fmt ../other` from another checkout: every native file up to the other repository's root governs, as it
  // does from inside it (each folder used to be bounded by itself, so a nested package.json hid the root's files).
  const dir = await tree({
    "biome.json": '{ "formatter": { "indentWidth": 8 } }\n',
    ".oxfmtrc.json": '{ "semi": false }\n',
    "ruff.toml": "line-length = 99\n",
    "pkg/package.json": '{ "name": "pkg" }\n',
  });
  const elsewhere = await tree({});
  const config = await (await openConfig({ cwd: elsewhere })).forDir(join(dir, "pkg"));
  assert.deepEqual(config.native?.biome?.files.map((f) => f.path), [join(dir, "biome.json")]);
  assert.deepEqual(config.native?.[FORMAT_STYLE]?.files.map((f) => f.path), [join(dir, ".oxfmtrc.json")]);
  assert.equal(config.native?.ruff?.options["line-length"], 99);
});

Deno.test("forDir() passes over a link named as a configuration that leads to no file, as the tools pass it over", async () => {
  const dir = await tempRepository({ "ruff.toml": "line-length = 70\n", "bench/x.py": "" });
  // networkx/networkx's benchmarks/pyproject.toml: a link whose target ends in a newline, so leads nowhere.
  await Deno.symlink("../pyproject.toml\n", join(dir, "bench/pyproject.toml"));
  await Deno.mkdir(join(dir, "bench/.editorconfig"));
  await Deno.symlink(".editorconfig", join(dir, "bench/.prettierrc"));
  const native = (await (await openConfig({ cwd: dir })).forDir(join(dir, "bench"))).native;
  assert.equal(native?.ruff?.files.map((f) => relative(dir, f.path)).join(), "ruff.toml");
  assert.equal(native?.ruff?.options["line-length"], 70);
});

Deno.test("forDir() infers ruff's target-version from requires-python in the same pyproject.toml, as ruff does", async () => {
  const dir = await tree({
    "pyproject.toml": '[project]\nrequires-python = ">=3.10,<4"\n[tool.ruff]\nline-length = 100\n',
    "explicit/pyproject.toml": '[project]\nrequires-python = ">=3.10"\n[tool.ruff]\ntarget-version = "py312"\n',
  });
  const configs = await openConfig({ cwd: dir });
  assert.equal((await configs.forDir(dir)).native?.ruff?.options["target-version"], "py310");
  assert.equal((await configs.forDir(join(dir, "explicit"))).native?.ruff?.options["target-version"], "py312");
});

Deno.test("forDir() folds ruff's rule selections: a later select starts over, ignores and extend-selects meet", async () => {
  const dir = await tree({
    "base.toml": '[lint]\nselect = ["E", "F"]\nignore = ["E501", "F4"]\nextend-select = ["B9"]\n',
    "ruff.toml": 'extend = "base.toml"\n[lint]\nextend-select = ["E501", "F401"]\nignore = ["B"]\n',
    "other/ruff.toml": 'extend = "../base.toml"\n[lint]\nselect = ["W"]\n',
  });
  const configs = await openConfig({ cwd: dir });
  const { isort: _firstParty, ...lint } = ((await configs.forDir(dir)).native?.ruff?.options.lint ?? {}) as Record<
    string,
    unknown
  >;
  // E501 re-enabled by the child (the base's ignore dropped), F401 more specific than the base's F4; B9 ignored by B.
  assert.deepEqual(lint, { select: ["E", "F"], "extend-select": ["E501", "F401"], ignore: ["F4", "B"] });
  const other = (await configs.forDir(join(dir, "other"))).native?.ruff?.options.lint as Record<string, unknown>;
  assert.deepEqual(other.select, ["W"]);
  assert.equal(other["extend-select"], undefined);
  assert.equal(other.ignore, undefined);
});

/** Why engine `id`'s configuration governing `dir/sub` cannot be honoured (`unhonoured`), checking it applies nothing. */
async function unhonouredOf(dir: string, id = "biome", sub = ""): Promise<string> {
  const native = (await (await openConfig({ cwd: dir })).forDir(join(dir, sub))).native?.[id];
  assert.ok(native?.unhonoured, `unhonoured: ${JSON.stringify(native)}`);
  assert.deepEqual(native.options, {});
  return native.unhonoured;
}

Deno.test("forDir() names the file and key of a malformed ruff setting, and an extend cycle", async () => {
  const bad = await tree({ "ruff.toml": '[lint]\nextend-safe-fixes = "E"\n' });
  assert.match(await unhonouredOf(bad, "ruff"), /ruff\.toml.*"lint\.extend-safe-fixes" must be a list of strings/);
  const cycle = await tree({ "ruff.toml": 'extend = "a.toml"\n', "a.toml": 'extend = "ruff.toml"\n' });
  assert.match(await unhonouredOf(cycle, "ruff"), /"extend" forms a cycle/);
});

Deno.test("[tools.ruff] native_config = false leaves ruff's files out of the configuration", async () => {
  const dir = await tree({ "ruff.toml": "line-length = 99\n", "poly.toml": "[tools.ruff]\nnative_config = false\n" });
  const config = await (await openConfig({ cwd: dir })).forDir(dir);
  assert.equal(config.native?.ruff, undefined);
  assert.ok(!config.sources.includes(join(dir, "ruff.toml")));
});

Deno.test("nativeExcluded() and nativeIgnoredCodes() match as ruff does: base name, or the path under the config", async () => {
  const dir = await tree({
    "ruff.toml":
      'extend-exclude = ["gen/*.py", "legacy"]\n[lint.per-file-ignores]\n"tests/**" = ["S101"]\n"!src/**" = ["D"]\n',
  });
  const ruff = (await (await openConfig({ cwd: dir })).forDir(dir)).native!.ruff!;
  assert.match(nativeExcluded("ruff", "lint", ruff, join(dir, "gen/a.py")) ?? "", /"gen\/\*\.py"/);
  assert.match(nativeExcluded("ruff", "lint", ruff, join(dir, "x/legacy/a.py")) ?? "", /"legacy"/);
  assert.match(
    nativeExcluded("ruff", "fmt", ruff, join(dir, ".venv/lib/a.py")) ?? "",
    /excluded from ruff by "\.venv"/,
  );
  assert.equal(nativeExcluded("ruff", "lint", ruff, join(dir, "src/a.py")), undefined);
  // ruff 0.16.9's defaults have `_build`, not `build` (`ruff check` checks sqlalchemy's `doc/build/conf.py`).
  assert.match(nativeExcluded("ruff", "lint", ruff, join(dir, "doc/_build/a.py")) ?? "", /"_build"/);
  assert.equal(nativeExcluded("ruff", "lint", ruff, join(dir, "doc/build/conf.py")), undefined);
  assert.deepEqual(nativeIgnoredCodes(ruff, join(dir, "tests/unit/test_a.py")), ["S101", "D"]);
  assert.deepEqual(nativeIgnoredCodes(ruff, join(dir, "src/a.py")), []);
});

Deno.test("nativeTargetVersion() takes ruff's per-file-target-version from the nearest file setting it, first match", async () => {
  const dir = await tree({
    "pyproject.toml":
      '[tool.ruff]\ntarget-version = "py312"\n[tool.ruff.per-file-target-version]\n"legacy/*.py" = "py38"\n"compat.py" = "py37"\n"!src/**" = "py310"\n',
    "sub/ruff.toml": 'extend = "../pyproject.toml"\n[per-file-target-version]\n"old.py" = "py39"\n',
    "bad/ruff.toml": '[per-file-target-version]\n"x.py" = "3.8"\n',
  });
  const configs = await openConfig({ cwd: dir });
  const ruff = (await configs.forDir(dir)).native!.ruff!;
  assert.equal(ruff.options["per-file-target-version"], undefined); // poly's to evaluate: the module sees no paths
  assert.equal(nativeTargetVersion(ruff, join(dir, "legacy/a.py")), "py38");
  assert.equal(nativeTargetVersion(ruff, join(dir, "deep/compat.py")), "py37"); // a base name matches anywhere
  assert.equal(nativeTargetVersion(ruff, join(dir, "tools/run.py")), "py310"); // negated: what src/** does not name
  assert.equal(nativeTargetVersion(ruff, join(dir, "src/a.py")), undefined);
  // The nearest file's table replaces the base's whole, its globs relative to itself.
  const sub = (await configs.forDir(join(dir, "sub"))).native!.ruff!;
  assert.equal(nativeTargetVersion(sub, join(dir, "sub/old.py")), "py39");
  assert.equal(nativeTargetVersion(sub, join(dir, "sub/legacy/a.py")), undefined);
  // poly.toml cannot say it: `poly config import` refuses rather than drop it.
  const root = await configs.forDir(dir);
  assert.throws(() => importNative(root, dir, (p) => relative(dir, p)), /"per-file-target-version" cannot be imported/);
  assert.match(await unhonouredOf(dir, "ruff", "bad"), /"per-file-target-version\."x\.py"" must be a Python version/);
});

Deno.test("forDir() resolves ruff's src against the file of the extend chain that sets it, as ruff does", async () => {
  const dir = await tree({
    "pyproject.toml": '[tool.ruff]\nsrc = ["src"]\n',
    "src/mypkg/__init__.py": "",
    "tests/ruff.toml": 'extend = "../pyproject.toml"\n',
    "tests/helpers/__init__.py": "",
  });
  const ruff = (await (await openConfig({ cwd: dir })).forDir(join(dir, "tests"))).native!.ruff!;
  const isort = (ruff.options.lint as { isort?: { "known-first-party"?: string[] } }).isort;
  // `src/` of the pyproject.toml's folder, not of tests/ (where the governing ruff.toml is).
  assert.deepEqual(isort?.["known-first-party"], ["mypkg"]);
});

Deno.test("forDir() expands ruff's src globs to the folders they match, as ruff does", async () => {
  // Checked with ruff 0.16.9: `src = ["packages/*"]` makes `import mod_b` first-party (`--show-settings` lists
  // packages/a and packages/b as `linter.src`), so `import requests` and `import mod_b` in two sections is sorted.
  const dir = await tree({
    "pyproject.toml": '[tool.ruff]\nsrc = ["packages/*", "libs/**"]\n',
    "packages/a/mod_a/__init__.py": "",
    "packages/b/mod_b.py": "",
    "libs/deep/er/mod_c/__init__.py": "",
  });
  const ruff = (await (await openConfig({ cwd: dir })).forDir(dir)).native!.ruff!;
  const isort = (ruff.options.lint as { isort?: { "known-first-party"?: string[] } }).isort;
  assert.deepEqual(isort?.["known-first-party"], ["deep", "er", "mod_a", "mod_b", "mod_c"]);
});

Deno.test("globsetRegex() lets * cross directories, as ruff's globset does", () => {
  assert.ok(globsetRegex("/r/tests/*").test("/r/tests/a/b.py"));
  assert.ok(globsetRegex("*.{py,pyi}").test("a.pyi"));
  assert.ok(!globsetRegex("test_?.py").test("test_ab.py"));
  assert.ok(globsetRegex("[!a]x.py").test("bx.py"));
});

Deno.test("ruffMatches(): a pattern ending in / is the folder (requests' exclude = [\"docs/\"]), as ruff's FilePattern", () => {
  const docs = { pattern: "docs/", base: "/r" };
  assert.ok(ruffMatches(docs, "/r/docs"), "the folder, as the walk meets it");
  assert.ok(!ruffMatches(docs, "/r/docs/conf.py"), "its files through the folder (nativeExcluded walks up)");
  assert.ok(!ruffMatches(docs, "/r/src/docs"), "a folder of that name elsewhere: the pattern has a /");
  assert.ok(ruffMatches({ pattern: "docs", base: "/r" }, "/r/src/docs"), "no /: by base name anywhere");
  assert.ok(ruffMatches({ pattern: "build/**", base: "/r" }, "/r/build/x.py"));
});

Deno.test("globsetRegex(): a ** component also matches no folder at all, as ruff's globset does", () => {
  // pydantic's `"tests/**/*.py" = ['T', 'E721', 'F811']` covers tests/test_main.py (`ruff check` ignores those there).
  assert.ok(globsetRegex("/r/tests/**/*.py").test("/r/tests/test_main.py"));
  assert.ok(globsetRegex("/r/tests/**/*.py").test("/r/tests/a/b/test_x.py"));
  assert.ok(globsetRegex("**/b.py").test("b.py"));
  assert.ok(globsetRegex("/r/**/b.py").test("/r/b.py"));
  assert.ok(globsetRegex("/r/pkg/**").test("/r/pkg/d.py"));
  assert.ok(!globsetRegex("/r/tests/**/*.py").test("/r/tests.py"));
  assert.ok(globsetRegex("/r/a**/x.py").test("/r/ab/c/x.py"), "** inside a name is * as ever");
});

Deno.test('forDir() resolves biome\'s nested root:false and extends "//" as biome does', async () => {
  const dir = await tree({
    "biome.json": '{ "formatter": { "indentWidth": 4 } }',
    "a/biome.json": '{ "root": false, "linter": { "enabled": false } }',
    "b/biome.jsonc": '// own\n{ "root": false, "extends": "//", "linter": { "enabled": false }, }',
  });
  const configs = await openConfig({ cwd: dir });
  assert.deepEqual((await configs.forDir(join(dir, "a"))).native?.biome?.options, { linter: { enabled: false } });
  assert.deepEqual((await configs.forDir(join(dir, "b"))).native?.biome?.options, {
    formatter: { indentWidth: 4 },
    linter: { enabled: false },
  });
});

Deno.test("forDir() gives biome plugins and extends of packages as unhonoured, naming the file", async () => {
  const dir = await tree({ "biome.json": '{ "plugins": ["./rule.grit"] }' });
  assert.match(await unhonouredOf(dir), /biome\.json: biome key "plugins" cannot be honoured/);
  const pkg = await tree({ "biome.json": '{ "extends": ["@acme/biome-config"] }' });
  assert.match(await unhonouredOf(pkg), /names a package/);
  // A file that does not parse: named with its line, no run stopped.
  const bad = await tree({ "biome.json": '{ "linter": { "enabled": true, } }\n}' });
  assert.match(await unhonouredOf(bad), /biome\.json:2:1: cannot parse: unexpected text after the end of the value/);
});

Deno.test("an unhonoured biome file keeps its includes: the files it leaves out are not biome's", async () => {
  const dir = await tree({
    "biome.json": '{ "files": { "includes": ["src/**"] }, "plugins": ["./rule.grit"] }',
    "src/a.ts": "export const a = 1;\n",
  });
  const biome = (await (await openConfig({ cwd: dir })).forDir(dir)).native?.biome;
  assert.match(biome?.unhonoured ?? "", /"plugins"/);
  assert.equal(biomeExcluded(biome!, "lint", join(dir, "src/a.ts")), undefined);
  assert.ok(biomeExcluded(biome!, "lint", join(dir, "b.ts")));
});

Deno.test("forDir() gives biome's project domain and the rules that need its scanner over the project as unhonoured, naming the key", async () => {
  const cases: [string, RegExp][] = [
    ['{ "linter": { "domains": { "project": "all" } } }', /biome key "linter\.domains\.project" cannot be honoured/],
    [
      '{ "linter": { "rules": { "suspicious": { "noImportCycles": "error" } } } }',
      /"linter\.rules\.suspicious\.noImportCycles" cannot be honoured by poly: biome applies it only where its scanner/,
    ],
    [
      '{ "linter": { "rules": { "nursery": { "noFloatingPromises": "error" } } } }',
      /"linter\.rules\.nursery\.noFloatingPromises" cannot be honoured by poly/,
    ],
    [
      '{ "overrides": [{ "includes": ["src/**"], "linter": { "rules": { "correctness": { "noUnresolvedImports": { "level": "warn" } } } } }] }',
      /"overrides\[0\]\.linter\.rules\.correctness\.noUnresolvedImports"/,
    ],
    // `vitest: "catalog:"` would turn on the test domain from pnpm-workspace.yaml's catalog, which poly does not read.
    [
      '{ "javascript": { "resolver": { "experimentalPnpmCatalogs": true } } }',
      /biome key "javascript\.resolver\.experimentalPnpmCatalogs" cannot be honoured by poly: biome then reads the versions/,
    ],
  ];
  for (const [text, message] of cases) {
    const dir = await tree({ "biome.json": text });
    assert.match(await unhonouredOf(dir), message, text);
  }
  // Turned off, or the domain off: nothing to refuse.
  const off = await tree({
    "biome.json":
      '{ "linter": { "domains": { "project": "none" }, "rules": { "correctness": { "useImportExtensions": "off" } } }, "javascript": { "resolver": { "experimentalPnpmCatalogs": false } } }',
  });
  await (await openConfig({ cwd: off })).forDir(off);
});

Deno.test("a biome rule group turned on by a string is honoured: biome turns on none of the scanner's rules that way", async () => {
  // `"nursery": "on"` turns on the group's rules, but not those of the project and types domains (checked against
  // the binary of poly's pin): poly accepts it, and would have to refuse it the day biome did otherwise.
  const command = await biomeCommand();
  if (!command) throw new Error("the biome command line of the same version is part of poly");
  const groups = { correctness: "on", nursery: "on", suspicious: "error", style: "warn" };
  const dir = await tree({
    "biome.json": JSON.stringify({ linter: { rules: groups } }),
    "package.json": "{}",
    "a.ts": 'import { b } from "./b";\nimport { x } from "./missing";\nexport async function f() { return b + x; }\n' +
      "export function g() { f(); }\n",
    "b.ts": 'import { f } from "./a";\nexport const b = 1;\nexport { f };\n',
  });
  await (await openConfig({ cwd: dir })).forDir(dir);
  const out = await new Deno.Command(command.binary, {
    args: ["lint", "--reporter=json", "--max-diagnostics=none", "."],
    cwd: dir,
    env: command.env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const report = JSON.parse(new TextDecoder().decode(out.stdout)) as { diagnostics: { category?: string }[] };
  const categories = new Set(report.diagnostics.map((d) => d.category ?? ""));
  assert.ok(categories.has("lint/nursery/useExplicitType"), `the groups' own rules ran: ${[...categories]}`);
  const scanner = [...categories].filter((c) => PROJECT_RULES.some((rule) => c.endsWith(`/${rule}`)));
  assert.deepEqual(scanner, []);
});

Deno.test("forDir() gives a biome key biome's own schema does not know (a biome 1 configuration) as unhonoured, naming file, line, column and key", async () => {
  const dir = await tree({
    "biome.json": '{ "files": { "ignore": ["dist"] }, "linter": { "rules": { "style": {} } } }',
  });
  assert.match(
    await unhonouredOf(dir),
    /biome\.json:1:14: biome key "files\.ignore" is not in biome 2\.5\.14's configuration schema/,
  );
  // Where biome itself points (`biome lint`: "biome.json:4:7 deserialize ... Found an unknown key `noDebuger`").
  const rule = await tree({
    "biome.json": '{\n  "linter": { "rules": {\n    "suspicious": {\n      "noDebuger": "off"\n    }\n  } }\n}\n',
  });
  assert.match(await unhonouredOf(rule), /biome\.json:4:7: biome key "linter\.rules\.suspicious\.noDebuger"/);
});

Deno.test("biomeIncludes() takes the files biome's own command line processes", async () => {
  const command = await biomeCommand();
  if (!command) throw new Error("the biome command line of the same version is part of poly");
  const files = ["src/x.js", "src/gen/y.js", "src/a/dist/z.js", "test/t.js", "dist/d.js", "root.js", "src/a/b.ts"];
  const dir = await tree(Object.fromEntries(files.map((f) => [f, "export const q = 1;\n"])));
  const cases = [
    ["**", "!**/dist"],
    ["src/**", "!src/gen/**"],
    ["**", "!src/gen", "!test/**"],
    ["**", "!**/dist/**", "dist/d.js"],
    ["**", "!dist", "dist/d.js"],
    ["**", "!!**/dist"],
    ["**/*.js", "!src/**"],
    ["*.js"],
  ];
  for (const includes of cases) {
    await Deno.writeTextFile(join(dir, "biome.json"), JSON.stringify({ files: { includes } }));
    const out: Deno.CommandOutput = await new Deno.Command(command.binary, {
      args: ["lint", "--vcs-enabled=false", "--verbose", "."],
      cwd: dir,
      env: command.env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text: string = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    const processed = text.split("Files processed:")[1]?.split("Files fixed")[0] ?? "";
    const native = [...processed.matchAll(/^\s+- (\S+)$/gm)].map((m) => m[1]).filter((p) => p !== "biome.json");
    const list = includes.map((pattern) => ({ pattern, base: dir }));
    assert.deepEqual(files.filter((f) => biomeIncludes(list, f)).sort(), native.sort(), JSON.stringify(includes));
  }
});

Deno.test("prettierToBiome() maps as biome migrate prettier does, and names an option without an equivalent", () => {
  assert.deepEqual(prettierToBiome({ semi: false, singleQuote: true, tabWidth: 4, trailingComma: "es5" }, "x"), {
    formatter: { indentStyle: "space", indentWidth: 4 },
    javascript: { formatter: { semicolons: "asNeeded", quoteStyle: "single", trailingCommas: "es5" } },
    css: { formatter: { quoteStyle: "single" } }, // prettier quotes CSS strings by singleQuote too
  });
  assert.throws(() => prettierToBiome({ quoteProps: "consistent" }, ".prettierrc"), /"quoteProps" = "consistent"/);
  assert.throws(() => prettierToBiome({ plugins: ["prettier-plugin-x"] }, ".prettierrc"), /plugin "prettier-plugin-x"/);
  // A plugin for another language, or one that only sorts, changes nothing biome prints.
  assert.deepEqual(prettierToBiome({ plugins: ["prettier-plugin-astro", "prettier-plugin-tailwindcss"] }, "x"), {
    formatter: { indentStyle: "space" },
  });
  assert.throws(() => prettierToBiome({ insertFinalNewline: false }, ".prettierrc"), /prettier has no option/);
});

Deno.test("oxfmtToBiome() maps prettier's options under oxfmt's defaults and extensions", () => {
  assert.deepEqual(oxfmtToBiome({ $schema: "./x.json", semi: false }, ".oxfmtrc.json"), {
    formatter: { indentStyle: "space", lineWidth: 100 }, // oxfmt's width is 100, prettier's (and biome's) 80
    javascript: { formatter: { semicolons: "asNeeded" } },
  });
  assert.deepEqual(
    oxfmtToBiome({
      printWidth: 80,
      insertFinalNewline: false,
      experimentalOperatorPosition: "start",
      ignorePatterns: ["dist/"],
      sortImports: { groups: ["builtin"] },
      sortPackageJson: false,
      experimentalSortPackageJson: true,
      sortTailwindcss: {},
      jsdoc: true,
      overrides: [{ files: ["*.json5"], options: { singleQuote: false } }],
    }, ".oxfmtrc.json"),
    {
      formatter: { indentStyle: "space", lineWidth: 80, trailingNewline: false },
      javascript: { formatter: { operatorLinebreak: "before" } },
      overrides: [{
        includes: ["**/*.json5"],
        javascript: { formatter: { quoteStyle: "double" } },
        css: { formatter: { quoteStyle: "double" } },
      }],
    },
  );
  assert.throws(
    () => oxfmtToBiome({ experimentalTernaries: true }, ".oxfmtrc.json"),
    /oxfmt option "experimentalTernaries"/,
  );
  assert.throws(() => oxfmtToBiome({ quoteProps: "consistent" }, ".oxfmtrc.json"), /oxfmt option "quoteProps"/);
});

Deno.test("editorconfigStyle() reads .editorconfig beneath a .prettierrc as prettier itself does", async () => {
  const prettier = await import("prettier");
  const cases: [string, Record<string, unknown>][] = [
    ["[*]\nindent_style = tab\n", {}],
    ["[*]\nindent_style = space\nindent_size = 4\nmax_line_length = 90\nend_of_line = crlf\n", {}],
    ["[*]\nindent_size = 3\n", {}],
    ["[*]\nindent_style = tab\ntab_width = 8\nquote_type = single\n", { singleQuote: false }],
    ["[*]\nindent_style = space\nindent_size = 4\n[*.ts]\nindent_size = 6\n", { tabWidth: 2 }],
    ["[*]\nmax_line_length = off\n", {}],
  ];
  for (const [ec, rc] of cases) {
    const dir = await tree({
      ".editorconfig": `root = true\n${ec}`,
      ".prettierrc": JSON.stringify(rc),
      "src/a.ts": "",
    });
    const file = join(dir, "src/a.ts");
    const expected = await prettier.resolveConfig(file, { editorconfig: true, useCache: false });
    const config = await (await openConfig({ cwd: dir })).forDir(join(dir, "src"));
    const props = editorconfigProps(config.native!.editorconfig!, file);
    const style = { ...editorconfigStyle(props, "prettier", Object.keys(rc)), ...rc };
    if (style.printWidth === 320) style.printWidth = Number.POSITIVE_INFINITY; // biome's widest line stands for "off"
    assert.deepEqual(style, expected, ec);
  }
});

Deno.test("forDir() takes oxfmt's file before prettier's in a directory, the nearest directory first", async () => {
  const dir = await tree({
    ".oxfmtrc.jsonc": '{ // oxfmt\n "semi": false, "ignorePatterns": ["dist/", "/only-top.js"] }',
    ".prettierrc": '{ "semi": true }',
    "pkg/.prettierrc.json": '{ "singleQuote": true }',
    "ts/oxfmt.config.ts": 'import base from "./base.ts"\nexport default { ...base }\n',
  });
  const configs = await openConfig({ cwd: dir });
  const top = await configs.forDir(dir);
  assert.deepEqual(top.native?.biome?.files.map((f) => f.path), [join(dir, ".oxfmtrc.jsonc")]);
  assert.deepEqual(top.native?.biome?.options.javascript, { formatter: { semicolons: "asNeeded" } });
  assert.deepEqual(top.native?.biome?.style, { tool: "oxfmt", explicit: ["ignorePatterns", "semi"] });
  assert.ok(top.sources.includes(join(dir, ".oxfmtrc.jsonc")));
  const pkg = await configs.forDir(join(dir, "pkg"));
  assert.deepEqual(pkg.native?.biome?.files.map((f) => f.path), [join(dir, "pkg/.prettierrc.json")]);
  assert.equal(pkg.native?.biome?.style?.tool, "prettier");
  // One poly cannot read governs its folder all the same: formatting there is an error saying why (not linting).
  const ts = (await configs.forDir(join(dir, "ts"))).native!;
  assert.match(ts[FORMAT_STYLE].unmapped ?? "", /oxfmt\.config\.ts:2:18: a spread: poly reads a JavaScript/);
  assert.equal(ts.biome.unmapped, ts[FORMAT_STYLE].unmapped);
  // ignorePatterns keep files from the formatter alone, as gitignore patterns relative to the file.
  const native = top.native!.biome!;
  const why = (rel: string, kind: "lint" | "fmt" = "fmt") => nativeExcluded("biome", kind, native, join(dir, rel));
  assert.match(why("dist/a.js") ?? "", /ignored by oxfmt: in ignorePatterns of "\.\.\/\.oxfmtrc\.jsonc"/);
  assert.ok(why("pkg/dist/deep/a.js"));
  assert.ok(why("only-top.js"));
  assert.equal(why("pkg/only-top.js"), undefined);
  assert.equal(why("src/a.js"), undefined);
  assert.equal(why("dist/a.js", "lint"), undefined);
});

Deno.test("styleOptionsFor() resolves a file's options as prettier does: overrides by path, .prettierignore beside", async () => {
  const prettier = await import("prettier");
  const rc = {
    singleQuote: true,
    overrides: [
      { files: "*.yml", options: { singleQuote: false } },
      { files: ["deploy/**/*.yaml"], excludeFiles: "deploy/keep/*.yaml", options: { printWidth: 40 } },
    ],
  };
  const dir = await tree({
    ".prettierrc.json": JSON.stringify(rc),
    ".prettierignore": "# generated\nvendor/\n/top.yaml\n",
  });
  const style = (await (await openConfig({ cwd: dir })).forDir(dir)).native![FORMAT_STYLE];
  assert.deepEqual(style.files.map((f) => f.path), [join(dir, ".prettierrc.json"), join(dir, ".prettierignore")]);
  for (const rel of ["a.yaml", "ci/b.yml", "deploy/x/c.yaml", "deploy/keep/d.yaml"]) {
    const file = join(dir, rel);
    const expected = await prettier.resolveConfig(file, { editorconfig: false, useCache: false });
    assert.deepEqual(styleOptionsFor(style, file), expected, rel);
  }
  const why = (rel: string) => nativeExcluded("prettier", "fmt", style, join(dir, rel));
  assert.match(why("vendor/x.yaml") ?? "", /ignored by prettier: listed in "\.\.\/\.prettierignore"/);
  assert.ok(why("top.yaml"));
  assert.equal(why("sub/top.yaml"), undefined);
  assert.equal(nativeExcluded("prettier", "lint", style, join(dir, "vendor/x.yaml")), undefined);
});

Deno.test("prettier's ignores take the .gitignore beside its file too, without regard to case, as its command line", async () => {
  // `prettier --check .` (3.x) passes over `Icons.html` for `icon*`, which git does not ignore; oxfmt reads no .gitignore.
  const dir = await tree({ ".prettierrc.json": "{}", ".gitignore": "icon*\n", "Icons.html": "<p>x</p>\n" });
  const style = (await (await openConfig({ cwd: dir })).forDir(dir)).native![FORMAT_STYLE];
  assert.deepEqual(style.files.map((f) => f.path), [join(dir, ".prettierrc.json"), join(dir, ".gitignore")]);
  assert.match(
    nativeExcluded("prettier", "fmt", style, join(dir, "Icons.html")) ?? "",
    /ignored by prettier: matched by "\.gitignore", which prettier reads and matches without regard to case/,
  );
  const oxfmt = await tree({ ".oxfmtrc.json": "{}", ".gitignore": "icon*\n" });
  const own = (await (await openConfig({ cwd: oxfmt })).forDir(oxfmt)).native![FORMAT_STYLE];
  assert.equal(nativeExcluded("oxfmt", "fmt", own, join(oxfmt, "Icons.html")), undefined);
});

Deno.test("a JavaScript prettier config is read as literal values without running it, as prettier resolves it", async () => {
  const prettier = await import("prettier");
  const configs = {
    ".prettierrc.cjs": "// @ts-check\n'use strict'\nmodule.exports = {\n  semi: false,\n  trailingComma: 'es5',\n" +
      "  overrides: [{ files: '*.md', options: { proseWrap: 'always', tabWidth: 4 } }],\n}\n",
    "prettier.config.mjs":
      "/** @type {import('prettier').Config} */\nconst config = { printWidth: 100, singleQuote: true }\n" +
      "export default config\n",
  };
  for (const [name, text] of Object.entries(configs)) {
    const dir = await tree({ [name]: text });
    const style = (await (await openConfig({ cwd: dir })).forDir(dir)).native![FORMAT_STYLE];
    assert.deepEqual(style.files.map((f) => f.path), [join(dir, name)]);
    for (const file of [join(dir, "a.ts"), join(dir, "docs/b.md")]) {
      const expected = await prettier.resolveConfig(file, { editorconfig: false, useCache: false });
      assert.deepEqual(styleOptionsFor(style, file), expected, `${name} for ${file}`);
    }
  }
  // `defineConfig` from oxfmt returns what it is given.
  const ox = await tree({
    "oxfmt.config.ts": 'import { defineConfig } from "oxfmt"\nexport default defineConfig({ semi: false })\n',
  });
  assert.deepEqual((await (await openConfig({ cwd: ox })).forDir(ox)).native?.biome?.options.javascript, {
    formatter: { semicolons: "asNeeded" },
  });
});

Deno.test("a shared prettier config package is read from node_modules without running it, as prettier resolves it", async () => {
  const prettier = await import("prettier");
  const dir = await tree({
    "package.json": '{ "name": "app", "prettier": "@acme/prettier-config" }',
    "node_modules/@acme/prettier-config/package.json": '{ "name": "@acme/prettier-config", "main": "lib/config.js" }',
    "node_modules/@acme/prettier-config/lib/config.js":
      "module.exports = { semi: false, overrides: [{ files: '*.md', options: { proseWrap: 'always' } }] }\n",
    "json/.prettierrc": '"json-config"',
    "node_modules/json-config/package.json": '{ "name": "json-config", "exports": { ".": "./prettier.json" } }',
    "node_modules/json-config/prettier.json": '{ "tabWidth": 4 }',
  });
  const configs = await openConfig({ cwd: dir });
  for (const [sub, shared] of [["", "@acme/prettier-config/lib/config.js"], ["json", "json-config/prettier.json"]]) {
    const style = (await configs.forDir(join(dir, sub))).native![FORMAT_STYLE];
    assert.ok(style.files.some((f) => f.path === join(dir, "node_modules", shared)), JSON.stringify(style.files));
    for (const file of [join(dir, sub, "a.ts"), join(dir, sub, "b.md")]) {
      const expected = await prettier.resolveConfig(file, { editorconfig: false, useCache: false });
      assert.deepEqual(styleOptionsFor(style, file), expected, file);
    }
  }
});

Deno.test("a JavaScript prettier config poly cannot read stops no run: beside a biome file YAML keeps poly's defaults", async () => {
  const shared = 'module.exports = require("@company/prettier-config")\n';
  const dir = await tree({ "biome.json": "{}", "prettier.config.js": shared });
  const config = await (await openConfig({ cwd: dir })).forDir(dir);
  assert.ok(config.native?.biome);
  assert.equal(config.native?.[FORMAT_STYLE], undefined);
  // Where it governs the formatting, formatting under it is an error naming the line and what only running it would
  // tell (lib/engines: an errored record); the configuration itself opens, so linting goes on.
  const alone = await tree({ "prettier.config.js": shared });
  const native = (await (await openConfig({ cwd: alone })).forDir(alone)).native!;
  assert.match(
    native[FORMAT_STYLE].unmapped ?? "",
    /prettier\.config\.js:1:18: a call: poly reads a JavaScript configuration only as literal values, without running it: write it as \.prettierrc\.json/,
  );
});

Deno.test("editorconfigProps() applies sections farthest first, later ones winning, globs as the spec says", () => {
  const top = parseEditorconfig("root = true\n[*]\nindent_size = 8\n[*.{sh,bash}]\nindent_size = 4\n", "/r", "x");
  const sub = parseEditorconfig("[lib/**.sh]\nindent_size = 2\nmax_line_length = 90\n", "/r/a", "y");
  const native = { files: [], root: "/r/a", options: { sections: [...top.sections, ...sub.sections] } };
  assert.deepEqual(editorconfigDefaults(editorconfigProps(native, "/r/a/lib/x/run.sh")), {
    indent_width: 2,
    line_length: 90,
  });
  assert.deepEqual(editorconfigDefaults(editorconfigProps(native, "/r/b/run.bash")), { indent_width: 4 });
  assert.deepEqual(editorconfigDefaults(editorconfigProps(native, "/r/Makefile")), { indent_width: 8 });
  assert.equal(top.root, true);
});

Deno.test("shfmtEditorconfig() reads .editorconfig as shfmt does: its indentation rule, flags, dialect, [[lang]] sections", () => {
  const sections = (text: string, dir = "/r") => parseEditorconfig(text, dir, `${dir.slice(3) || "."}/.editorconfig`);
  const at = (text: string, path: string, languages = ["shell"]) =>
    shfmtEditorconfig({ files: [], root: "/r", options: { sections: sections(text).sections } }, path, languages);
  // indent_style = space takes indent_size (8 when it is not a number); without it, tabs, whatever indent_size says.
  assert.deepEqual(at("[*]\nindent_style = space\nindent_size = 3\n", "/r/a.sh").tool, { indent: 3 });
  assert.deepEqual(at("[*]\nindent_style = space\n", "/r/a.sh").tool, { indent: 8 });
  assert.deepEqual(at("[*]\nindent_style = space\nindent_size = tab\ntab_width = 3\n", "/r/a.sh").tool, { indent: 8 });
  assert.deepEqual(at("[*]\nindent_size = 2\n", "/r/a.sh").tool, { indent: 0 });
  // Not shfmt's properties: nothing.
  assert.deepEqual(at("[*]\nend_of_line = crlf\ninsert_final_newline = false\nmax_line_length = 40\n", "/r/a.sh"), {
    tool: {},
  });
  assert.deepEqual(
    at(
      "[*.sh]\nbinary_next_line = true\nswitch_case_indent = true\nspace_redirects = false\n" +
        "function_next_line = true\nminify = true\nshell_variant = mksh\n",
      "/r/x/a.sh",
    ).tool,
    {
      binary_next_line: true,
      switch_case_indent: true,
      func_next_line: true,
      minify: true,
      simplify: true,
      shell_variant: "mksh",
    },
  );
  assert.deepEqual(at("[*]\nkeep_padding = true\n", "/r/a.sh").keepPadding, "./.editorconfig");
  // [[shell]] for every dialect, [[bash]] for bash and bats only; later sections win, in file order.
  const langs = "[*]\nindent_style = space\nindent_size = 1\n[[shell]]\nindent_size = 2\n[[bash]]\nindent_size = 4\n";
  assert.deepEqual(at(langs, "/r/a.sh").tool, { indent: 2 });
  assert.deepEqual(at(langs, "/r/a.sh", ["shell", "bash"]).tool, { indent: 4 });
  assert.deepEqual(at("[[bash]]\nindent_style = space\n[*.sh]\nindent_size = 2\n", "/r/a.sh", ["shell", "bash"]).tool, {
    indent: 2,
  });
});

Deno.test("styluaOptions() maps a stylua.toml onto the StyLua build's options and refuses what StyLua refuses", () => {
  assert.deepEqual(
    styluaOptions({
      column_width: 100,
      indent_type: "Spaces",
      indent_width: 2,
      line_endings: "Windows",
      quote_style: "AutoPreferSingle",
      no_call_parentheses: true,
      collapse_simple_statement: "Always",
      sort_requires: { enabled: true },
      syntax: "Lua54",
    }),
    {
      line_width: 100,
      indent_style: "space",
      indent_width: 2,
      line_ending: "crlf",
      quote_style: "AutoPreferSingle",
      call_parentheses: "None",
      collapse_simple_statement: "Always",
      sort_requires: true,
    },
  );
  assert.throws(() => styluaOptions({ indent_kind: "Spaces" }), /"indent_kind" is not one of StyLua's/);
  assert.throws(() => styluaOptions({ quote_style: "Single" }), /must be one of AutoPreferDouble/);
  assert.throws(() => styluaOptions({ syntax: "Luau" }), /Lua 5\.1 to 5\.4 and LuaJIT only/);
  // LuaJIT is Lua 5.1 with goto and labels, which the build parses; the key stays for the engine's message.
  assert.deepEqual(styluaOptions({ syntax: "LuaJIT" }), { syntax: "LuaJIT" });
});

Deno.test("styluaEditorconfig() reads .editorconfig as StyLua does", () => {
  const props = (o: Record<string, string>) =>
    Object.fromEntries(Object.entries(o).map(([k, value]) => [k, { value, file: ".editorconfig" }]));
  assert.deepEqual(
    styluaEditorconfig(props({
      indent_style: "space",
      indent_size: "2",
      max_line_length: "off",
      end_of_line: "crlf",
      insert_final_newline: "false",
      quote_type: "single",
      call_parentheses: "nosinglestring",
      sort_requires: "true",
      stylua_block_newline_gaps: "preserve",
    })).tool,
    {
      indent_style: "space",
      indent_width: 2,
      line_width: 65535,
      line_ending: "crlf",
      quote_style: "AutoPreferSingle",
      call_parentheses: "NoSingleString",
      sort_requires: true,
      block_newline_gaps: "Preserve",
    },
  );
  // indent_style = tab: the width is tab_width's; an unknown value changes nothing.
  assert.deepEqual(styluaEditorconfig(props({ indent_style: "tab", tab_width: "3", quote_type: "auto" })).tool, {
    indent_style: "tab",
    indent_width: 3,
  });
  assert.match(styluaEditorconfig(props({ stylua_syntax: "luau" })).unhonoured ?? "", /cannot be honoured/);
});

Deno.test("shfmtIgnoredBy() finds ignore = true on the file or a folder above it, below the chain's top", () => {
  const top = parseEditorconfig("root = true\n[*]\nindent_size = 2\n", "/r", ".editorconfig");
  const sub = parseEditorconfig(
    "[vendor/**]\nignore = true\n[lone.sh]\nignore = true\n[skip]\nignore = true\n",
    "/r/a",
    "a/.editorconfig",
  );
  const native = { files: [], root: "/r/a", options: { sections: [...top.sections, ...sub.sections] } };
  assert.equal(shfmtIgnoredBy(native, "/r/a/vendor/x/v.sh"), "a/.editorconfig");
  assert.equal(shfmtIgnoredBy(native, "/r/a/lone.sh"), "a/.editorconfig");
  assert.equal(shfmtIgnoredBy(native, "/r/a/b/lone.sh"), "a/.editorconfig");
  assert.equal(shfmtIgnoredBy(native, "/r/a/skip/deep/s.sh"), "a/.editorconfig");
  assert.equal(shfmtIgnoredBy(native, "/r/a/keep/k.sh"), undefined);
  // A folder's own .editorconfig says nothing of the folder itself.
  const own = parseEditorconfig("[*]\nignore = true\n", "/r/a", "a/.editorconfig");
  const self = { files: [], root: "/r/a", options: { sections: [...top.sections, ...own.sections] } };
  assert.equal(shfmtIgnoredBy(self, "/r/a/k.sh"), "a/.editorconfig");
  assert.equal(shfmtIgnoredBy(self, "/r/k.sh"), undefined);
});

Deno.test("forDir() finds the host tools' nearest files as the tools do, and the edition cargo fmt passes", async () => {
  const dir = await tree({
    ".shellcheckrc": "disable=SC2086\n",
    "sub/shellcheckrc": "disable=SC2034\n",
    "_clang-format": "BasedOnStyle: Google\n",
    "c/.clang-format": "BasedOnStyle: LLVM\n",
    "c/_clang-format": "BasedOnStyle: WebKit\n",
    "rustfmt.toml": "max_width = 80\n",
    "crate/.rustfmt.toml": "tab_spaces = 2\n",
    "crate/rustfmt.toml": "tab_spaces = 8\n",
    "crate/Cargo.toml": '[package]\nname = "a"\nversion = "0.1.0"\n',
    "ws/Cargo.toml": '[workspace]\nmembers = ["m"]\n[workspace.package]\nedition = "2021"\n',
    "ws/m/Cargo.toml": '[package]\nname = "m"\nedition.workspace = true\n',
    "tpl/Cargo.toml": '[package]\nname = "{{project-name}}\n', // a template: does not parse, passed over
  });
  const configs = await openConfig({ cwd: dir });
  const sub = (await configs.forDir(join(dir, "sub"))).native!;
  assert.deepEqual(sub.shellcheck.files.map((f) => f.path), [join(dir, "sub/shellcheckrc")]);
  assert.deepEqual(sub["clang-format"].options.styles, [{ BasedOnStyle: "Google" }]);
  assert.equal(sub.rustfmt.options.max_width, 80);
  const c = (await configs.forDir(join(dir, "c"))).native!;
  assert.deepEqual(c["clang-format"].options.styles, [{ BasedOnStyle: "LLVM" }]);
  // .rustfmt.toml before rustfmt.toml; a package without an edition is 2015 to cargo.
  const krate = (await configs.forDir(join(dir, "crate"))).native!;
  assert.deepEqual(krate.rustfmt.options, { tab_spaces: 2, edition: "2015" });
  assert.deepEqual(krate.rustfmt.files.map((f) => f.path), [
    join(dir, "crate/Cargo.toml"),
    join(dir, "crate/.rustfmt.toml"),
  ]);
  const member = (await configs.forDir(join(dir, "ws/m"))).native!;
  assert.equal(member.rustfmt.options.edition, "2021");
  assert.equal(member.rustfmt.options.max_width, 80);
  assert.deepEqual({ ...(await configs.forDir(join(dir, "tpl"))).native!.rustfmt.options }, { max_width: 80 });
});

Deno.test("forDir() resolves markdownlint extends; a package it cannot load is unhonoured, naming the file", async () => {
  const dir = await tree({
    ".markdownlint.yaml": "extends: markdownlint/style/prettier\nMD041: false\n",
    "a/.markdownlint-cli2.yaml": "globs: ['*.md']\n", // no config: the .markdownlint.* above governs
    "b/.markdownlint.jsonc": '// comment\n{ "extends": "some-package", }\n',
  });
  const configs = await openConfig({ cwd: dir });
  const a = (await configs.forDir(join(dir, "a"))).native!.markdownlint;
  assert.equal(a.options.MD041, false);
  assert.equal(a.options["line-length"], false); // from markdownlint's style/prettier
  assert.deepEqual(a.files.map((f) => f.path), [join(dir, ".markdownlint.yaml")]);
  assert.match(
    await unhonouredOf(dir, "markdownlint", "b"),
    /b\/\.markdownlint\.jsonc: markdownlint key "extends" names the package "some-package"/,
  );
});

Deno.test("importNative() leaves the files the host tools read as written alone, naming them", async () => {
  const dir = await tree({ "ruff.toml": "line-length = 99\n", ".shellcheckrc": "disable=SC2086\n" });
  const config = await (await openConfig({ cwd: dir })).forDir(dir);
  const out = importNative(config, dir, (p) => relative(dir, p));
  assert.match(out.toml, /# Still read as they are \(not imported\): \.shellcheckrc/);
  assert.match(out.toml, /\[tools\.ruff\]\nnative_config = false/);
  assert.doesNotMatch(out.toml, /shellcheck\]/);
});

Deno.test("importNative() imports nothing from prettier's options: prettier formats under the file, which stays read", async () => {
  const dir = await tree({
    ".prettierrc": '{ "semi": false }',
    "package.json": '{ "name": "x", "dependencies": { "react": "19" } }',
    "ruff.toml": "line-length = 99\n",
  });
  const config = await (await openConfig({ cwd: dir })).forDir(dir);
  const out = importNative(config, dir, (p) => relative(dir, p));
  assert.match(out.toml, /# Still read as they are \(not imported\): \.prettierrc\n/);
  assert.deepEqual(out.files, [join(dir, "ruff.toml")]); // package.json is no configuration
  assert.doesNotMatch(out.toml, /format-style|node-manifest|react|name = |biome|semicolons/);
  // Alone, it leaves nothing to import, and says what stays read.
  await Deno.remove(join(dir, "ruff.toml"));
  const alone = importNative(await (await openConfig({ cwd: dir })).forDir(dir), dir, (p) => relative(dir, p));
  assert.deepEqual([alone.toml, alone.files, alone.kept], ["", [], [join(dir, ".prettierrc")]]);
});

Deno.test("forDir() combines markdownlint files as markdownlint-cli2 does: own .markdownlint.* first, cli2 configs merged", async () => {
  const dir = await tree({
    ".markdownlint.json": '{ "MD001": false }\n',
    ".markdownlint-cli2.jsonc": '{ "config": { "MD002": false, "MD003": false } }\n',
    "sub/.markdownlint-cli2.yaml": "config:\n  MD003: true\n  MD004: false\n",
    "sub/deeper/x.txt": "",
    "other/x.txt": "",
  });
  const configs = await openConfig({ cwd: dir });
  // The directory's own .markdownlint.json wins over the cli2 config beside it.
  assert.deepEqual((await configs.forDir(dir)).native!.markdownlint.options, { MD001: false });
  // A directory without a file of its own is linted under the nearest one that has one: the same.
  assert.deepEqual((await configs.forDir(join(dir, "other"))).native!.markdownlint.options, { MD001: false });
  // Below a cli2 config, the .markdownlint.json above is not taken: the cli2 configs merge, the nearest winning.
  const deeper = (await configs.forDir(join(dir, "sub/deeper"))).native!.markdownlint;
  assert.deepEqual(deeper.options, { MD002: false, MD003: true, MD004: false });
  assert.deepEqual(deeper.files.map((f) => f.path), [
    join(dir, ".markdownlint-cli2.jsonc"),
    join(dir, "sub/.markdownlint-cli2.yaml"),
  ]);
});

Deno.test("forDir() reads a .prettierrc.json5 as JSON5, as prettier does", async () => {
  const dir = await tree({ ".prettierrc.json5": "// style\n{ semi: false, singleQuote: true, }\n" });
  const biome = (await (await openConfig({ cwd: dir })).forDir(dir)).native?.biome;
  assert.equal(biome?.unmapped, undefined, biome?.unmapped);
  assert.deepEqual(biome?.style, { tool: "prettier", explicit: ["semi", "singleQuote"] });
});

/**
 * ruff 0.16.9's default include names `*.pyw` only under `preview = true` at the top of its configuration (`ruff check
 * .` leaves `tool.pyw` alone otherwise, and lints it under preview or when named; `lint.preview` does not count), and an
 * `include` or `extend-include` of the configuration decides instead.
 */
Deno.test("nativeExcluded(): a .pyw file is ruff's only under top-level preview or an include naming it", async () => {
  const why = async (toml: string) => {
    const dir = await tree({ "ruff.toml": toml, "tool.pyw": "x = 1\n" });
    const ruff = (await (await openConfig({ cwd: dir })).forDir(dir)).native!.ruff!;
    return nativeExcluded("ruff", "lint", ruff, join(dir, "tool.pyw"));
  };
  assert.match(await why('[lint]\nselect = ["F"]\n') ?? "", /not in ruff's default include \(a \.pyw file is/);
  assert.match(await why("[lint]\npreview = true\n") ?? "", /not in ruff's default include/);
  assert.equal(await why("preview = true\n"), undefined);
  assert.equal(await why('extend-include = ["*.pyw"]\n'), undefined);
});
