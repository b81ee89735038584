/**
 * The repository's own configuration governs (issue 21): the real `poly lint` /
 * `poly fmt` processes on small repositories under fixtures/native/ holding
 * ruff, biome and prettier configuration files.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyFixture, runPoly } from "../_helpers/cli.ts";
import { biomeCommand } from "../../lib/engines/biome/_bin.ts";
import { tempDir, tempRepository } from "../_helpers/temp.ts";
import { findExecutable } from "../../lib/fs/executable.ts";
import { bwrapTest } from "../_helpers/bwrap.ts";
import { eslintModules, installEslint, standardModules, XO_VERSIONS, xoModules } from "../_helpers/eslint.ts";

interface Record_ {
  path: string;
  diagnostics?: { code?: string; title?: string; engine: string; span?: { start_line: number; start_col: number } }[];
  changed?: boolean;
  fixed?: number;
  skipped?: string;
  error?: string;
}

async function run(dir: string, args: string[]) {
  const out = await runPoly([...args, "--format", "json"], { cwd: dir });
  let doc: { results: Record_[]; configs: { sources: string[] }[]; summary: Record<string, unknown> };
  try {
    doc = JSON.parse(out.stdout);
  } catch {
    throw new Error(`not JSON (exit ${out.code}): ${out.stdout}\n${out.stderr}`);
  }
  return { ...out, doc };
}

/** Each finding of `engine` as `path:line:col: code`, sorted: what the native command lines are compared by. */
function located(doc: { results: Record_[] }, engine: string): string[] {
  return doc.results.flatMap((r) =>
    (r.diagnostics ?? []).filter((d) => d.engine === engine).map((d) =>
      `${r.path}:${d.span?.start_line}:${d.span?.start_col}: ${d.code}`
    )
  ).sort();
}

/** A copy of fixture `name` in a repository of its own (a `.git` folder) with `modules` as its installed dependencies. */
async function installedFixture(name: string, modules: string): Promise<string> {
  const dir = await copyFixture(name);
  await Deno.mkdir(join(dir, ".git"));
  await installEslint(modules, dir);
  return dir;
}

function codes(doc: { results: Record_[] }, path: string, engine: string): string[] {
  const r = doc.results.find((x) => x.path === path);
  return (r?.diagnostics ?? []).filter((d) => d.engine === engine).map((d) => d.code ?? "").sort();
}

Deno.test("poly lint honours pyproject.toml [tool.ruff] line-length and ignores, and lists the file in configs", async () => {
  const dir = await copyFixture("native/ruff_pyproject");
  const { doc } = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
  assert.deepEqual(codes(doc, "tests/test_db.py", "ruff"), []);
  assert.ok(doc.configs.some((c) => c.sources.includes("pyproject.toml")), JSON.stringify(doc.configs));
});

Deno.test("poly lint --fix keeps the imports [tool.ruff] ignores F401 for", async () => {
  const dir = await copyFixture("native/ruff_pyproject");
  const before = await Deno.readTextFile(join(dir, "tests/test_db.py"));
  await run(dir, ["lint", "--no-workspace", "--no-cache", "--fix"]);
  assert.equal(await Deno.readTextFile(join(dir, "tests/test_db.py")), before);
});

Deno.test("[tools.ruff] native_config = false: pyproject.toml is not read, ruff's own defaults apply", async () => {
  const dir = await copyFixture("native/ruff_opt_out");
  const { doc } = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
  // ruff 0.17's default set (no hand-kept copy): unused imports and import sorting.
  assert.deepEqual(codes(doc, "test_db.py", "ruff"), ["F401", "F401", "I001"]);
  assert.ok(!doc.configs.some((c) => c.sources.includes("pyproject.toml")));
});

Deno.test("ruff.toml extend: the base's selection, extend-select added, ignores from both", async () => {
  const dir = await copyFixture("native/ruff_extend");
  const { doc } = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
  // base: select E,F,W, ignore E501; child: extend-select B, ignore W291.
  assert.deepEqual(codes(doc, "pkg/mod.py", "ruff"), ["B006"]);
  assert.ok(doc.configs.some((c) => c.sources.join() === "base.toml,pkg/ruff.toml"), JSON.stringify(doc.configs));
});

Deno.test("nested ruff configs: the nearest governs, .ruff.toml before pyproject.toml in one directory", async () => {
  const dir = await copyFixture("native/ruff_nested");
  const { doc } = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
  assert.deepEqual(codes(doc, "top.py", "ruff"), []); // select F: os is used
  assert.deepEqual(codes(doc, "sub/inner.py", "ruff"), ["E711"]); // sub/.ruff.toml: select E7
});

Deno.test("ruff per-file-ignores and extend-exclude apply by path", async () => {
  const dir = await copyFixture("native/ruff_pfi");
  const { doc } = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
  assert.deepEqual(codes(doc, "app.py", "ruff"), ["F401"]);
  assert.deepEqual(codes(doc, "tests/test_a.py", "ruff"), []);
  assert.deepEqual(codes(doc, "__init__.py", "ruff"), []);
  // ruff leaves generated_x.py out (its unused import is not reported); the structural rules still check it, so the
  // file is checked, not skipped (a file is checked when any engine checked it).
  assert.deepEqual(codes(doc, "generated_x.py", "ruff"), []);
  assert.equal(doc.results.find((r) => r.path === "generated_x.py")?.skipped, undefined);
  // --fix leaves the per-file-ignored import alone.
  await run(dir, ["lint", "--no-workspace", "--no-cache", "--fix"]);
  assert.equal(await Deno.readTextFile(join(dir, "tests/test_a.py")), "import os\n");
});

Deno.test("ruff per-file-ignores ALL silences ruff alone in those files (other engines still report)", async () => {
  const dir = await copyFixture("native/ruff_pfi");
  const toml = await Deno.readTextFile(join(dir, "ruff.toml"));
  await Deno.writeTextFile(join(dir, "ruff.toml"), toml.replace('"tests/*"', '"scripts/*" = ["ALL"]\n"tests/*"'));
  await Deno.mkdir(join(dir, "scripts"));
  await Deno.writeTextFile(join(dir, "scripts/x.py"), "import os\nif os == None:\n    pass\n");
  const { doc } = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
  assert.deepEqual(codes(doc, "scripts/x.py", "ruff"), []);
  assert.deepEqual(codes(doc, "scripts/x.py", "ast-grep"), ["py-compare-none"]);
});

Deno.test("ruff's extend-safe-fixes: poly lint --fix applies the fixes it promotes, a more specific unsafe one wins", async () => {
  // As ruff 0.16.9's own `ruff check --fix` on the same tree: E711 fixed, E712 kept (reported, its fix unsafe).
  const dir = await tempRepository({
    "pyproject.toml": '[tool.ruff.lint]\nselect = ["E711", "E712"]\nextend-unsafe-fixes = ["E712"]\n',
    "sub/ruff.toml": 'extend = "../pyproject.toml"\n[lint]\nextend-safe-fixes = ["E7"]\n',
    "sub/a.py": "x = 1\nif x == None:\n    pass\nif x == True:\n    pass\n",
  });
  const { doc } = await run(dir, ["lint", "--no-workspace", "--no-cache", "--fix"]);
  assert.equal(
    await Deno.readTextFile(join(dir, "sub/a.py")),
    "x = 1\nif x is None:\n    pass\nif x == True:\n    pass\n",
  );
  assert.deepEqual(codes(doc, "sub/a.py", "ruff"), ["E712"]);
});

Deno.test("ruff's per-file-target-version: the files it names are linted and formatted for that Python", async () => {
  // Checked against ruff 0.16.9's own command line on the same tree: `ruff check` reports UP006 in new.py only;
  // `ruff format --diff` splits legacy/w.py's `with` inside `open(...)` (no parenthesized context managers before
  // Python 3.9) and w.py's into a parenthesized block.
  const annotated = "from typing import List\n\n\ndef f() -> List[int]:\n    return []\n";
  const long =
    'with open("a_really_long_foo") as foo, open("a_really_long_bar") as bar, open("a_really_long_baz") as baz:\n    pass\n';
  const dir = await tempRepository({
    "pyproject.toml":
      '[tool.ruff]\ntarget-version = "py312"\n\n[tool.ruff.lint]\nselect = ["UP006"]\n\n[tool.ruff.per-file-target-version]\n"legacy/*.py" = "py38"\n',
    "legacy/old.py": annotated,
    "new.py": annotated,
    "legacy/w.py": long,
    "w.py": long,
  });
  const { doc } = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
  assert.deepEqual(codes(doc, "new.py", "ruff"), ["UP006"]);
  assert.deepEqual(codes(doc, "legacy/old.py", "ruff"), []);
  await runPoly(["fmt", "--no-cache", "--fix", "legacy/w.py", "w.py"], { cwd: dir });
  assert.equal(
    await Deno.readTextFile(join(dir, "legacy/w.py")),
    'with open("a_really_long_foo") as foo, open("a_really_long_bar") as bar, open(\n    "a_really_long_baz"\n) as baz:\n    pass\n',
  );
  assert.equal(
    await Deno.readTextFile(join(dir, "w.py")),
    'with (\n    open("a_really_long_foo") as foo,\n    open("a_really_long_bar") as bar,\n    open("a_really_long_baz") as baz,\n):\n    pass\n',
  );
});

Deno.test("the result cache is invalidated when a native config changes", async () => {
  const dir = await copyFixture("native/ruff_pfi");
  const first = await run(dir, ["lint", "--no-workspace"]);
  assert.deepEqual(codes(first.doc, "app.py", "ruff"), ["F401"]);
  await Deno.writeTextFile(
    join(dir, "ruff.toml"),
    (await Deno.readTextFile(join(dir, "ruff.toml"))).replace('"tests/*"', '"app.py" = ["F401"]\n"tests/*"'),
  );
  const second = await run(dir, ["lint", "--no-workspace"]);
  assert.deepEqual(codes(second.doc, "app.py", "ruff"), []);
});

