/**
 * Mago's configuration as `mago fmt` finds it (lib/config/native/mago.ts): the nearest `mago.*` / `mago.dist.*` in
 * Mago's order, its `extends` merged as Mago merges layers, the files `mago fmt` leaves alone by its loader's rules,
 * and the PHP style tools that keep a repository's PHP from Mago. The end-to-end parity is
 * tests/e2e/host_native_config_test.ts (fixtures mago-config-ignored and php-style-kept).
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openConfig } from "../../../lib/config/load.ts";
import { MAGO_FORMATTER_KEYS, type MagoOptions, mergeMago } from "../../../lib/config/native/mago.ts";
import { type NativeEngineConfig, nativeExcluded } from "../../../lib/config/native/mod.ts";
import { tempRepository } from "../../_helpers/temp.ts";

function tree(files: Record<string, string>): Promise<string> {
  return tempRepository(files, "poly-native-mago-");
}

async function magoAt(dir: string, sub = ""): Promise<NativeEngineConfig | undefined> {
  return (await (await openConfig({ cwd: dir })).forDir(join(dir, sub))).native?.mago;
}

const why = (native: NativeEngineConfig, dir: string, path: string) =>
  nativeExcluded("mago", "fmt", native, join(dir, path));

Deno.test("the formatter keys poly honours are the settings of its Mago build's own declaration", async () => {
  const pkg = dirname(fileURLToPath(import.meta.resolve("@wasm-fmt/mago_fmt")));
  const text = await Deno.readTextFile(join(pkg, "mago_fmt_settings.d.ts"));
  const declared = new Set([...text.matchAll(/^\t"?([a-z-]+)"?\?:/gm)].map((m) => m[1]));
  assert.deepEqual([...MAGO_FORMATTER_KEYS].sort(), [...declared].sort());
});

Deno.test("the nearest folder's Mago file governs, in Mago's order: toml, yaml, yml, json, then mago.dist.*", async () => {
  const dir = await tree({
    "mago.dist.toml": "[formatter]\nprint-width = 100\n",
    "mago.json": '{ "php-version": "8.1", "formatter": { "print-width": 90 } }',
    "pkg/mago.yaml": "php-version: '8.3'\nformatter:\n  use-tabs: true\n",
    "pkg/mago.dist.toml": "[formatter]\nprint-width = 70\n",
    "pkg/src/a.php": "<?php\n",
  });
  const top = (await magoAt(dir))!;
  assert.deepEqual(top.options.settings, { "print-width": 90 });
  assert.equal((top.options as unknown as MagoOptions).phpVersion, "8.1");
  const pkg = (await magoAt(dir, "pkg/src"))!;
  assert.deepEqual(pkg.options.settings, { "use-tabs": true }, "a nearer folder's file alone: not merged");
  assert.equal(pkg.root, join(dir, "pkg"));
  assert.deepEqual(pkg.files.map((f) => f.path), [join(dir, "pkg/mago.yaml")]);
});

Deno.test("extends: layers merged as Mago merges them, relative to the file naming them", async () => {
  const dir = await tree({
    "mago.toml":
      'extends = ["config/base.toml", "shared"]\n[formatter]\nprint-width = 80\n[source]\nexcludes = ["build"]\n',
    "config/base.toml": '[formatter]\nprint-width = 100\nuse-tabs = true\n[source]\nexcludes = ["cache/**"]\n',
    "shared/mago.json": '{ "source": { "excludes": ["var"] }, "formatter": { "single-quote": false } }',
  });
  const native = (await magoAt(dir))!;
  const o = native.options as unknown as MagoOptions;
  assert.deepEqual(o.settings, { "print-width": 80, "use-tabs": true, "single-quote": false });
  assert.deepEqual(o.excludes.map((e) => e.pattern), ["cache/**", "var", "build"], "arrays concatenated, parent first");
  assert.deepEqual(native.files.map((f) => f.path), [
    join(dir, "config/base.toml"),
    join(dir, "shared/mago.json"),
    join(dir, "mago.toml"),
  ]);
  assert.deepEqual(mergeMago({ a: { b: 1, c: [1] } }, { a: { c: [2], d: 3 } }), { a: { b: 1, c: [1, 2], d: 3 } });
});

Deno.test("what poly cannot honour in a Mago file is said, naming the file and key", async () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ "mago.toml": 'extends = "a.toml"\n', "a.toml": 'extends = "mago.toml"\n' }, /forms a cycle/],
    [{ "mago.toml": 'extends = "../outside.toml"\n' }, /outside the repository/],
    // Mago's loader keeps every file it has read: one reached twice (A extends B and C, both D) is refused too.
    [{
      "mago.toml": 'extends = ["b.toml", "c.toml"]\n',
      "b.toml": 'extends = "d.toml"\n',
      "c.toml": 'extends = "d.toml"\n',
      "d.toml": "",
    }, /forms a cycle/],
    [{ "mago.toml": 'extends = "base.ini"\n', "base.ini": "" }, /not a \.toml, \.yaml, \.yml or \.json file/],
    [{ "mago.toml": 'extends = "missing.toml"\n' }, /cannot be read/],
    [{ "mago.toml": "[formatter]\nbrace-style = 1\n" }, /"formatter\.brace-style" cannot be honoured/],
    [{ "mago.toml": "[formatter\n" }, /cannot parse TOML/],
    [{ "mago.json": "[1]" }, /must be a table/],
    [{ "mago.toml": '[source]\nexcludes = "vendor"\n' }, /"source\.excludes" must be a list of strings/],
  ];
  for (const [files, message] of cases) {
    const native = await magoAt(await tree(files));
    assert.match(native?.unhonoured ?? "", message, JSON.stringify(files));
  }
});

Deno.test("the files mago fmt leaves alone: excludes, includes, paths and extensions as its loader matches them", async () => {
  const dir = await tree({
    "mago.toml": [
      "[source]",
      'paths = ["src", "bin/console", "legacy/*.php", "src/tool"]',
      'includes = ["src/vendor"]',
      'excludes = ["./src/gen/**", "src/skip.php", "**/*.stub.php", "src/tests/", "src/fixtures/*"]',
      'extensions = ["php", "inc"]',
      "[formatter]",
      'excludes = ["src/**/Auto/*.php"]',
    ].join("\n"),
  });
  const native = (await magoAt(dir))!;
  const at = (path: string) => why(native, dir, path);
  assert.equal(at("src/a.php"), undefined);
  assert.equal(at("src/lib.inc"), undefined);
  assert.equal(at("src/notes.txt.php"), undefined);
  assert.match(
    at("src/readme.phtml") ?? "",
    /not one of mago's source extensions \(source\.extensions in "\.\.\/mago\.toml"\)/,
  );
  assert.equal(at("bin/console"), undefined, "a file paths names itself is formatted whatever its extension");
  assert.equal(at("src/tool"), undefined, "named by a later entry than the folder that holds it");
  assert.equal(at("legacy/old.php"), undefined);
  assert.match(at("legacy/deep/old.php") ?? "", /not in mago's source paths/, "a paths glob's * stays in its folder");
  assert.match(at("top.php") ?? "", /not in mago's source paths \(source\.paths in "mago\.toml"\)/);
  assert.match(at("src/vendor/x/y.php") ?? "", /excluded from mago by "src\/vendor" \(source\.includes in/);
  assert.equal(at("src/vendored.php"), undefined, "a path entry is a folder or the file, not a prefix of a name");
  assert.match(at("src/gen/a/b.php") ?? "", /"\.\/src\/gen\/\*\*" \(source\.excludes/);
  assert.match(at("src/skip.php") ?? "", /"src\/skip\.php"/);
  assert.match(at("src/x/api.stub.php") ?? "", /"\*\*\/\*\.stub\.php"/);
  assert.match(at("src/tests/a.php") ?? "", /"src\/tests\/"/);
  assert.match(at("src/fixtures/deep/a.php") ?? "", /"src\/fixtures\/\*"/, "* crosses folders by default");
  assert.match(at("src/m/Auto/x.php") ?? "", /\(formatter\.excludes in/);
});

Deno.test("[source.glob] literal-separator keeps * within a folder; a glob ending in /* still prunes the folders below", async () => {
  const dir = await tree({
    "mago.toml": '[source]\nexcludes = ["src/*.gen.php", "fixtures/*"]\n[source.glob]\nliteral-separator = true\n',
  });
  const native = (await magoAt(dir))!;
  assert.match(why(native, dir, "src/a.gen.php") ?? "", /src\/\*\.gen\.php/);
  assert.equal(why(native, dir, "src/deep/a.gen.php"), undefined);
  assert.match(why(native, dir, "fixtures/deep/a.php") ?? "", /fixtures\/\*/, "the folder fixtures/deep is pruned");
});

