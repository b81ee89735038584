/**
 * What the arguments of the pre-commit hooks poly reads set (lib/config/native/hook_args.ts): each tool's flags as its
 * own options, the flags that only steer the command passed over, and one poly cannot apply an error naming it. How
 * the hooks are read and which files each takes is tests/config/native/pre_commit_test.ts.
 */
import assert from "node:assert/strict";
import {
  biomeHookOptions,
  blackHookArgs,
  clangFormatHookStyle,
  markdownlintHookRules,
  prettierHookOptions,
  ruffCheckHookOptions,
  ruffHookOptions,
  shellcheckHookFlags,
  shfmtHookOptions,
  styluaHookOptions,
} from "../../../lib/config/native/hook_args.ts";
import { type PreCommitHook, readPreCommit } from "../../../lib/config/native/pre_commit.ts";

const SHOWN = ".pre-commit-config.yaml";

/** A hook of `id` as a configuration that names it alone reads it, its `args` empty. */
function hookOf(id: string): PreCommitHook {
  return {
    id,
    tool: id,
    languages: ["python"],
    files: "",
    exclude: "^$",
    types: ["file"],
    typesOr: [],
    excludeTypes: [],
    args: [],
  };
}

Deno.test("black's hook arguments as black's settings; one poly cannot apply is an error naming it", () => {
  const black = (args: string[]) => blackHookArgs({ ...hookOf("black"), args }, SHOWN);
  assert.deepEqual(black(["--line-length=79", "-SC", "--preview", "-t", "py38", "--target-version=py39", "--quiet"]), {
    line_length: 79,
    skip_string_normalization: true,
    skip_magic_trailing_comma: true,
    preview: true,
    target_version: ["py38", "py39"],
  });
  assert.deepEqual(black(["-l", "100", "--config", "./pyproject.toml", "--check", "--diff"]), {
    line_length: 100,
    config: "./pyproject.toml",
  });
  assert.deepEqual(black(["-l120"]), { line_length: 120 });
  assert.deepEqual(black(["--required-version=25.1.0"]), { required_version: "25.1.0" });
  // The hook's rev pins black's major version (its stable style's year).
  const pinned = blackHookArgs({ ...hookOf("black"), version: "26.5.1", args: ["-S"] }, SHOWN);
  assert.deepEqual(pinned, { required_version: "26", skip_string_normalization: true });
  assert.throws(() => black(["--unstable"]), /the "black" hook's args: poly cannot apply "--unstable" to black/);
  assert.throws(() => black(["--line-length", "wide"]), /must be a whole number/);
  assert.throws(() => black(["-l"]), /"-l" needs a value/);
});

Deno.test("ruff-format's hook arguments as ruff's options; a --config file is an error naming it", async () => {
  const ruff = (args: string[]) => ruffHookOptions({ ...hookOf("ruff-format"), args }, SHOWN);
  assert.deepEqual(await ruff(["--line-length", "100", "--preview", "--config", "format.quote-style = 'single'"]), {
    "line-length": 100,
    preview: true,
    format: { "quote-style": "single" },
  });
  await assert.rejects(() => ruff(["--config", "ruff.toml"]), /poly cannot apply "--config ruff.toml" \(a file\)/);
  await assert.rejects(() => ruff(["--fix"]), /poly cannot apply "--fix" to ruff format/);
});

Deno.test("ruff-check's hook arguments: its settings, and its rule selection as one more of ruff's layers", async () => {
  const check = (args: string[]) => ruffCheckHookOptions({ ...hookOf("ruff-check"), args }, SHOWN);
  const found = await check([
    "--fix",
    "--extend-select=BLE,I",
    "--ignore=B023,E402",
    "--ignore",
    "F401",
    "--line-length",
    "100",
    "--unfixable=F841",
    "--output-format",
    "concise",
  ]);
  assert.deepEqual(found.options, { "line-length": 100, lint: { unfixable: ["F841"] } });
  assert.deepEqual(found.selection, { extendSelect: ["BLE", "I"], ignore: ["B023", "E402", "F401"] });
  // Rules named by name are named by code, as ruff resolves them.
  assert.deepEqual((await check(["--select", "unused-import"])).selection, {
    select: ["F401"],
    extendSelect: [],
    ignore: [],
  });
  await assert.rejects(() => check(["--watch"]), /poly cannot apply "--watch" to ruff check/);
});

Deno.test("markdownlint-cli's hook: --enable and --disable as markdownlint's rules; the Ruby mdl's hook is not it", async () => {
  const rules = (args: string[]) => markdownlintHookRules({ ...hookOf("markdownlint"), args }, SHOWN);
  assert.deepEqual(rules(["--disable=MD013", "--disable", "MD024", "no-inline-html", "--fix", "--enable", "MD001"]), {
    MD013: false,
    MD024: false,
    "no-inline-html": false,
    MD001: true,
  });
  assert.throws(() => rules(["--config", ".mdl.json"]), /poly cannot apply "--config" to markdownlint/);
  const read = async (repo: string) =>
    (await readPreCommit(`repos:\n- repo: ${repo}\n  rev: v0.45.0\n  hooks:\n  - id: markdownlint\n`, SHOWN)).hooks;
  assert.equal((await read("https://github.com/igorshubovych/markdownlint-cli")).length, 1);
  assert.equal((await read("https://github.com/igorshubovych/markdownlint-cli.git")).length, 1);
  assert.deepEqual(await read("https://github.com/markdownlint/markdownlint"), []);
});

Deno.test("shfmt's hook arguments as shfmt's keys; none but --write, none at all; -kp an error naming it", async () => {
  const shfmt = (args: string[]) => shfmtHookOptions({ ...hookOf("shfmt"), args }, SHOWN);
  assert.deepEqual(shfmt(["-w", "-i", "2", "-ci", "-sr", "-ln=posix"]), {
    indent: 2,
    switch_case_indent: true,
    space_redirects: true,
    shell_variant: "posix",
  });
  assert.deepEqual(shfmt(["--indent=4", "--binary-next-line", "-s"]), {
    indent: 4,
    binary_next_line: true,
    simplify: true,
  });
  assert.equal(shfmt(["--write"]), undefined);
  assert.throws(() => shfmt(["-kp"]), /poly cannot apply "-kp" to shfmt/);
  // The manifest's own args (`--write`) where the hook gives none.
  const read = await readPreCommit(
    "repos:\n- repo: https://github.com/scop/pre-commit-shfmt\n  rev: v3.12.0-2\n  hooks:\n  - id: shfmt\n",
    SHOWN,
  );
  assert.deepEqual(read.hooks.map((h) => [h.args, h.types, h.excludeTypes]), [[["--write"], ["shell"], [
    "csh",
    "tcsh",
  ]]]);
});

Deno.test("prettier's hook arguments as prettier's options; one poly cannot apply is an error naming it", () => {
  const prettier = (args: string[]) => prettierHookOptions({ ...hookOf("prettier"), args }, SHOWN);
  assert.deepEqual(
    prettier([
      "--write",
      "--prose-wrap=preserve",
      "--tab-width",
      "4",
      "--no-semi",
      "--single-quote",
      "--cache-location=.c",
    ]),
    { proseWrap: "preserve", tabWidth: 4, semi: false, singleQuote: true },
  );
  assert.deepEqual(prettier(["--print-width=100", "--trailing-comma", "es5", "-u", "--list-different"]), {
    printWidth: 100,
    trailingComma: "es5",
  });
  for (const arg of ["--config=.prettierrc", "--plugin=x", "--ignore-path=.gitignore", "--no-editorconfig", "-x"]) {
    assert.throws(() => prettier([arg]), new RegExp(`poly cannot apply "${arg}" to prettier`));
  }
});

Deno.test("biome's hook arguments as biome's settings, by their keys; one poly cannot apply is an error naming it", () => {
  const biome = (args: string[]) => biomeHookOptions({ ...hookOf("biome-check"), args }, SHOWN);
  assert.deepEqual(
    biome([
      "--write",
      "--files-ignore-unknown=true",
      "--no-errors-on-unmatched",
      "--indent-style=space",
      "--line-width",
      "100",
      "--javascript-formatter-quote-style=single",
      "--semicolons=as-needed",
      "--json-parse-allow-comments=true",
      "--reporter",
      "summary",
    ]),
    {
      formatter: { indentStyle: "space", lineWidth: 100 },
      javascript: { formatter: { quoteStyle: "single", semicolons: "as-needed" } },
      json: { parser: { allowComments: true } },
    },
  );
  assert.deepEqual(biome(["--formatter-enabled=false"]), { formatter: { enabled: false } });
  for (const arg of ["--config-path=tools", "--only=suspicious", "--use-editorconfig=true", "--bogus"]) {
    assert.throws(() => biome([arg]), new RegExp(`the "biome-check" hook's args: poly cannot apply "${arg}" to biome`));
  }
  assert.throws(() => biome(["--line-width"]), /"--line-width" needs a value/);
});

Deno.test("clang-format's hook arguments: its --style and --fallback-style, one dash or two; others an error", () => {
  const clang = (args: string[]) => clangFormatHookStyle({ ...hookOf("clang-format"), args }, SHOWN);
  assert.deepEqual(clang([]), { style: "file", fallback: "LLVM" });
  assert.deepEqual(clang(["-i", "-style=file", "--dry-run", "-Werror"]), { style: "file", fallback: "LLVM" });
  // cpp-linter-hooks' pin of the clang-format it installs.
  assert.deepEqual(clang(["--style=file", "--version=18"]), { style: "file", fallback: "LLVM" });
  assert.deepEqual(clang(["--style", "Google", "-fallback-style=none"]), { style: "Google", fallback: "none" });
  assert.deepEqual(clang(["--style={BasedOnStyle: llvm, IndentWidth: 4}"]), {
    style: "{BasedOnStyle: llvm, IndentWidth: 4}",
    fallback: "LLVM",
  });
  for (const arg of ["--sort-includes", "-assume-filename=x.c", "--lines=1:2"]) {
    assert.throws(() => clang([arg]), new RegExp(`poly cannot apply "${arg}" to clang-format`));
  }
});

Deno.test("StyLua's hook arguments as its build's options, values in any case; --no-editorconfig; others an error", () => {
  const stylua = (args: string[]) => styluaHookOptions({ ...hookOf("stylua"), args }, SHOWN);
  assert.deepEqual(
    stylua([
      "--check",
      "--column-width=100",
      "--indent-type",
      "spaces",
      "--indent-width",
      "2",
      "--quote-style=autopreferSingle",
      "--sort-requires",
      "--color",
      "Never",
    ]),
    {
      options: {
        line_width: 100,
        indent_style: "space",
        indent_width: 2,
        quote_style: "AutoPreferSingle",
        sort_requires: true,
      },
      editorconfig: true,
    },
  );
  assert.deepEqual(stylua(["--no-editorconfig", "--line-endings", "Windows"]), {
    options: { line_ending: "crlf" },
    editorconfig: false,
  });
  assert.throws(() => stylua(["--config-path", "x.toml"]), /poly cannot apply "--config-path" to StyLua/);
  assert.throws(
    () => stylua(["--indent-type=Wide"]),
    /the "stylua" hook's args: StyLua's "indent_type" must be one of/,
  );
  assert.throws(
    () => stylua(["--syntax=Luau"]),
    /cannot be honoured: poly's StyLua build parses Lua 5.1 to 5.4 and LuaJIT only/,
  );
});

Deno.test("shellcheck's hook arguments as its flags: lists comma-separated and repeated, -x, -P; others an error", () => {
  const shellcheck = (args: string[]) => shellcheckHookFlags({ ...hookOf("shellcheck"), args }, SHOWN);
  assert.deepEqual(
    shellcheck([
      "-x",
      "-S",
      "warning",
      "-e",
      "SC2034,2086",
      "--exclude=SC1091",
      "-o",
      "all",
      "-P",
      "SCRIPTDIR",
      "-f",
      "gcc",
    ]),
    {
      include: [],
      exclude: ["SC2034", "SC2086", "SC1091"],
      enable: ["all"],
      sourcePath: ["SCRIPTDIR"],
      externalSources: true,
      severity: "warning",
    },
  );
  assert.deepEqual(shellcheck(["--shell=bash", "--norc", "-i", "SC2086", "--color=never"]), {
    include: ["SC2086"],
    exclude: [],
    enable: [],
    sourcePath: [],
    shell: "bash",
    norc: true,
  });
  assert.throws(() => shellcheck(["--rcfile=x"]), /poly cannot apply "--rcfile=x" to shellcheck/);
});