Deno.test("biome.json formatter options and files.includes govern poly fmt", async () => {
  const dir = await copyFixture("native/biome_formatter");
  const { doc } = await run(dir, ["fmt", "--no-cache"]);
  const a = doc.results.find((r) => r.path === "a.js");
  assert.equal(a?.changed, undefined, JSON.stringify(doc.results)); // 4 spaces, single quotes, no semicolons
  assert.match(doc.results.find((r) => r.path === "generated/g.js")?.skipped ?? "", /not in files\.includes/);
  assert.ok(doc.configs.some((c) => c.sources.includes("biome.json")));
});

Deno.test('nested biome.json: root false is independent, extends "//" inherits the root', async () => {
  const dir = await copyFixture("native/biome_nested");
  const fmt = await run(dir, ["fmt", "--no-cache"]);
  const changed = fmt.doc.results.filter((r) => r.changed && r.path.endsWith(".js")).map((r) => r.path);
  assert.deepEqual(changed, ["pkg/a.js"]); // only the independent one indents with tabs
  // biome's own command line of the same version, in the same tree, says the same.
  const command = await biomeCommand();
  if (!command) throw new Error("the biome command line of the same version is part of poly");
  await Deno.mkdir(join(dir, ".git"));
  const native = await new Deno.Command(command.binary, {
    args: ["format", "--vcs-enabled=false", "."],
    cwd: dir,
    env: command.env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const said = new TextDecoder().decode(native.stdout) + new TextDecoder().decode(native.stderr);
  const nativeChanged = [...said.matchAll(/^(\S+\.js) format /gm)].map((m) => m[1]);
  assert.deepEqual(nativeChanged, changed, said);
  const lint = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
  assert.deepEqual(codes(lint.doc, "a.js", "biome"), ["suspicious/noDebugger"]);
  assert.deepEqual(codes(lint.doc, "pkg/a.js", "biome"), []);
  assert.deepEqual(codes(lint.doc, "pkg2/a.js", "biome"), []);
});

Deno.test("biome.json extends: the base's rules and formatter under the file's own keys", async () => {
  const dir = await copyFixture("native/biome_extends");
  const { doc } = await run(join(dir, "app"), ["lint", "--no-workspace", "--no-cache"]);
  assert.deepEqual(codes(doc, "a.js", "biome"), ["style/noDefaultExport"]);
});

Deno.test(".prettierrc with semi false and singleQuote makes a prettier-formatted file clean", async () => {
  const dir = await copyFixture("native/prettierrc");
  // prettier itself (the same package poly ships) calls the file formatted under that .prettierrc.
  const prettier = await import("prettier");
  const file = join(dir, "src/index.js");
  const options = await prettier.resolveConfig(file, { editorconfig: false });
  assert.deepEqual(options, { semi: false, singleQuote: true, trailingComma: "all", printWidth: 100 });
  assert.ok(await prettier.check(await Deno.readTextFile(file), { ...options, filepath: file }));
  const { code, doc, stderr } = await run(dir, ["fmt", "--no-cache"]);
  assert.equal(code, 0, stderr + JSON.stringify(doc.results));
  assert.ok(doc.configs.some((c) => c.sources.includes(".prettierrc")));
  // prettier itself formats what its file governs: src/types.ts is laid out as prettier lays it out, where biome's
  // formatter, given the same options, would not (an `extends` list, a comment in an object); biome's
  // native_config = false changes nothing.
  const types = join(dir, "src/types.ts");
  assert.ok(await prettier.check(await Deno.readTextFile(types), { ...options, filepath: types }));
  await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.biome]\nnative_config = false\n");
  assert.equal((await run(dir, ["fmt", "--no-cache"])).code, 0);
  await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.prettier]\nnative_config = false\n");
  const biome = await run(dir, ["fmt", "--no-cache"]);
  assert.deepEqual(biome.doc.results.filter((r) => r.changed).map((r) => r.path), ["src/types.ts"]);
  // Without either file read, biome's defaults call the files unformatted.
  await Deno.writeTextFile(
    join(dir, "poly.toml"),
    "[tools.biome]\nnative_config = false\n[tools.prettier]\nnative_config = false\n",
  );
  const off = await run(dir, ["fmt", "--no-cache"]);
  assert.equal(off.doc.results.find((r) => r.path === "src/index.js")?.changed, true);
});

Deno.test(".editorconfig beneath a .prettierrc governs poly fmt as it governs prettier", async () => {
  const dir = await copyFixture("native/prettierrc");
  await Deno.writeTextFile(join(dir, ".editorconfig"), "root = true\n\n[*]\nindent_style = tab\n");
  const prettier = await import("prettier");
  const file = join(dir, "src/index.js");
  const options = await prettier.resolveConfig(file, { editorconfig: true, useCache: false });
  assert.equal(options?.useTabs, true);
  const text = await Deno.readTextFile(file);
  assert.equal(await prettier.check(text, { ...options, filepath: file }), false); // indented with spaces
  const before = await run(dir, ["fmt", "--no-cache"]);
  assert.equal(before.doc.results.find((r) => r.path === "src/index.js")?.changed, true, before.stderr);
  for (const f of [file, join(dir, "src/types.ts")]) {
    await Deno.writeTextFile(f, await prettier.format(await Deno.readTextFile(f), { ...options, filepath: f }));
  }
  const after = await run(dir, ["fmt", "--no-cache"]);
  assert.equal(after.code, 0, after.stderr + JSON.stringify(after.doc.results));
});

Deno.test(".oxfmtrc.json governs poly fmt: its options, the .editorconfig beneath them, its ignorePatterns", async () => {
  const dir = await copyFixture("native/oxfmtrc");
  // oxfmt formats them; prettier, whose options oxfmt takes, calls them formatted too (oxfmt's width, 100; tabs from
  // .editorconfig).
  const prettier = await import("prettier");
  const style = { semi: false, singleQuote: true, printWidth: 100, useTabs: true };
  // Markdown's and HTML's formatters take the same options (a code block's, a script's, a style's).
  for (const f of ["src/index.ts", "src/style.css", "docs/guide.md", "src/page.html"]) {
    assert.ok(await prettier.check(await Deno.readTextFile(join(dir, f)), { ...style, filepath: join(dir, f) }), f);
  }
  const { code, doc, stderr } = await run(dir, ["fmt", "--no-cache"]);
  assert.equal(code, 0, stderr + JSON.stringify(doc.results));
  assert.ok(doc.configs.some((c) => c.sources.includes(".oxfmtrc.json")), JSON.stringify(doc.configs));
  assert.match(doc.results.find((r) => r.path === "generated/out.js")?.skipped ?? "", /ignored by oxfmt/);
  // Its ignores keep every formatter away (Markdown's too), its options reach YAML (an override for *.yml).
  assert.match(doc.results.find((r) => r.path === "docs/CHANGELOG.md")?.skipped ?? "", /ignored by oxfmt/);
  // oxfmt leaves Svelte files as they are without its "svelte" option: so does poly, saying so.
  assert.match(doc.results.find((r) => r.path === "src/App.svelte")?.skipped ?? "", /left as it is by oxfmt/);
  for (const [f, singleQuote] of [["config.yaml", true], ["ci.yml", false]] as const) {
    const text = await Deno.readTextFile(join(dir, f));
    assert.ok(await prettier.check(text, { parser: "yaml", singleQuote }), f);
    assert.ok(!await prettier.check(text, { parser: "yaml", singleQuote: !singleQuote }), f);
  }
  // The formatter's ignores are not the linter's: biome lints every file, with its own rules.
  const lint = await run(dir, ["lint", "--no-cache"]);
  assert.deepEqual(codes(lint.doc, "src/index.ts", "biome"), ["style/useTemplate"]);
  assert.equal(lint.doc.results.find((r) => r.path === "generated/out.js")?.skipped, undefined);
  const changedUnder = async (toml: string) => {
    await Deno.writeTextFile(join(dir, "poly.toml"), toml);
    const out = await run(dir, ["fmt", "--no-cache"]);
    return out.doc.results.filter((r) => r.changed).map((r) => r.path).sort();
  };
  // oxfmt formats what its file governs: biome's own switch changes nothing here.
  assert.deepEqual(await changedUnder("[tools.biome]\nnative_config = false\n"), []);
  // oxfmt's switch leaves YAML to poly's defaults (prettier, double quotes), JavaScript to biome, which maps the
  // options, and Svelte to web_fmt.
  assert.deepEqual(await changedUnder("[tools.oxfmt]\nnative_config = false\n"), ["config.yaml", "src/App.svelte"]);
  // Both off: biome's defaults, and no formatter reads oxfmt's ignores any more.
  const both = await changedUnder("[tools.oxfmt]\nnative_config = false\n[tools.biome]\nnative_config = false\n");
  assert.ok(["src/index.ts", "generated/out.js", "config.yaml"].every((f) => both.includes(f)), JSON.stringify(both));
  // oxfmt's own options are oxfmt's to apply (sortImports, here by an override): prettier, under oxfmt's options
  // where oxfmt is disabled, neither applies nor undoes them.
  const rc = (await Deno.readTextFile(join(dir, ".oxfmtrc.json"))).replace(
    /"overrides": \[(.*)\]/,
    '"overrides": [\n\t\t$1,\n\t\t{ "files": ["src/sorted/**"], "options": { "sortImports": true } }\n\t]',
  );
  await Deno.writeTextFile(join(dir, ".oxfmtrc.json"), rc);
  await Deno.mkdir(join(dir, "src/sorted"));
  await Deno.writeTextFile(
    join(dir, "src/sorted/deps.ts"),
    "import { b } from 'b'\nimport { a } from 'a'\n\nexport { a, b }\n",
  );
  assert.deepEqual(await changedUnder(""), ["src/sorted/deps.ts"]);
  assert.deepEqual(await changedUnder("[tools.oxfmt]\nenabled = false\n"), []);
});