Deno.test("a PHP style tool's file keeps PHP from Mago, a mago.toml beside it or not; composer's require alone too", async () => {
  const both = await tree({ "mago.toml": "[formatter]\nprint-width = 100\n", "pint.json": '{"preset": "laravel"}' });
  const kept = (await magoAt(both))!;
  assert.equal(kept.keptBy, "Laravel Pint (pint.json)");
  assert.equal(kept.ignoreOnly, undefined, "the mago.toml's settings still govern where poly.toml names Mago");
  assert.deepEqual(kept.options.settings, { "print-width": 100 });
  assert.deepEqual(kept.files.map((f) => f.path), [join(both, "mago.toml"), join(both, "pint.json")]);
  const fixer = (await magoAt(await tree({ "sub/.php-cs-fixer.dist.php": "<?php\n" }), "sub"))!;
  assert.equal(fixer.keptBy, "PHP-CS-Fixer (.php-cs-fixer.dist.php)");
  assert.equal(fixer.ignoreOnly, true);
  assert.equal((await magoAt(await tree({ ".styleci.yml": "preset: laravel\n" })))?.keptBy, "StyleCI (.styleci.yml)");
  const composer = await tree({ "composer.json": '{"require-dev": {"squizlabs/php_codesniffer": "^3"}}' });
  assert.equal((await magoAt(composer))?.keptBy, "PHP_CodeSniffer (required in composer.json)");
  const plain = await tree({ "composer.json": '{"require": {"php": "^8.2"}}' });
  assert.equal(await magoAt(plain), undefined);
  const mago = await tree({ "mago.toml": "", "composer.json": '{"require-dev": {"laravel/pint": "^1"}}' });
  assert.equal((await magoAt(mago))?.keptBy, undefined, "a mago.toml outweighs a package composer requires");
});
