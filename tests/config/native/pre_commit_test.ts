/**
 * The formatting hooks of a repository's `.pre-commit-config.yaml` (lib/config/native/pre_commit.ts): which hooks are
 * read, which files each takes (pre-commit's own choice: `files`, `exclude`, `types`, `types_or`, `exclude_types`), and
 * what the hooks of black and ruff make of those engines' configurations (lib/config/native/mod.ts). The end-to-end
 * parity is tests/e2e/host_native_config_test.ts (fixtures pre-commit-formatters, pre-commit-ruff-format).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openConfig } from "../../../lib/config/load.ts";
import { PRE_COMMIT } from "../../../lib/config/native/mod.ts";
import {
  hookTakes,
  interpreterTags,
  type PreCommitHook,
  type PreCommitOptions,
  readPreCommit,
  tagsOf,
} from "../../../lib/config/native/pre_commit.ts";
import type { NativeEngineConfig } from "../../../lib/config/native/types.ts";
import { RUFF_RELEASE, ruffStyleGuide } from "../../../lib/config/native/ruff.ts";
import { ConfigError } from "../../../lib/errors/mod.ts";
import { tempRepository } from "../../_helpers/temp.ts";

const SHOWN = ".pre-commit-config.yaml";

const CONFIG = `
exclude: ^vendor/
repos:
  - repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v6.0.0
    hooks:
      - id: trailing-whitespace
      - id: check-yaml
      - id: pretty-format-json
        args: [--autofix, --no-sort-keys]
        exclude: ^tests/data/
  - repo: https://github.com/psf/black-pre-commit-mirror
    rev: 25.1.0
    hooks:
      - id: black
        args: ["--line-length", "100", -S]
  - repo: https://github.com/tox-dev/pyproject-fmt
    rev: v2.5.0
    hooks:
      - id: pyproject-fmt
  - repo: https://github.com/google/yamlfmt
    rev: v0.21.0
    hooks:
      - id: yamlfmt
        stages: [manual]
  - repo: local
    hooks:
      - id: format-md
        name: mdformat
        entry: poetry run mdformat
        language: system
        types: [markdown]
      - id: tests
        name: tests
        entry: pytest
        language: system
`;

function hook(options: PreCommitOptions, id: string): PreCommitHook {
  const found = options.hooks.find((h) => h.id === id);
  assert.ok(found, `no hook ${id}`);
  return found;
}

Deno.test("the formatting hooks are read with their repositories' defaults; the others, and hooks run by hand, are not", async () => {
  const options = await readPreCommit(CONFIG, SHOWN);
  assert.deepEqual(options.hooks.map((h) => [h.id, h.tool, h.engine ?? null, h.languages]), [
    ["pretty-format-json", "pretty-format-json", null, ["json"]],
    ["black", "black", "black", ["python"]],
    ["pyproject-fmt", "pyproject-fmt", null, ["toml"]],
    // A local hook is known by the command its `entry` runs (after `poetry run`), its files by its own keys.
    ["format-md", "mdformat", null, ["markdown"]],
  ]);
  assert.equal(options.exclude, "^vendor/");
  assert.deepEqual(hook(options, "black").typesOr, ["python", "pyi"]);
  assert.deepEqual(hook(options, "black").types, ["file"]);
  assert.deepEqual(hook(options, "black").args, ["--line-length", "100", "-S"]);
  assert.equal(hook(options, "pyproject-fmt").files, String.raw`(^|/)pyproject\.toml$`);
  assert.deepEqual(hook(options, "format-md").types, ["markdown"]);
  // `stages: []` is the configuration's default stages; `default_stages: [manual]` leaves every hook to the hand.
  const empty = await readPreCommit(
    "repos:\n- repo: https://github.com/psf/black\n  hooks:\n  - id: black\n    stages: []\n",
    SHOWN,
  );
  assert.equal(empty.hooks.length, 1);
  const manual = await readPreCommit(
    "default_stages: [manual]\nrepos:\n- repo: https://github.com/psf/black\n  hooks:\n  - id: black\n",
    SHOWN,
  );
  assert.equal(manual.hooks.length, 0);
  assert.deepEqual((await readPreCommit("repos: []\n", SHOWN)).hooks, []);
  // What PyYAML reads, poly reads: a flow list closed left of its items (pypa/pip's configuration).
  const loose = await readPreCommit(
    "repos:\n- repo: https://github.com/psf/black\n  hooks:\n  - id: black\n    args: [\n        '-l',\n        '99',\n    ]\n",
    SHOWN,
  );
  assert.deepEqual(loose.hooks[0].args, ["-l", "99"]);
});

Deno.test("a configuration pre-commit could not read is an error naming the file and the hook", async () => {
  const refused = async (text: string, pattern: RegExp) => {
    const e = await readPreCommit(text, SHOWN).then(() => undefined, (e) => e);
    assert.ok(e instanceof ConfigError, `not refused: ${text}`);
    assert.match(e.message, pattern);
    assert.match(e.message, /\.pre-commit-config\.yaml/);
  };
  await refused("repos: [\n", /cannot parse/);
  await refused("# nothing\n", /is empty: pre-commit expects a mapping/);
  await refused("- a\n- b\n", /must be a mapping/);
  await refused("repos:\n- repo: local\n  hooks:\n  - name: x\n", /must be a mapping with an "id"/);
  await refused(
    "repos:\n- repo: https://github.com/psf/black\n  hooks:\n  - id: black\n    exclude: '(?<=a'\n",
    /hook "black": "exclude" is not a regular expression/,
  );
  await refused(
    "repos:\n- repo: https://github.com/psf/black\n  hooks:\n  - id: black\n    types_or: python\n",
    /"types_or" must be a list of strings/,
  );
});

Deno.test("a hook takes the files pre-commit gives it: files and exclude searched, then types, types_or, exclude_types", async () => {
  const options = await readPreCommit(CONFIG, SHOWN);
  const config: NativeEngineConfig = { files: [], options: { ...options }, root: "/r" };
  const takes = (id: string, path: string) => hookTakes(config, hook(options, id), `/r/${path}`);
  assert.equal(takes("black", "pkg/app.py"), undefined);
  assert.equal(takes("black", "pkg/app.pyi"), undefined);
  assert.equal(takes("black", "pkg/app.txt"), "its types_or [python, pyi]");
  assert.equal(takes("black", "vendor/lib.py"), 'the top-level exclude "^vendor/"');
  // `exclude` is searched, not matched from the start: a pattern without `^` finds its text anywhere.
  assert.equal(takes("pretty-format-json", "src/tests/data/x.json"), undefined);
  assert.equal(takes("pretty-format-json", "tests/data/x.json"), 'its exclude "^tests/data/"');
  assert.equal(takes("pretty-format-json", "tsconfig.jsonc"), "its types [json]");
  assert.equal(takes("pyproject-fmt", "pyproject.toml"), undefined);
  assert.equal(takes("pyproject-fmt", "sub/pyproject.toml"), undefined);
  assert.equal(takes("pyproject-fmt", "ruff.toml"), String.raw`its files "(^|/)pyproject\.toml$"`);
  const typed = { ...hook(options, "black"), typesOr: [], types: ["python"], excludeTypes: ["pyi"] };
  assert.equal(hookTakes(config, typed, "/r/a.pyi"), "its types [python]");
  assert.equal(
    hookTakes(config, { ...typed, types: [], excludeTypes: ["python"] }, "/r/a.py"),
    "its exclude_types [python]",
  );
});

Deno.test("a file's tags are identify's, by its name, its name's parts and its extension", () => {
  assert.deepEqual([...tagsOf("/r/pyproject.toml")].sort(), ["file", "pyproject", "text", "toml"]);
  assert.deepEqual([...tagsOf("/r/Dockerfile.dev")].sort(), ["dockerfile", "file", "text"]);
  assert.deepEqual([...tagsOf("/r/a/B.PY")].sort(), ["file", "python", "text"]);
  assert.deepEqual([...tagsOf("/r/x.mts")].sort(), ["file", "text"]);
  assert.deepEqual([...tagsOf("/r/x.h")].sort(), ["c", "c++", "file", "header", "text"]);
  // An executable's shebang names its interpreter, where its name and extension say nothing.
  const line = (text: string) => () => text;
  assert.deepEqual([...tagsOf("/r/bin/deploy", line("#!/usr/bin/env bash"))].sort(), ["bash", "file", "shell", "text"]);
  assert.deepEqual([...tagsOf("/r/x.py", line("#!/bin/sh"))].sort(), ["file", "python", "text"]);
  assert.deepEqual(interpreterTags("#!/usr/bin/env -S python3.12 -u"), ["python", "python3"]);
  assert.deepEqual(interpreterTags("#! /bin/sh -e"), ["shell", "sh"]);
  assert.deepEqual(interpreterTags("echo"), []);
  assert.deepEqual(interpreterTags(undefined), []);
});

Deno.test("ruff-check's hook folds over the ruff file's selection, as ruff folds its command line", async () => {
  const dir = await tempRepository({
    ".pre-commit-config.yaml":
      "repos:\n- repo: https://github.com/astral-sh/ruff-pre-commit\n  rev: v0.9.0\n  hooks:\n  - id: ruff\n    args: [--fix, --ignore=E5, --extend-select=UP]\n",
    "ruff.toml": '[lint]\nselect = ["E", "F"]\nextend-select = ["B"]\nignore = ["UP007"]\n',
    "x.py": "",
  }, "poly-native-pre-commit-");
  const ruff = (await (await openConfig({ cwd: dir })).forDir(dir)).native?.ruff;
  assert.equal(ruff?.hook, "ruff");
  const { select, "extend-select": extendSelect, ignore } = ruff?.options.lint as Record<string, unknown>;
  // `--extend-select=UP` takes back the file's `UP007` ignore; `--ignore=E5` leaves the file's `select` as written.
  assert.deepEqual({ select, extendSelect, ignore }, { select: ["E", "F"], extendSelect: ["B", "UP"], ignore: ["E5"] });
});

Deno.test("black's hook makes black's configuration, over a [tool.black] table or the file --config names", async () => {
  const layer = async (files: Record<string, string>) => {
    const dir = await tempRepository(files, "poly-native-pre-commit-");
    const native = (await (await openConfig({ cwd: dir })).forDir(dir)).native ?? {};
    return { dir, native };
  };
  const hooks = (args: string) =>
    `repos:\n- repo: https://github.com/psf/black\n  rev: 25.1.0\n  hooks:\n  - id: black\n    args: ${args}\n`;
  // No table: black's defaults, the hook's flags, applied to the files the hook gives it (only force-exclude).
  const plain = await layer({ ".pre-commit-config.yaml": hooks("[-l, '79']"), "a.py": "" });
  assert.equal(plain.native.black?.hook, "black");
  assert.deepEqual(plain.native.black?.files, []);
  assert.deepEqual(plain.native.black?.options, { args: { required_version: "25", line_length: 79 } });
  assert.deepEqual(plain.native[PRE_COMMIT]?.files.map((f) => f.path), [join(plain.dir, ".pre-commit-config.yaml")]);
  // --config: that file's table (black reads no other).
  const named = await layer({
    ".pre-commit-config.yaml": hooks("[--config, ci/black.toml]"),
    "ci/black.toml": "[tool.black]\nline-length = 99\nforce-exclude = 'gen/'\n",
    "pyproject.toml": "[tool.black]\nline-length = 70\n",
  });
  assert.deepEqual(named.native.black?.files.map((f) => f.path), [join(named.dir, "ci/black.toml")]);
  assert.deepEqual(named.native.black?.options, { force_exclude: "gen/", args: { required_version: "25" } });
  // A flag poly cannot apply: black's configuration is not honoured (its files error, saying why).
  const bad = await layer({ ".pre-commit-config.yaml": hooks("[--unstable]") });
  assert.match(bad.native.black?.unhonoured ?? "", /poly cannot apply "--unstable" to black/);
  // A configuration that does not parse: the pre-commit layer says so, where it names a formatter read here.
  const broken = await layer({ ".pre-commit-config.yaml": "repos:\n- hooks: [{id: black}\n" });
  assert.match(broken.native[PRE_COMMIT]?.unhonoured ?? "", /cannot parse/);
  // One that names none is not parsed (most name no formatter): nothing is read of it.
  const other = await layer({ ".pre-commit-config.yaml": "repos: [\n- id: check-yaml\n" });
  assert.equal(other.native[PRE_COMMIT], undefined);
});

Deno.test("ruff-format's hook: ruff's own defaults beneath its arguments where no ruff file governs", async () => {
  const dir = await tempRepository({
    ".pre-commit-config.yaml":
      "repos:\n- repo: https://github.com/astral-sh/ruff-pre-commit\n  rev: v0.9.0\n  hooks:\n  - id: ruff-format\n    args: [--line-length=100]\n",
    "sub/ruff.toml": "line-length = 70\n",
    "sub/x.py": "",
  }, "poly-native-pre-commit-");
  const config = await openConfig({ cwd: dir });
  const top = (await config.forDir(dir)).native?.ruff;
  assert.equal(top?.hook, "ruff-format");
  assert.equal(top?.options["line-length"], 100);
  // ruff 0.9 formats by its 2025 style guide, poly's ruff by the 2026 one.
  assert.deepEqual(top?.otherRelease, {
    tool: "ruff",
    spec: "0.9.0",
    from: 'its "ruff-format" hook in .pre-commit-config.yaml',
    clause: "whose 2025 style guide poly's ruff 0.16.9 (the 2026 one) does not keep",
  });
  // The hook's flag goes over the file's own key, as on ruff's command line.
  const sub = (await config.forDir(join(dir, "sub"))).native?.ruff;
  assert.equal(sub?.options["line-length"], 100);
  assert.equal(sub?.files.length, 1);
});

Deno.test("biome's and clang-format's hooks: a record for each thing they do, with their repositories' defaults", async () => {
  const { hooks } = await readPreCommit(
    `repos:
- repo: https://github.com/biomejs/pre-commit
  rev: v2.5.0
  hooks:
  - id: biome-check
  - id: biome-format
    files: ^web/
- repo: https://github.com/pre-commit/mirrors-clang-format
  rev: v18.1.8
  hooks:
  - id: clang-format
- repo: https://github.com/someone/other-hooks
  rev: v1.0.0
  hooks:
  - id: clang-format
- repo: https://github.com/cpp-linter/cpp-linter-hooks
  rev: v1.1.0
  hooks:
  - id: clang-format
    args: [--style=file, --version=18]
- repo: local
  hooks:
  - id: fmt-ts
    name: biome
    entry: npx @biomejs/biome format --write
    language: system
    types_or: [ts]
`,
    SHOWN,
  );
  assert.deepEqual(hooks.map((h) => [h.id, h.engine ?? null, h.lints ?? false, h.languages.join(",")]), [
    ["biome-check", "biome", false, "javascript,typescript,json,css,graphql"],
    ["biome-check", "biome", true, "javascript,typescript,json,css,graphql,vue,svelte,astro"],
    ["biome-format", "biome", false, "javascript,typescript,json,css,graphql"],
    ["clang-format", "clang-format", false, "c,cpp,java,protobuf"],
    ["clang-format", null, false, "javascript,json"],
    ["clang-format", "clang-format", false, "c,cpp"],
    ["fmt-ts", "biome", false, "javascript,typescript,json,css,graphql"],
  ]);
  // The manifests' defaults: biome's pattern and `types: [text]`; clang-format's `types_or` and `-style=file`.
  const [check, , format, clang, , cppLinter, local] = hooks;
  assert.match(cppLinter.files, /hpp\|c\|cc/);
  assert.deepEqual(cppLinter.typesOr, []);
  assert.equal(check.types.join(), "text");
  assert.match(check.files, /jsonc\?\|css/);
  assert.equal(format.files, "^web/");
  assert.deepEqual(clang.args, ["-style=file"]);
  assert.ok(clang.typesOr.includes("c++") && clang.typesOr.includes("javascript"));
  assert.deepEqual([local.files, local.types, local.typesOr], ["", ["file"], ["ts"]]);
});

Deno.test("a hook given no file names (pass_filenames: false) takes every file; tombi's and ansible/actions' hooks", async () => {
  const options = await readPreCommit(
    `repos:
- repo: https://github.com/tombi-toml/tombi-pre-commit
  rev: v0.6.0
  hooks:
  - id: tombi-format
    exclude: ^vendor/
- repo: https://github.com/ansible/actions
  rev: v1.1.2
  hooks:
  - id: toml
  - id: ruff
- repo: local
  hooks:
  - id: fmt
    name: ruff
    entry: uv run ruff format .
    language: system
    files: ^src/
    pass_filenames: false
`,
    SHOWN,
  );
  assert.deepEqual(options.hooks.map((h) => [h.id, h.tool, h.noFilenames ?? false]), [
    ["tombi-format", "tombi", false],
    ["toml", "tombi", true],
    ["ruff", "ruff check", false],
    ["ruff", "ruff format", true],
    ["fmt", "ruff format", true],
  ]);
  const config: NativeEngineConfig = { files: [], options: { ...options }, root: "/r" };
  assert.match(hookTakes(config, options.hooks[0], "/r/vendor/a.toml") ?? "", /its exclude/);
  // Given no names, the tool works on what it finds itself: the hook's `files` only say whether it runs.
  assert.equal(hookTakes(config, options.hooks[4], "/r/tests/test_a.py"), undefined);
});

Deno.test("jumanjihouse/pre-commit-hooks' shellcheck and shfmt hooks, with their manifest's defaults", async () => {
  const { hooks } = await readPreCommit(
    `repos:
- repo: https://github.com/jumanjihouse/pre-commit-hooks
  rev: 3.0.0
  hooks:
  - id: shellcheck
  - id: shfmt
    args: [-i, "2"]
- repo: https://github.com/someone/pre-commit-hooks
  rev: v1.0.0
  hooks:
  - id: shellcheck
`,
    SHOWN,
  );
  assert.deepEqual(hooks.map((h) => [h.id, h.engine, h.lints ?? false, h.args, h.types]), [
    ["shellcheck", "shellcheck", true, ["-e", "SC1091"], ["shell"]],
    ["shfmt", "shfmt", false, ["-i", "2"], ["shell"]],
  ]);
});

Deno.test("language-formatters-pre-commit-hooks' pretty-format-java keeps the Java it takes from clang-format", async () => {
  const { hooks } = await readPreCommit(
    `repos:
- repo: https://github.com/macisamuele/language-formatters-pre-commit-hooks
  rev: v2.15.0
  hooks:
  - id: pretty-format-java
    args: [--autofix, --aosp]
`,
    SHOWN,
  );
  assert.deepEqual(hooks.map((h) => [h.id, h.tool, h.engine ?? null, h.languages, h.types]), [
    ["pretty-format-java", "pretty-format-java", null, ["java"], ["java"]],
  ]);
});

Deno.test("buf's buf-format hook keeps Protobuf (every file: it takes no names), djLint's reformatting hooks HTML", async () => {
  const { hooks } = await readPreCommit(
    `repos:
- repo: https://github.com/bufbuild/buf
  rev: v1.50.0
  hooks:
  - id: buf-lint
  - id: buf-format
- repo: https://github.com/djlint/djLint
  rev: v1.36.4
  hooks:
  - id: djlint-reformat-django
  - id: djlint-django
`,
    SHOWN,
  );
  assert.deepEqual(hooks.map((h) => [h.id, h.tool, h.languages, h.noFilenames ?? false]), [
    ["buf-format", "buf", ["protobuf"], true],
    ["djlint-reformat-django", "djLint", ["html"], false],
  ]);
});

Deno.test("ruffStyleGuide(): the year's style guide a ruff release formats by, none for a version it cannot read", () => {
  for (const [version, year] of [["0.1.7", 2023], ["0.3.0", 2024], ["0.8.6", 2024], ["0.9", 2025], ["0.14.14", 2025]]) {
    assert.equal(ruffStyleGuide(String(version)), year, String(version));
  }
  assert.equal(ruffStyleGuide(RUFF_RELEASE), 2026);
  assert.equal(ruffStyleGuide("0.15.0"), 2026);
  assert.equal(ruffStyleGuide("1.0.0"), undefined);
  assert.equal(ruffStyleGuide("main"), undefined);
});

Deno.test("a hook whose rev is the hooks' own release names its tool's by an argument (cpp-linter-hooks' --version)", async () => {
  const linter = (args: string) =>
    `repos:\n- repo: https://github.com/cpp-linter/cpp-linter-hooks\n  rev: v1.1.0\n  hooks:\n  - id: clang-format\n${args}`;
  const version = async (args: string) =>
    (await readPreCommit(linter(args), ".pre-commit-config.yaml")).hooks[0]?.version;
  assert.equal(await version("    args: [--style=file, --version=18]\n"), "18");
  assert.equal(await version("    args: [--version, '20.1.7']\n"), "20.1.7");
  assert.equal(await version(""), undefined, "not the hooks' rev");
  const mirror = "repos:\n- repo: https://github.com/pre-commit/mirrors-clang-format\n  rev: v20.1.7\n  hooks:\n" +
    "  - id: clang-format\n";
  assert.equal((await readPreCommit(mirror, ".pre-commit-config.yaml")).hooks[0]?.version, "20.1.7");
});