Deno.test("an oxfmt file under another oxfmt release than poly's: what poly's would change is skipped, naming it", async () => {
  const dir = await copyFixture("native/oxfmtrc");
  await Deno.writeTextFile(join(dir, "src/messy.ts"), "export const a   =   1\n");
  const changed = async () => {
    const { doc } = await run(dir, ["fmt", "--check"]);
    return doc.results.filter((r) => r.changed && r.path.startsWith("src/")).map((r) => r.path);
  };
  const skipped = async () => (await run(dir, ["fmt", "--check"])).doc.results.find((r) => r.path === "src/messy.ts");
  assert.deepEqual(await changed(), ["src/messy.ts"]);
  // oxfmt before 1.0: `^0.63.0` admits 0.63.x alone, and poly's is 0.78.0.
  await Deno.writeTextFile(join(dir, "package.json"), JSON.stringify({ devDependencies: { oxfmt: "^0.63.0" } }));
  const reason = (spec: string, from: string) =>
    `not formatted: the repository keeps its TypeScript style with oxfmt ${spec} (${from}), whose output poly's oxfmt ` +
    "0.78.0 does not reproduce; [fmt.typescript.oxfmt] in poly.toml formats it with oxfmt";
  assert.equal((await skipped())?.skipped, reason("^0.63.0", "package.json"));
  // The lockfile says which release the range resolves to (vitejs/vite: 0.63.0, which keeps the 15 files 0.78.0
  // would change).
  const lock = (version: string) =>
    `lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    devDependencies:\n      oxfmt:\n        specifier: ^0.63.0\n` +
    `        version: ${version}\n`;
  await Deno.writeTextFile(join(dir, "pnpm-lock.yaml"), lock("0.63.0"));
  assert.equal((await skipped())?.skipped, reason("0.63.0", 'pnpm-lock.yaml, for "^0.63.0" in package.json'));
  // poly's own release, declared: formatted as before.
  await Deno.writeTextFile(join(dir, "package.json"), JSON.stringify({ devDependencies: { oxfmt: "0.78.0" } }));
  assert.deepEqual(await changed(), ["src/messy.ts"]);
});

Deno.test("poly config show says which native file each effective ruff key came from", async () => {
  const dir = await copyFixture("native/ruff_extend");
  await Deno.mkdir(join(dir, ".git")); // the repository: paths inside it are shown relative
  const out = await runPoly(["config", "show", "--format", "json"], { cwd: join(dir, "pkg") });
  assert.equal(out.code, 0, out.stderr);
  const doc = JSON.parse(out.stdout);
  assert.deepEqual(doc.native.ruff.files, ["../base.toml", "ruff.toml"]);
  assert.equal(doc.native.ruff.origins["line-length"], "../base.toml");
  assert.equal(doc.native.ruff.origins["lint.extend-select"], "ruff.toml");
  assert.deepEqual(doc.native.ruff.options.lint.ignore, ["E501", "W291"]);
});

Deno.test(".editorconfig governs the formatters without a configuration of their own", async () => {
  const dir = await copyFixture("native/editorconfig");
  const { code, doc, stderr } = await run(dir, ["fmt", "--no-cache"]);
  // shfmt: 4 spaces, 2 under scripts/ (a later section wins); dprint TOML: tabs.
  assert.equal(code, 0, stderr + JSON.stringify(doc.results));
  assert.ok(doc.configs.some((c) => c.sources.includes(".editorconfig")), JSON.stringify(doc.configs));
  await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.shfmt]\nnative_config = false\n");
  const off = await run(dir, ["fmt", "--no-cache"]);
  const changed = off.doc.results.filter((r) => r.changed).map((r) => r.path).sort();
  assert.deepEqual(changed, ["run.sh", "scripts/two.sh"]); // shfmt's own default: tabs
});

Deno.test(".editorconfig: a property poly cannot honour is a run-level error naming the file and key", async () => {
  const dir = await copyFixture("native/editorconfig");
  await Deno.writeTextFile(join(dir, ".editorconfig"), "root = true\n[*.toml]\nend_of_line = cr\n");
  const out = await runPoly(["fmt", "--no-cache"], { cwd: dir });
  assert.equal(out.code, 2);
  assert.match(out.stderr, /\.editorconfig: end_of_line = "cr" cannot be honoured/);
});

Deno.test(".editorconfig does not reach gofmt: Go's one format, whatever it says of line endings or final newlines", async () => {
  const main = 'package main\n\nfunc main() {\n\tprintln("x")\n}\n';
  const dir = await tempRepository({
    ".editorconfig": "root = true\n[*]\ninsert_final_newline = false\nend_of_line = crlf\nindent_style = space\n",
    "main.go": main,
  });
  const { code, doc, stderr } = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.equal(code, 0, stderr + JSON.stringify(doc.results));
  if (findExecutable("gofmt")) {
    const out = await new Deno.Command("gofmt", { args: ["-l", "."], cwd: dir, stdout: "piped" }).output();
    assert.equal(new TextDecoder().decode(out.stdout), "");
  }
});

Deno.test("stylua.toml, .styluaignore and .editorconfig govern StyLua as they govern StyLua's own command line", async () => {
  const dir = await copyFixture("native/stylua");
  await Deno.mkdir(join(dir, ".git"));
  // a.lua: 2 spaces and single quotes from .editorconfig; sub/b.lua: sub/stylua.toml's 3 spaces, no call parentheses
  // (the .editorconfig no longer applies there, as in StyLua); gen/ listed in .styluaignore.
  const { code, doc, stderr } = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.equal(code, 0, stderr + JSON.stringify(doc.results));
  assert.deepEqual(doc.results, [{ path: "gen/raw.lua", skipped: 'ignored by StyLua: listed in "../.styluaignore"' }]);
  await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.luafmt]\nnative_config = false\n");
  const off = await run(dir, ["fmt", "--check", "--no-cache"]);
  const changed = off.doc.results.filter((r) => r.changed).map((r) => r.path).sort();
  assert.deepEqual(changed, ["a.lua", "gen/raw.lua", "sub/b.lua"]); // StyLua's own defaults: tabs
  // A key StyLua refuses errors the files under it, naming file and key; the others go on.
  await Deno.remove(join(dir, "poly.toml"));
  await Deno.writeTextFile(join(dir, "sub/stylua.toml"), 'indent_kind = "Spaces"\n');
  const bad = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.equal(bad.code, 2);
  assert.match(
    bad.doc.results.find((r) => r.path === "sub/b.lua")?.error ?? "",
    /stylua\.toml: StyLua key "indent_kind"/,
  );
  assert.equal(bad.doc.results.find((r) => r.path === "a.lua"), undefined);
});

Deno.test({
  name:
    "[tool.black] governs: black itself formats the Python, its extend-exclude leaves a folder out, as black --check",
  ignore: !findExecutable("black"),
  async fn() {
    const dir = await copyFixture("native/black");
    await Deno.mkdir(join(dir, ".git"));
    // app.py is black's at line-length 40; ruff's formatting (poly's default, or ruff's own 88) joins its call.
    const { code, doc, stderr } = await run(dir, ["fmt", "--check", "--no-cache"]);
    assert.equal(code, 0, stderr + JSON.stringify(doc.results));
    assert.deepEqual(doc.results, [{
      path: "generated/table.py",
      skipped: 'excluded by black: "/generated/" matches extend-exclude of "../pyproject.toml"',
    }]);
    const native = await new Deno.Command("black", { args: ["--check", "."], cwd: dir, stderr: "piped" }).output();
    assert.equal(native.code, 0, new TextDecoder().decode(native.stderr));
    // A file black cannot parse: an errored record at black's line and column.
    await Deno.writeTextFile(join(dir, "pkg/broken.py"), "def f(:\n    pass\n");
    const broken = await run(dir, ["fmt", "--check", "--no-cache"]);
    const r = broken.doc.results.find((x) => x.path === "pkg/broken.py");
    assert.match(JSON.stringify(r), /"engine":"black","code":"syntax"/);
    assert.match(JSON.stringify(r), /"start_line":1,"start_col":7/);
  },
});

Deno.test("[tool.black] without black on PATH: the Python files are skipped saying so, never formatted by ruff", async () => {
  const dir = await copyFixture("native/black");
  await Deno.mkdir(join(dir, ".git"));
  const empty = await tempDir({ prefix: "poly-path-" });
  const out = await runPoly(["fmt", "--check", "--no-cache", "--format", "json"], { cwd: dir, env: { PATH: empty } });
  const doc = JSON.parse(out.stdout) as { results: Record_[] };
  assert.equal(out.code, 0, out.stderr);
  const skipped = Object.fromEntries(doc.results.map((r) => [r.path, r.skipped]));
  assert.equal(skipped["app.py"], "black not found on PATH");
  assert.equal(skipped["pkg/calc.py"], "black not found on PATH");
  // Where the repository configures ruff's formatter, ruff formats (at its line length 88, app.py's call joins;
  // black's exclusions are not ruff's).
  const toml = await Deno.readTextFile(join(dir, "pyproject.toml"));
  await Deno.writeTextFile(join(dir, "pyproject.toml"), toml + '\n[tool.ruff.format]\nquote-style = "double"\n');
  const ruff = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.deepEqual(ruff.doc.results.filter((r) => r.changed).map((r) => r.path), ["app.py", "generated/table.py"]);
});

/** `flake8 .`'s findings in `dir` as `path:line:col: code`. */
async function flake8Native(dir: string): Promise<string[]> {
  const out = await new Deno.Command("flake8", { args: ["."], cwd: dir, stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).trim().split("\n").filter(Boolean).map((l) => l.replace(/^\.\//, ""))
    .map((l) => l.replace(/^(.*?:\d+:\d+: \S+) .*$/, "$1")).sort();
}

Deno.test({
  name: "[flake8] in setup.cfg governs: flake8 itself lints the Python in ruff's place, as `flake8 .` does",
  ignore: !findExecutable("flake8"),
  async fn() {
    const dir = await copyFixture("native/flake8");
    await Deno.mkdir(join(dir, ".git"));
    // Its max-line-length, extend-ignore (with comments between the codes), per-file-ignores and extend-exclude.
    const { code, doc, stderr } = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
    assert.equal(code, 1, stderr);
    const found = doc.results.flatMap((r) =>
      (r.diagnostics ?? []).filter((d) => d.engine === "flake8").map((d) =>
        `${r.path}:${d.span?.start_line}:${d.span?.start_col}: ${d.code}`
      )
    ).sort();
    assert.deepEqual(found, ["pkg/app.py:17:5: F841"]);
    assert.deepEqual(found, await flake8Native(dir));
    assert.equal(doc.results.some((r) => r.diagnostics?.some((d) => d.engine === "ruff")), false);
    assert.ok(doc.configs.some((c) => c.sources.includes("setup.cfg")), JSON.stringify(doc.configs));
    // With the rule pack off, the file flake8's extend-exclude leaves out is a skip saying so.
    await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.ast-grep]\nenabled = false\n");
    const only = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
    assert.equal(
      only.doc.results.find((r) => r.path === "build/generated.py")?.skipped,
      'excluded by flake8: "build" matches extend-exclude of "../setup.cfg"',
    );
    await Deno.remove(join(dir, "poly.toml"));
    // A file flake8 cannot parse: an errored record with its E999.
    await Deno.writeTextFile(join(dir, "pkg/broken.py"), "def f(:\n    pass\n");
    const broken = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
    assert.match(
      JSON.stringify(broken.doc.results.find((r) => r.path === "pkg/broken.py")),
      /"engine":"flake8","code":"E999"/,
    );
    await Deno.remove(join(dir, "pkg/broken.py"));
    // Where the repository configures ruff's linting too, ruff lints (without flake8's per-file-ignores).
    await Deno.writeTextFile(join(dir, "pyproject.toml"), '[tool.ruff.lint]\nselect = ["F"]\n');
    const ruff = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
    assert.deepEqual(codes(ruff.doc, "tests/test_app.py", "ruff"), ["F401"]);
    assert.deepEqual(codes(ruff.doc, "pkg/app.py", "flake8"), []);
  },
});

Deno.test("[flake8] without flake8 on PATH: the Python files are skipped saying so, never linted by ruff", async () => {
  const dir = await copyFixture("native/flake8");
  await Deno.mkdir(join(dir, ".git"));
  const empty = await tempDir({ prefix: "poly-path-" });
  const out = await runPoly(["lint", "--no-workspace", "--no-cache", "--format", "json"], {
    cwd: dir,
    env: { PATH: empty },
  });
  const doc = JSON.parse(out.stdout) as { results: Record_[] };
  assert.equal(out.code, 0, out.stderr);
  const skipped = Object.fromEntries(doc.results.map((r) => [r.path, r.skipped]));
  assert.equal(skipped["pkg/app.py"], "flake8 not found on PATH");
  assert.equal(doc.results.some((r) => r.diagnostics?.some((d) => d.engine === "ruff")), false);
  // [tools.flake8] enabled = false hands the files back to ruff.
  await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.flake8]\nenabled = false\n");
  const ruff = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
  assert.ok(codes(ruff.doc, "pkg/app.py", "ruff").includes("F841"), JSON.stringify(ruff.doc.results));
});

Deno.test("[flake8] and no formatter configured: ruff does not format the Python flake8 keeps in style", async () => {
  const dir = await copyFixture("native/flake8");
  await Deno.mkdir(join(dir, ".git"));
  const reason = "not formatted: the repository keeps its Python style with flake8 (setup.cfg) and configures no " +
    "formatter for it; [fmt.python.ruff] in poly.toml formats it with ruff";
  const kept = await run(dir, ["fmt", "--check", "--no-cache"]);
  const skipped = Object.fromEntries(kept.doc.results.map((r) => [r.path, r.skipped]));
  assert.equal(skipped["pkg/app.py"], reason);
  assert.equal(skipped["tests/test_app.py"], reason);
  // A ruff configuration that sets its formatter's width, or poly.toml naming ruff: ruff formats.
  for (const [file, text] of [["ruff.toml", "line-length = 100\n"], ["poly.toml", "[fmt.python.ruff]\n"]]) {
    await Deno.writeTextFile(join(dir, file), text);
    const formats = await run(dir, ["fmt", "--check", "--no-cache"]);
    assert.equal(formats.doc.results.find((r) => r.path === "pkg/app.py")?.skipped, undefined, file);
    await Deno.remove(join(dir, file));
  }
});

const eslintInstall = await eslintModules();
const noEslint = "reason" in eslintInstall ? eslintInstall.reason : undefined;
if (noEslint) console.log(`SKIPPED the eslint engine's end-to-end test: ${noEslint}`);

/** What `node ARGS` run in `dir` writes on stdout (a repository's own command line: eslint, xo, standard). */
async function nodeOutput(dir: string, args: string[]): Promise<string> {
  const out = await new Deno.Command("node", { args, cwd: dir, stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout);
}

/** ESLint's JSON report (`--format json`, xo's `--reporter=json`) of files in `dir`, as `path:line:col: rule`. */
function eslintJsonFindings(dir: string, json: string): string[] {
  const doc = JSON.parse(json) as {
    filePath: string;
    messages: { ruleId: string; line: number; column: number }[];
  }[];
  return doc.flatMap((r) =>
    r.messages.map((m) => `${r.filePath.slice(dir.length + 1)}:${m.line}:${m.column}: ${m.ruleId}`)
  ).sort();
}

/** `eslint --format json .`'s findings in `dir` as `path:line:col: rule`, by the repository's own ESLint. */
async function eslintNative(dir: string): Promise<string[]> {
  return eslintJsonFindings(dir, await nodeOutput(dir, ["node_modules/eslint/bin/eslint.js", "--format", "json", "."]));
}

bwrapTest(
  "where ESLint governs, the repository's own ESLint lints in biome's place, inside bubblewrap, as `eslint .` does",
  { ignore: noEslint !== undefined || !findExecutable("node") },
  async () => {
    const dir = await copyFixture("native/eslint");
    await Deno.mkdir(join(dir, ".git"));
    // Not installed yet: the files are skipped saying so, never linted by biome's own rules.
    const bare = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
    assert.match(bare.doc.results.find((r) => r.path === "src/app.js")?.skipped ?? "", /^ESLint is not installed here/);
    assert.deepEqual(codes(bare.doc, "src/app.js", "biome"), []);
    await installEslint((eslintInstall as { modules: string }).modules, dir);
    const { doc, stderr } = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
    const found = located(doc, "eslint");
    assert.deepEqual(found, ["src/app.js:1:5: prefer-const", "src/app.js:3:7: no-unused-vars"], stderr);
    assert.deepEqual(found, await eslintNative(dir));
    assert.deepEqual(codes(doc, "src/app.js", "biome"), []);
    // What its configuration ignores, or matches no entry of (a TypeScript file without typescript-eslint), is skipped.
    assert.equal(
      doc.results.find((r) => r.path === "gen/table.js")?.skipped,
      "ignored by ESLint's configuration (eslint.config.js)",
    );
    assert.equal(
      doc.results.find((r) => r.path === "src/types.ts")?.skipped,
      "ignored by ESLint's configuration (eslint.config.js)",
    );
    assert.ok(doc.configs.some((c) => c.sources.includes("eslint.config.js")), JSON.stringify(doc.configs));
    // --fix applies ESLint's own fixes (prefer-const), not biome's, in one batch; the findings it reports in the fixed
    // text are ESLint's own lint of it (the batch's, not linted again), as a check after it and `eslint .` find them.
    const fix = await run(dir, ["lint", "--no-workspace", "--no-cache", "--fix"]);
    assert.match(await Deno.readTextFile(join(dir, "src/app.js")), /^const count = 1;/);
    // ESLint's prefer-const, and the rule pack's js-no-debugger (ESLint's no-debugger is off here).
    assert.equal(fix.doc.results.find((r) => r.path === "src/app.js")?.fixed, 2, fix.stderr);
    const after = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
    assert.deepEqual(located(fix.doc, "eslint"), ["src/app.js:2:7: no-unused-vars"]);
    assert.deepEqual(located(fix.doc, "eslint"), located(after.doc, "eslint"));
    assert.deepEqual(located(after.doc, "eslint"), await eslintNative(dir));
    // A rule of the repository's own, which the configuration imports: editing it makes the next run lint again
    // (the result cache on), where the configuration file alone is unchanged.
    const rule = (message: string) =>
      `export default { rules: { "mark-file": { create: (context) => ({ Program(node) { ` +
      `context.report({ node, message: ${JSON.stringify(message)} }); } }) } } };\n`;
    await Deno.mkdir(join(dir, "rules"));
    await Deno.writeTextFile(join(dir, "rules/index.js"), rule("first wording"));
    await Deno.writeTextFile(
      join(dir, "eslint.config.js"),
      `import local from "./rules/index.js";\n` +
        `export default [{ plugins: { local }, rules: { "local/mark-file": "error" } }, { ignores: ["gen/**"] }];\n`,
    );
    const messages = async () => {
      const { doc, stderr } = await run(dir, ["lint", "--no-workspace"]);
      const app = doc.results.find((r) => r.path === "src/app.js");
      return app?.diagnostics?.filter((d) => d.engine === "eslint").map((d) => d.title) ?? JSON.stringify(app) + stderr;
    };
    assert.deepEqual(await messages(), ["first wording"]);
    await Deno.writeTextFile(join(dir, "rules/index.js"), rule("second wording"));
    assert.deepEqual(await messages(), ["second wording"]);
    // The configuration runs confined: a configuration that reads the home finds it empty.
    const home = Deno.env.get("HOME") ?? "/root";
    await Deno.writeTextFile(
      join(dir, "eslint.config.js"),
      `import { readdirSync } from "node:fs";\nconst seen = readdirSync(${JSON.stringify(home)}).length;\n` +
        `export default [{ rules: { "no-unused-vars": seen === 0 ? "error" : "off" } }];\n`,
    );
    const confined = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
    assert.deepEqual(codes(confined.doc, "src/app.js", "eslint"), ["no-unused-vars"], "the home was not empty");
    // [tools.eslint] enabled = false hands the files to biome.
    await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.eslint]\nenabled = false\n");
    const off = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
    assert.ok(codes(off.doc, "src/app.js", "biome").length > 0, JSON.stringify(off.doc.results));
  },
);

for (const version of XO_VERSIONS) {
  const installed = await xoModules(version);
  const noXo = "reason" in installed ? installed.reason : undefined;
  if (noXo) console.log(`SKIPPED the eslint engine's end-to-end test of xo ${version}: ${noXo}`);
  bwrapTest(
    `where xo lints (package.json), the repository's xo ${version} lints in biome's place, as \`xo\` does`,
    { ignore: noXo !== undefined || !findExecutable("node") },
    async () => {
      const dir = await installedFixture("native/xo", (installed as { modules: string }).modules);
      const { doc, stderr } = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
      const found = located(doc, "eslint");
      // `xo --reporter=json`, the repository's own command line, on the same tree.
      const native = eslintJsonFindings(dir, await nodeOutput(dir, ["node_modules/.bin/xo", "--reporter=json"]));
      assert.ok(found.some((f) => f.startsWith("src/app.js:1:1: no-var")), stderr + JSON.stringify(doc.results));
      assert.deepEqual(found, native);
      assert.deepEqual(codes(doc, "src/app.js", "biome"), []);
      // xo 0.x reads package.json's `ignores` (xo 1 and later read only their flat file, and lint it).
      if (version.startsWith("0.")) {
        assert.equal(
          doc.results.find((r) => r.path === "gen/table.js")?.skipped,
          "ignored by xo's configuration (package.json)",
        );
      }
      // poly fmt leaves its JavaScript to xo's style rules; --fix applies xo's fixes.
      const fmt = await run(dir, ["fmt", "--check", "--no-cache"]);
      assert.match(
        fmt.doc.results.find((r) => r.path === "src/tidy.js")?.skipped ?? "",
        /^not formatted: the repository keeps its JavaScript style with xo \(package\.json\)/,
      );
      await runPoly(["lint", "--no-workspace", "--no-cache", "--fix"], { cwd: dir });
      assert.match(await Deno.readTextFile(join(dir, "src/app.js")), /^(const|let) count = 1;/);
    },
  );
}

const standardInstall = await standardModules();
const noStandard = "reason" in standardInstall ? standardInstall.reason : undefined;
if (noStandard) console.log(`SKIPPED the eslint engine's end-to-end test of standard: ${noStandard}`);

bwrapTest(
  "where standard lints (package.json), the repository's standard lints in biome's place, as `standard` does",
  { ignore: noStandard !== undefined || !findExecutable("node") },
  async () => {
    const dir = await installedFixture("native/standard", (standardInstall as { modules: string }).modules);
    const { doc, stderr } = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
    const found = located(doc, "eslint");
    // `standard --verbose`, its own command line: `  <path>:<line>:<col>: <message> (<rule>)[ (warning)]`.
    const verbose = await nodeOutput(dir, ["node_modules/.bin/standard", "--verbose"]);
    const native = verbose.split("\n").flatMap((line) => {
      const m = /^\s+(\S+?):(\d+):(\d+): .*? \(([\w/@-]+)\)(?: \(warning\))?$/.exec(line);
      return m ? [`${m[1].slice(dir.length + 1)}:${m[2]}:${m[3]}: ${m[4]}`] : [];
    }).sort();
    assert.deepEqual(
      found,
      ["src/app.js:1:14: semi", "src/app.js:1:1: no-var", "src/app.js:2:7: no-unused-vars"],
      stderr,
    );
    assert.deepEqual(found, native);
    // Its `ignore`, and a file of none of its extensions (its command line lints .js, .jsx, .mjs, .cjs).
    for (const path of ["gen/table.js", "src/types.d.ts"]) {
      assert.equal(
        doc.results.find((r) => r.path === path)?.skipped,
        "ignored by standard's configuration (package.json)",
      );
    }
    const fmt = await run(dir, ["fmt", "--check", "--no-cache"]);
    assert.match(
      fmt.doc.results.find((r) => r.path === "src/tidy.js")?.skipped ?? "",
      /^not formatted: the repository keeps its JavaScript style with standard \(package\.json\)/,
    );
    await runPoly(["lint", "--no-workspace", "--no-cache", "--fix"], { cwd: dir });
    assert.match(await Deno.readTextFile(join(dir, "src/app.js")), /^(const|let) count = 1\n/);
  },
);

Deno.test("where ESLint lints and no formatter is configured, poly fmt leaves the JavaScript to ESLint's style rules", async () => {
  const dir = await copyFixture("native/eslint");
  await Deno.mkdir(join(dir, ".git"));
  // Formatted by biome's defaults, src/app.js (single line, no quotes) would not change; a quoted string would.
  await Deno.writeTextFile(join(dir, "src/quoted.js"), "export const a = 'single';\n");
  // A Vue file too, which web_fmt formats where ESLint does not lint it (fantastic-admin/basic's 931 of 976).
  await Deno.writeTextFile(join(dir, "src/App.vue"), "<script setup>\nconst a = 'single'\n</script>\n");
  const kept = await run(dir, ["fmt", "--check", "--no-cache"]);
  // JSON is not ESLint's: biome's defaults format package.json as before.
  assert.deepEqual(kept.doc.results.filter((r) => r.changed).map((r) => r.path), ["package.json"], kept.stderr);
  assert.equal(
    kept.doc.results.find((r) => r.path === "src/quoted.js")?.skipped,
    "not formatted: the repository keeps its JavaScript style with ESLint (eslint.config.js) and configures no " +
      "formatter for it; [fmt.javascript.biome] in poly.toml formats it with biome",
  );
  assert.equal(
    kept.doc.results.find((r) => r.path === "src/App.vue")?.skipped,
    "not formatted: the repository keeps its Vue style with ESLint (eslint.config.js) and configures no " +
      "formatter for it; [fmt.vue.webfmt] in poly.toml formats it with webfmt",
  );
  // Named in poly.toml, biome formats it (and would turn its quotes double).
  await Deno.writeTextFile(join(dir, "poly.toml"), "[fmt.javascript.biome]\n");
  const named = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.equal(named.doc.results.find((r) => r.path === "src/quoted.js")?.changed, true, JSON.stringify(named.doc));
  // With ESLint turned off, as where it does not govern.
  await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.eslint]\nenabled = false\n");
  const off = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.equal(off.doc.results.find((r) => r.path === "src/quoted.js")?.changed, true, JSON.stringify(off.doc));
  assert.equal(off.doc.results.find((r) => r.path === "src/App.vue")?.changed, true, JSON.stringify(off.doc));
});

Deno.test("dprint.json governs what its plugins format: its settings, its excludes, a plugin poly does not run", async () => {
  const dir = await copyFixture("native/dprint_json");
  await Deno.mkdir(join(dir, ".git"));
  // app.ts: single quotes under the typescript section; data.json: no json plugin listed, so biome's as before.
  const { code, doc, stderr } = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.equal(code, 0, stderr + JSON.stringify(doc.results));
  assert.deepEqual(Object.fromEntries(doc.results.map((r) => [r.path, r.skipped])), {
    "gen/table.ts": 'excluded by dprint: "gen" in excludes of "../dprint.json"',
    "style.css": 'formatted by the dprint plugin "malva" (listed in dprint.json), which poly does not run: not checked',
  });
  // The file pins the typescript plugin at 0.93.0, poly runs 0.96.1: what poly's would change is left to dprint
  // (dprint/dprint's own json plugin 0.23.0 keeps a package.json that 0.24.0 sorts). Its own release, named: formatted.
  await Deno.writeTextFile(join(dir, "messy.ts"), "export const   x = 1;\n");
  const pinned = await run(dir, ["fmt", "--check", "--no-cache", "messy.ts"]);
  assert.equal(
    pinned.doc.results.find((r) => r.path === "messy.ts")?.skipped,
    "not formatted: the repository keeps its TypeScript style with dprint's typescript plugin 0.93.0 (dprint.json), " +
      "whose output poly's typescript plugin 0.96.1 does not reproduce; [fmt.typescript.dprint] in poly.toml formats " +
      "it with dprint",
  );
  const config = await Deno.readTextFile(join(dir, "dprint.json"));
  await Deno.writeTextFile(join(dir, "dprint.json"), config.replace("typescript-0.93.0", "typescript-0.96.1"));
  const current = await run(dir, ["fmt", "--check", "--no-cache", "messy.ts"]);
  assert.equal(current.doc.results.find((r) => r.path === "messy.ts")?.changed, true);
  await Deno.remove(join(dir, "messy.ts"));
  await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.dprint]\nnative_config = false\n");
  const off = await run(dir, ["fmt", "--check", "--no-cache"]);
  const changed = off.doc.results.filter((r) => r.changed).map((r) => r.path).sort();
  assert.deepEqual(changed, ["app.ts", "gen/table.ts", "style.css"]); // biome's double quotes, and the rest formatted
  // An `extends` poly cannot read (a URL) errors the TOML, Markdown and Dockerfile files it would format.
  await Deno.remove(join(dir, "poly.toml"));
  await Deno.writeTextFile(join(dir, "dprint.json"), '{ "extends": "https://example.com/dprint.json" }\n');
  await Deno.writeTextFile(join(dir, "notes.md"), "# Notes\n");
  const remote = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.equal(remote.code, 2);
  assert.match(remote.doc.results.find((r) => r.path === "notes.md")?.error ?? "", /cannot be honoured/);
});

/** The shell files of fixtures/native/shfmt_editorconfig that `shfmt -l .` lists (held to the real one below). */
const SHFMT_LISTS = ["ignored/keep/k.sh", "more/deep.sh", "top.sh"];

Deno.test(".editorconfig governs shfmt as shfmt reads it: its indentation rule, flags, ignore = true, .bats files", async () => {
  const dir = await copyFixture("native/shfmt_editorconfig");
  const { code, doc, stderr } = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.equal(code, 1, stderr);
  const changed = doc.results.filter((r) => r.changed).map((r) => r.path).sort();
  assert.deepEqual(changed, SHFMT_LISTS);
  for (const path of ["ignored/lone.sh", "ignored/skipdir/s.sh", "ignored/vendor/v.sh"]) {
    const r = doc.results.find((x) => x.path === path);
    assert.equal(r?.skipped, 'ignored by shfmt: ignore = true in "ignored/.editorconfig"', path);
  }
  // shfmt's keep_padding has no counterpart in the WebAssembly build: those files are errored, the others go on.
  await Deno.writeTextFile(join(dir, "knobs/.editorconfig"), "root = true\n[sr.sh]\nkeep_padding = true\n");
  const padded = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.equal(padded.code, 2, padded.stderr);
  assert.match(padded.doc.results.find((r) => r.path === "knobs/sr.sh")?.error ?? "", /keep_padding = true cannot be/);
  assert.equal(padded.doc.results.find((r) => r.path === "knobs/bn.sh")?.error, undefined);
  // knobs/t.bats, a shell file by its extension, was formatted under its section's 2 spaces: without it, tabs.
  assert.equal(padded.doc.results.find((r) => r.path === "knobs/t.bats")?.changed, true);
});

Deno.test({
  name: "shfmt's own command line lists the same files under the fixture's .editorconfig files",
  ignore: !findExecutable("shfmt"),
  async fn() {
    const dir = await copyFixture("native/shfmt_editorconfig");
    const out = await new Deno.Command("shfmt", { args: ["-l", "."], cwd: dir, stdout: "piped" }).output();
    const listed = new TextDecoder().decode(out.stdout).trim().split("\n").sort();
    assert.deepEqual(listed, SHFMT_LISTS);
  },
});

Deno.test("poly config import writes the equivalent poly.toml: the same findings once the native files are off", async () => {
  for (const [fixture, sub, kind] of [["native/ruff_extend", "pkg", "lint"], ["native/biome_extends", "app", "fmt"]]) {
    const dir = await copyFixture(fixture);
    await Deno.mkdir(join(dir, ".git"));
    const cwd = join(dir, sub);
    const args = kind === "lint" ? ["lint", "--no-workspace", "--no-cache"] : ["fmt", "--no-cache"];
    const before = await run(cwd, args);
    const imported = await runPoly(["config", "import"], { cwd });
    assert.equal(imported.code, 0, imported.stderr);
    const toml = await Deno.readTextFile(join(cwd, "poly.toml"));
    assert.match(toml, /native_config = false/);
    const after = await run(cwd, args);
    const shape = (d: typeof before.doc) =>
      d.results.filter((r) => r.path !== "poly.toml").map((r) => [
        r.path,
        r.changed ?? false,
        (r.diagnostics ?? []).map((x) => x.code),
      ]);
    assert.deepEqual(shape(after.doc), shape(before.doc), toml);
    assert.ok(
      !after.doc.configs.some((c) =>
        c.sources.some((s) => s.endsWith("biome.json") || s.endsWith(".toml") && s !== "poly.toml")
      ),
    );
  }
});

Deno.test("poly config import refuses what poly.toml cannot say the same way, naming the file and key", async () => {
  const dir = await copyFixture("native/biome_formatter");
  const out = await runPoly(["config", "import"], { cwd: dir });
  assert.equal(out.code, 2);
  assert.match(out.stderr, /biome\.json: "files\.includes" cannot be imported/);
  await assert.rejects(Deno.stat(join(dir, "poly.toml")));
});

Deno.test("ruff lint.unfixable and extend-unsafe-fixes keep poly lint --fix from applying those fixes", async () => {
  for (const key of ["unfixable", "extend-unsafe-fixes"]) {
    const dir = await copyFixture("native/ruff_pfi");
    const toml = await Deno.readTextFile(join(dir, "ruff.toml"));
    await Deno.writeTextFile(
      join(dir, "ruff.toml"),
      toml.replace('select = ["F"]', `select = ["F"]\n${key} = ["F401"]`),
    );
    const { doc } = await run(dir, ["lint", "--no-workspace", "--no-cache", "--fix"]);
    assert.equal(await Deno.readTextFile(join(dir, "app.py")), "import os\n", key);
    assert.deepEqual(codes(doc, "app.py", "ruff"), ["F401"], key);
  }
});

Deno.test("first-party modules are found in ruff's src directories, as the ruff command line finds them", async () => {
  const dir = await tempDir({ prefix: "poly-native-src-" });
  await Deno.mkdir(join(dir, ".git"));
  await Deno.mkdir(join(dir, "src/mypkg"), { recursive: true });
  await Deno.writeTextFile(join(dir, "src/mypkg/__init__.py"), "VALUE = 1\n");
  await Deno.mkdir(join(dir, "tests"));
  // isort's sections: standard library, third party, first party (mypkg, under src/).
  await Deno.writeTextFile(
    join(dir, "tests/test_x.py"),
    "import os\n\nimport pytest\n\nimport mypkg\n\nprint(os, pytest, mypkg)\n",
  );
  const { doc } = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
  assert.deepEqual(codes(doc, "tests/test_x.py", "ruff"), []); // I001 is in ruff 0.17's default set
  await Deno.writeTextFile(
    join(dir, "tests/test_x.py"),
    "import os\n\nimport mypkg\nimport pytest\n\nprint(os, pytest, mypkg)\n",
  );
  const unsorted = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
  assert.deepEqual(codes(unsorted.doc, "tests/test_x.py", "ruff"), ["I001"]);
  // A module the configuration places itself (fastapi lists its own package in known-third-party) is not made
  // first-party by src: ruff matches those lists before it looks at src, and calls this order sorted.
  await Deno.writeTextFile(join(dir, "ruff.toml"), '[lint.isort]\nknown-third-party = ["myp*"]\n');
  const placed = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
  assert.deepEqual(codes(placed.doc, "tests/test_x.py", "ruff"), []);
});

Deno.test("without a ruff configuration, the nearest pyproject.toml's requires-python sets ruff's Python version", async () => {
  const dir = await copyFixture("native/ruff_requires_python");
  const { doc } = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
  // ruff 0.16's command line on this tree: two FA100, and no UP007/UP045 (`X | Y` is not Python 3.9 syntax).
  assert.deepEqual(codes(doc, "m.py", "ruff"), ["FA100", "FA100"]);
  assert.ok(doc.configs.some((c) => c.sources?.includes("pyproject.toml")));
});

Deno.test("prettier plugins: a language's plugin leaves its files unchecked, a sorting one is accepted, an unknown one errors formatting only", async () => {
  const dir = await tempDir({ prefix: "poly-prettier-plugins-" });
  await Deno.mkdir(join(dir, ".git"));
  const rc = (plugins: string[]) => JSON.stringify({ semi: false, singleQuote: true, plugins });
  await Deno.writeTextFile(join(dir, ".prettierrc"), rc(["prettier-plugin-astro", "prettier-plugin-tailwindcss"]));
  await Deno.writeTextFile(join(dir, "a.ts"), "export const a = 'b'\n");
  await Deno.writeTextFile(join(dir, "page.astro"), "---\nconst x = 1\n---\n<p>{x}</p>\n");
  const fmt = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.equal(fmt.doc.results.find((r) => r.path === "a.ts")?.changed, undefined, JSON.stringify(fmt.doc.results));
  assert.match(
    fmt.doc.results.find((r) => r.path === "page.astro")?.skipped ?? "",
    /formatted by the prettier plugin "prettier-plugin-astro" \(listed in \.prettierrc\), which poly does not run/,
  );
  // Without a plugin for it, prettier's command line passes over an Astro file: so does poly, saying so.
  await Deno.writeTextFile(join(dir, ".prettierrc"), rc([]));
  const bare = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.match(bare.doc.results.find((r) => r.path === "page.astro")?.skipped ?? "", /left as it is by prettier/);
  // A plugin poly does not know could print anything: formatting under it is an error naming it; linting goes on.
  await Deno.writeTextFile(join(dir, ".prettierrc"), rc(["prettier-plugin-brace-style"]));
  const unknown = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.doc.results.find((r) => r.path === "a.ts")?.error ?? "", /"prettier-plugin-brace-style"/);
  const lint = await run(dir, ["lint", "--no-cache", "--no-workspace"]);
  assert.equal(lint.code, 0, lint.stderr + JSON.stringify(lint.doc.results));
  // biome formats under the options where prettier is off, and cannot take the plugin either.
  await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.prettier]\nnative_config = false\n");
  const biome = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.match(biome.doc.results.find((r) => r.path === "a.ts")?.error ?? "", /cannot be honoured by poly's biome/);
});

Deno.test(".editorconfig governs biome where no biome or prettier file does, as biome's useEditorconfig and prettier read it", async () => {
  const dir = await tempDir({ prefix: "poly-biome-editorconfig-" });
  await Deno.mkdir(join(dir, ".git"));
  await Deno.writeTextFile(
    join(dir, ".editorconfig"),
    "root = true\n[*]\nindent_style = tab\n[*.ts]\nindent_style = space\nindent_size = 4\nmax_line_length = 40\n",
  );
  const text = "export function f() {\n  return someLongFunctionName(argumentOne, argumentTwo);\n}\n";
  await Deno.writeTextFile(join(dir, "a.js"), text);
  await Deno.writeTextFile(join(dir, "b.ts"), text);
  await Deno.writeTextFile(join(dir, "c.json"), '{\n  "a": 1\n}\n');
  const native = await tempDir({ prefix: "poly-biome-editorconfig-native-" });
  for (const name of [".editorconfig", "a.js", "b.ts", "c.json"]) {
    await Deno.copyFile(join(dir, name), join(native, name));
  }
  await runPoly(["fmt", "--fix", "--no-cache"], { cwd: dir });
  // biome itself, told to read the .editorconfig (its own defaults are tabs and 80 columns; poly's, 2 spaces and 120),
  // and given the width, which biome 2.5 does not take from max_line_length (prettier and poly's other formatters do).
  await Deno.writeTextFile(
    join(native, "biome.json"),
    '{ "formatter": { "useEditorconfig": true }, "overrides": [{ "includes": ["**/*.ts"], "formatter": { "lineWidth": 40 } }] }\n',
  );
  const command = await biomeCommand();
  if (!command) throw new Error("the biome command line of the same version is part of poly");
  const out = await new Deno.Command(command.binary, {
    args: ["format", "--write", "--vcs-enabled=false", "a.js", "b.ts", "c.json"],
    cwd: native,
    env: command.env,
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  for (const name of ["a.js", "b.ts", "c.json"]) {
    assert.equal(await Deno.readTextFile(join(dir, name)), await Deno.readTextFile(join(native, name)), name);
  }
  assert.match(await Deno.readTextFile(join(dir, "a.js")), /^\treturn someLongFunctionName/m);
  assert.match(await Deno.readTextFile(join(dir, "b.ts")), /^ {4}return someLongFunctionName\($/m);
  await Deno.remove(dir, { recursive: true });
  await Deno.remove(native, { recursive: true });
});

Deno.test("a prettier file poly cannot read errors the files formatted under it, and stops no lint", async () => {
  const dir = await tempDir({ prefix: "poly-prettier-unread-" });
  await Deno.mkdir(join(dir, ".git"));
  await Deno.writeTextFile(join(dir, "package.json"), '{ "name": "x", "prettier": "@acme/prettier-config" }\n');
  await Deno.writeTextFile(join(dir, "a.ts"), "export const a = 'b'\n");
  await Deno.writeTextFile(join(dir, "notes.md"), "# Notes\n");
  await Deno.writeTextFile(join(dir, "run.sh"), "#!/bin/sh\necho hi\n");
  const fmt = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.equal(fmt.code, 2, fmt.stderr);
  for (const f of ["a.ts", "notes.md"]) {
    assert.match(
      fmt.doc.results.find((r) => r.path === f)?.error ?? "",
      /"@acme\/prettier-config" names a shared config package poly cannot find in node_modules: install/,
      f,
    );
  }
  // A language prettier does not format keeps poly's formatter; linting reads no formatter's options.
  assert.equal(fmt.doc.results.find((r) => r.path === "run.sh")?.error, undefined);
  const lint = await run(dir, ["lint", "--no-cache", "--no-workspace"]);
  assert.notEqual(lint.code, 2, lint.stderr + JSON.stringify(lint.doc.results));
});

Deno.test("deno.json's fmt governs poly fmt of JavaScript, TypeScript, JSON and Markdown's code as deno fmt formats them", async () => {
  const dir = await copyFixture("native/denofmt");
  await Deno.mkdir(join(dir, ".git"));
  const denoCheck = async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["fmt", "--check", "--config", join(dir, "deno.json")],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    return [...text.matchAll(/^from (.+):$/gm)].map((m) => m[1].slice(dir.length + 1)).sort();
  };
  // The fixture is as deno fmt leaves it (semiColons false, singleQuote, width 100): poly agrees, and leaves gen/ as
  // deno.json's exclude does.
  assert.deepEqual(await denoCheck(), []);
  const clean = await run(dir, ["fmt", "--no-cache"]);
  assert.equal(clean.code, 0, clean.stderr + JSON.stringify(clean.doc.results));
  assert.match(
    clean.doc.results.find((r) => r.path === "gen/out.ts")?.skipped ?? "",
    /excluded from deno fmt by "gen"/,
  );
  assert.ok(clean.doc.configs.some((c) => c.sources.includes("deno.json")), JSON.stringify(clean.doc.configs));
  // Files deno fmt would rewrite, poly calls unformatted, and --fix writes what deno fmt writes.
  const messy = {
    "src/app.ts": 'import {helper} from "./helper.ts";\nexport const x = {a:1, b:[1,2]};\n',
    "src/data.json": '{"name":"fixture","values":[1,2,3]}',
    // A TypeScript block in Markdown, which deno fmt formats with the same plugin and options.
    "README.md": '# Deno fixture\n\n```ts\nconst greeting = {text:"hello"};\n```\n',
  };
  for (const [f, text] of Object.entries(messy)) await Deno.writeTextFile(join(dir, f), text);
  const expected = await denoCheck();
  assert.deepEqual(expected, Object.keys(messy).sort());
  const check = await run(dir, ["fmt", "--no-cache"]);
  assert.deepEqual(check.doc.results.filter((r) => r.changed).map((r) => r.path).sort(), expected);
  const fixed = await run(dir, ["fmt", "--fix", "--no-cache"]);
  assert.equal(fixed.code, 0, fixed.stderr);
  assert.deepEqual(await denoCheck(), []);
  assert.equal(
    await Deno.readTextFile(join(dir, "src/app.ts")),
    "import { helper } from './helper.ts'\nexport const x = { a: 1, b: [1, 2] }\n",
  );
  // dprint's switch leaves them to biome under poly's defaults (double quotes, semicolons).
  await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.dprint]\nnative_config = false\n");
  const off = await run(dir, ["fmt", "--no-cache"]);
  assert.ok(off.doc.results.some((r) => r.path === "src/app.ts" && r.changed), JSON.stringify(off.doc.results));
});

Deno.test("a deno.json without fmt is the formatter only where no other formatter's file governs", async () => {
  const dir = await tempDir({ prefix: "poly-deno-" });
  await Deno.mkdir(join(dir, ".git"));
  await Deno.mkdir(join(dir, "runtime/deno"), { recursive: true });
  // A prettier repository with a Deno corner (hono's runtime tests): prettier governs the corner too.
  await Deno.writeTextFile(join(dir, ".prettierrc"), '{ "semi": false, "singleQuote": true }\n');
  await Deno.writeTextFile(join(dir, "runtime/deno/deno.json"), '{ "imports": {} }\n');
  await Deno.writeTextFile(join(dir, "runtime/deno/a.ts"), "export const a = 'x'\n");
  const prettier = await run(dir, ["fmt", "--no-cache"]);
  assert.equal(prettier.code, 0, JSON.stringify(prettier.doc.results));
  // With a fmt key it governs its directory, the nearer file (deno's defaults otherwise: semicolons, double quotes).
  await Deno.writeTextFile(join(dir, "runtime/deno/deno.json"), '{ "fmt": { "lineWidth": 100 } }\n');
  const deno = await run(dir, ["fmt", "--no-cache"]);
  assert.deepEqual(deno.doc.results.filter((r) => r.changed).map((r) => r.path), ["runtime/deno/a.ts"]);
  // Alone, a deno.json without fmt is deno fmt at its defaults.
  await Deno.remove(join(dir, ".prettierrc"));
  await Deno.writeTextFile(join(dir, "runtime/deno/deno.json"), "{}\n");
  await Deno.writeTextFile(join(dir, "runtime/deno/a.ts"), 'export const a = "x";\n');
  const alone = await run(dir, ["fmt", "--no-cache"]);
  assert.equal(alone.code, 0, JSON.stringify(alone.doc.results));
  assert.ok(
    alone.doc.configs.some((c) => c.sources.some((s: string) => s.endsWith("deno.json"))),
    JSON.stringify(alone.doc.configs),
  );
});

Deno.test({
  name: "deno.json: deno lint lints JavaScript and TypeScript in biome's place, under its rules and excludes",
  ignore: !findExecutable("deno"),
  async fn() {
    const dir = await copyFixture("native/denofmt");
    await Deno.mkdir(join(dir, ".git"));
    const rules = (doc: { results: Record_[] }, path: string) => codes(doc, path, "deno-lint");
    await Deno.writeTextFile(
      join(dir, "src/loose.ts"),
      "let count = 1;\nexport function f(x: any) {\n  return x + count;\n}\n",
    );
    await Deno.writeTextFile(join(dir, "gen/loose.ts"), "let generated = 1;\nexport { generated };\n");
    const { doc } = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
    assert.deepEqual(rules(doc, "src/loose.ts"), ["no-explicit-any", "prefer-const"]);
    assert.deepEqual(rules(doc, "gen/loose.ts"), ["prefer-const"]); // fmt's exclude is not lint's
    assert.equal(doc.results.some((r) => (r.diagnostics ?? []).some((d) => d.engine === "biome")), false);
    // The deno.json's lint rules and paths: a rule excluded, a folder excluded.
    const config = JSON.parse(await Deno.readTextFile(join(dir, "deno.json")));
    config.lint = { rules: { exclude: ["no-explicit-any"] }, exclude: ["gen/"] };
    await Deno.writeTextFile(join(dir, "deno.json"), JSON.stringify(config, null, 2) + "\n");
    const ruled = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
    assert.deepEqual(rules(ruled.doc, "src/loose.ts"), ["prefer-const"]);
    // gen/ is deno lint's no more (the rule pack still reads it, so the file is not reported skipped).
    assert.deepEqual(rules(ruled.doc, "gen/loose.ts"), []);
    // A lint plugin is the repository's code: not run; the built-in findings stand, and the record says what was not
    // checked (written to run as a plugin would: it reads a file, so poly must not start it).
    await Deno.writeTextFile(join(dir, "plugin.ts"), 'Deno.readTextFileSync("/etc/hostname");\nexport default {};\n');
    config.lint.plugins = ["./plugin.ts"];
    await Deno.writeTextFile(join(dir, "deno.json"), JSON.stringify(config, null, 2) + "\n");
    const plugged = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
    assert.equal(plugged.code, 1, plugged.stderr);
    const loose = plugged.doc.results.find((r) => r.path === "src/loose.ts");
    assert.deepEqual(rules(plugged.doc, "src/loose.ts"), ["prefer-const"]);
    assert.match(loose?.skipped ?? "", /deno lint plugins "\.\/plugin\.ts" not run/);
    // Turned off, biome lints them again.
    await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.deno-lint]\nenabled = false\n");
    const off = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
    assert.deepEqual(rules(off.doc, "src/loose.ts"), []);
    assert.ok(codes(off.doc, "src/loose.ts", "biome").length > 0, JSON.stringify(off.doc.results));
  },
});

Deno.test("a biome file poly cannot honour errors the files biome lints and formats under it; the rest go on", async () => {
  const dir = await tempRepository({
    "biome.json": '{ "files": { "includes": ["src/**", "*.json"] }, "plugins": ["./no-debugger.grit"] }\n',
    "src/a.ts": "export const a = 1;\n",
    "b.ts": "export const b = 2;\n", // outside biome's includes: not biome's to check
    "q.py": "import os\n",
    "notes.md": "# Notes\n",
  });
  const lint = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
  assert.equal(lint.code, 2, lint.stderr);
  const result = (path: string) => lint.doc.results.find((r) => r.path === path);
  assert.match(result("src/a.ts")?.error ?? "", /biome\.json: biome key "plugins" cannot be honoured by poly/);
  assert.equal(result("b.ts")?.error, undefined, JSON.stringify(result("b.ts")));
  assert.deepEqual(codes(lint.doc, "q.py", "ruff"), ["F401"]);
  assert.equal(result("notes.md")?.error, undefined);
  const fmt = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.equal(fmt.code, 2, fmt.stderr);
  assert.match(fmt.doc.results.find((r) => r.path === "src/a.ts")?.error ?? "", /"plugins" cannot be honoured/);
  assert.equal(fmt.doc.results.find((r) => r.path === "q.py")?.error, undefined);
  // A biome file that does not parse: named at its line and column, the same way.
  await Deno.writeTextFile(join(dir, "biome.json"), '{\n  "linter": { "enabled": true }\n  "formatter": {}\n}\n');
  const broken = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
  assert.equal(broken.code, 2);
  assert.match(
    broken.doc.results.find((r) => r.path === "b.ts")?.error ?? "",
    /biome\.json:3:3: cannot parse: expected a comma/,
  );
  assert.deepEqual(codes(broken.doc, "q.py", "ruff"), ["F401"]);
  // Off in poly.toml: poly's defaults, the file unread.
  await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.biome]\nnative_config = false\n");
  const off = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
  assert.equal(off.doc.results.find((r) => r.path === "b.ts")?.error, undefined, off.stderr);
});

Deno.test("a ruff or markdownlint file poly cannot honour errors its engine's files, fixes none, and stops no run", async () => {
  const source = "import os\nimport sys\nprint(sys.argv)\n";
  const dir = await tempRepository({
    "ruff.toml": '[lint]\nextend-safe-fixes = "F"\n', // a string where ruff takes a list
    ".markdownlint.json": '{ "extends": "@acme/markdownlint-config" }\n',
    "q.py": source,
    "notes.md": "# Notes\n",
    "x.ts": "let a = 1;\nif (a == 2) a = 3;\nexport { a };\n",
  });
  for (const args of [["lint"], ["lint", "--fix"]]) {
    const out = await run(dir, [...args, "--no-workspace", "--no-cache"]);
    assert.equal(out.code, 2, out.stderr);
    const result = (path: string) => out.doc.results.find((r) => r.path === path);
    assert.match(result("q.py")?.error ?? "", /ruff\.toml: "lint\.extend-safe-fixes" must be a list of strings/);
    assert.match(
      result("notes.md")?.error ?? "",
      /markdownlint key "extends" names the package "@acme\/markdownlint-config"/,
    );
    assert.deepEqual(codes(out.doc, "x.ts", "biome"), ["suspicious/noDoubleEquals"]);
  }
  assert.equal(await Deno.readTextFile(join(dir, "q.py")), source, "no fix under defaults the project did not choose");
  const fmt = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.equal(fmt.code, 2);
  assert.match(fmt.doc.results.find((r) => r.path === "q.py")?.error ?? "", /extend-safe-fixes/);
});

Deno.test("a Python stub is skipped by ruff, saying why, and poly fmt leaves it as it is", async () => {
  const stub = "class A:\n    def f(self) -> B: ...\n    def g(self) -> None: ...\n\nclass B: ...\n";
  const dir = await tempRepository({ "pkg/_core.pyi": stub, "pkg/mod.py": "import os\n" });
  const lint = await run(dir, ["lint", "--no-workspace", "--no-cache"]);
  assert.equal(lint.code, 1, lint.stderr); // F401 in mod.py; the stub's skip is coverage, not a failure
  assert.match(lint.doc.results.find((r) => r.path === "pkg/_core.pyi")?.skipped ?? "", /a stub \(\.pyi\)/);
  const fmt = await run(dir, ["fmt", "--no-cache"]);
  assert.equal(fmt.code, 0, fmt.stderr);
  assert.match(fmt.doc.results.find((r) => r.path === "pkg/_core.pyi")?.skipped ?? "", /a stub \(\.pyi\)/);
  assert.equal(await Deno.readTextFile(join(dir, "pkg/_core.pyi")), stub);
});

Deno.test("a package.json listing prettier among its devDependencies, with no prettier file, formats with its defaults", async () => {
  const dir = await tempDir({ prefix: "poly-prettier-defaults-" });
  await Deno.mkdir(join(dir, ".git"));
  const long =
    "export const value = someFunctionName(argumentNumberOne, argumentNumberTwo, argumentNumberThree, four);\n";
  await Deno.writeTextFile(join(dir, "a.js"), long);
  // Without it: poly's own defaults (120 columns) keep the 103-column line.
  await Deno.writeTextFile(join(dir, "package.json"), '{\n  "name": "x"\n}\n');
  const plain = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.equal(plain.doc.results.find((r) => r.path === "a.js")?.changed, undefined, JSON.stringify(plain.doc));
  // With it: prettier's defaults (80 columns, trailing commas), as `prettier --check .` holds the file to.
  await Deno.writeTextFile(
    join(dir, "package.json"),
    '{\n  "name": "x",\n  "devDependencies": { "prettier": "^3.0.0" }\n}\n',
  );
  const { doc } = await run(dir, ["fmt", "--check", "--no-cache"]);
  assert.equal(doc.results.find((r) => r.path === "a.js")?.changed, true, JSON.stringify(doc));
  assert.ok(doc.configs.some((c) => c.sources.includes("package.json")), JSON.stringify(doc.configs));
  // A prettier file above a package that lists prettier governs it, as prettier finds its file first.
  await Deno.mkdir(join(dir, "pkg"));
  await Deno.writeTextFile(join(dir, "pkg/a.js"), long);
  await Deno.writeTextFile(join(dir, "pkg/package.json"), '{ "devDependencies": { "prettier": "^3.0.0" } }\n');
  await Deno.writeTextFile(join(dir, ".prettierrc.json"), '{ "printWidth": 120 }\n');
  const filed = await run(dir, ["fmt", "--check", "--no-cache", "pkg/a.js"]);
  assert.equal(filed.doc.results.find((r) => r.path === "pkg/a.js")?.changed, undefined, JSON.stringify(filed.doc));
  await Deno.remove(join(dir, ".prettierrc.json"));
  await Deno.remove(join(dir, "pkg"), { recursive: true });
  await runPoly(["fmt", "--fix", "--no-cache"], { cwd: dir });
  assert.equal(
    await Deno.readTextFile(join(dir, "a.js")),
    "export const value = someFunctionName(\n  argumentNumberOne,\n  argumentNumberTwo,\n  argumentNumberThree,\n  four,\n);\n",
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("configuration files prettier formats by name are formatted under a prettier file, and skipped by biome", async () => {
  const files = {
    ".babelrc": '{"presets":[  "a"]}\n',
    ".eslintrc": '{"env":{  "node":true}}\n',
    "a.ts": "export const a = 1\n",
  };
  const dir = await tempRepository({ ...files, ".prettierrc.json": '{ "semi": false }\n' });
  const out = await run(dir, ["fmt", "--check", "--no-cache"]);
  const changed = out.doc.results.filter((r) => r.changed).map((r) => r.path).sort();
  // As `prettier --check .` 3.10.1 says: .babelrc as JSON, .eslintrc as YAML.
  assert.deepEqual(changed, [".babelrc", ".eslintrc"], out.stderr);
  const bare = await tempRepository(files);
  const own = await run(bare, ["fmt", "--check", "--no-cache"]);
  // biome's command line has no handler for `.babelrc` and leaves it: skipped saying so, never called formatted.
  assert.match(own.doc.results.find((r) => r.path === ".babelrc")?.skipped ?? "", /biome ignores this file/);
});
