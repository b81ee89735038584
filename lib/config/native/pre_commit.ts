/**
 * The formatters a repository runs from pre-commit: the hooks of the `.pre-commit-config.yaml` at the repository root
 * (pre-commit reads that file at the root of the git work tree) that rewrite or hold a language's layout. Where a project
 * formats with a hook and keeps no file of the formatter's own, the hook is all there is to say which formatter keeps
 * its style and how (black with its defaults, at 88 columns, where poly's `[defaults]` would have made 120; JSON kept
 * expanded by `pretty-format-json`, which biome would fold):
 *
 * - a hook of a formatter poly runs (black's `black`, ruff's `ruff-format`, prettier's `prettier`) makes it the
 *   formatter of the files the hook takes, under its own defaults and the hook's arguments (`--line-length`,
 *   `--skip-string-normalization`, ...), as the hook runs it (lib/config/native/mod.ts, lib/run/plan.ts); ruff's
 *   `ruff-check` hook makes its arguments one more of ruff's rule selections, and ruff the linter of the files it takes;
 *   markdownlint-cli's hook turns the rules it names on or off; flake8's says flake8 keeps the Python style;
 * - a hook of a formatter poly does not run (yapf, autopep8, `pretty-format-json`, pyproject-fmt, yamlfmt, taplo,
 *   toml-sort, mdformat, SQLFluff, the `pretty-format-*` hooks of language-formatters-pre-commit-hooks) keeps the
 *   files it takes from poly's formatter of their language, saying so (as a file of that tool's own does:
 *   lib/config/native/kept_style.ts), unless poly.toml names the formatter.
 *
 * Which files a hook takes is pre-commit's choice, made the same way ({@link hookTakes}): the configuration's top-level
 * `files` and `exclude`, then the hook's, Python regular expressions searched in the path relative to the root; then
 * the hook's `types` (every tag), `types_or` (any) and `exclude_types` (none) against the tags pre-commit's `identify`
 * gives the file's name ({@link tagsOf}); a hook's defaults are those of its repository's `.pre-commit-hooks.yaml`
 * ({@link KNOWN_HOOKS}), a `local` hook's its own (its `entry` names the tool). A hook run only by hand (`stages:
 * [manual]`) holds nothing. Other linters' hooks, and hooks that fix something other than layout, are not read.
 *
 * @module
 */
import { basename, join, relative, sep } from "node:path";
import { ConfigError } from "../../errors/mod.ts";
import { hasExecutableBit } from "../../fs/executable.ts";
import type { NativeFiles } from "./_files.ts";
import { parseError } from "./_reading.ts";
import { pythonPattern } from "./black.ts";
import { isTable, mergeTables, type Table } from "../table.ts";
import type { NativeEngineConfig } from "./types.ts";
import type { Selection } from "./ruff.ts";
import { selectorCode } from "../../engines/ruff/codes.ts";

/** The file pre-commit reads at the root of the work tree. */
export const PRE_COMMIT_FILE = ".pre-commit-config.yaml";

/** One formatting hook, as poly reads it (plain JSON: part of the settings, hence of cache keys). */
export interface PreCommitHook {
  /** The hook's `id`. */
  id: string;
  /** The tool as a message names it (`black`, `pretty-format-json`). */
  tool: string;
  /** poly's engine that runs the tool (`black`, `ruff`), or absent: poly does not run it. */
  engine?: string;
  /** The languages whose files the tool formats (poly's names). */
  languages: string[];
  /** pre-commit's `files` and `exclude` of the hook (Python regular expressions; `files` "" takes every path). */
  files: string;
  exclude: string;
  types: string[];
  typesOr: string[];
  excludeTypes: string[];
  /** The hook's `args`. */
  args: string[];
  /** Set for a hook that lints (ruff's `ruff-check`): what it holds is the engine's findings, not a layout. */
  lints?: true;
  /** The version its repository's `rev` names (`26.5.1` of `26.5.1` or `v26.5.1`), where it names one. */
  version?: string;
}

/** What the configuration's `options` hold. */
export interface PreCommitOptions {
  /** The top-level `files` and `exclude`. */
  files: string;
  exclude: string;
  hooks: PreCommitHook[];
}

/** A known hook's defaults (its repository's `.pre-commit-hooks.yaml`) and what formats with it. */
interface Known {
  tool: string;
  lints?: true;
  /** The hook repositories whose hook of this id it is (another's of the same id is another tool). */
  repos?: RegExp;
  engine?: string;
  languages: string[];
  files?: string;
  exclude?: string;
  types?: string[];
  excludeTypes?: string[];
  /** The manifest's `args`, which a hook's own replace. */
  args?: string[];
  typesOr?: string[];
}

const PYTHON = { languages: ["python"], typesOr: ["python", "pyi"] };
/** The languages prettier formats without a plug-in (poly's names). */
const PRETTIER_LANGUAGES = ["javascript", "typescript", "json", "css", "graphql", "markdown", "yaml", "html", "vue"];
/** ruff's `ruff-check` hook (`ruff check --force-exclude`). */
const RUFF_CHECK: Known = {
  tool: "ruff check",
  engine: "ruff",
  lints: true,
  languages: ["python"],
  typesOr: ["python", "pyi", "jupyter"],
};
/** scop/pre-commit-shfmt's hooks. */
const SHFMT: Known = {
  tool: "shfmt",
  engine: "shfmt",
  repos: /pre-commit-shfmt$/,
  languages: ["shell"],
  types: ["shell"],
  excludeTypes: ["csh", "tcsh"],
  args: ["--write"],
};
/** markdownlint-cli's hooks (`markdownlint`, `markdownlint-fix`). */
const MARKDOWNLINT_CLI: Known = {
  tool: "markdownlint",
  engine: "markdownlint",
  lints: true,
  repos: /markdownlint-cli$/,
  languages: ["markdown"],
  types: ["markdown"],
};
/** toml-sort's hooks leave the lock files out (since v0.24.4). */
const TOML_LOCKS = String.raw`(^|/)(uv\.lock|poetry\.lock|Cargo\.lock)$`;

/** The formatting hooks of the hook repositories poly knows, by `id`. */
export const KNOWN_HOOKS: Readonly<Record<string, Known>> = {
  "black": { tool: "black", engine: "black", ...PYTHON },
  "black-jupyter": { tool: "black", engine: "black", languages: ["python"], typesOr: ["python", "pyi", "jupyter"] },
  "ruff-format": { tool: "ruff format", engine: "ruff", languages: ["python"], typesOr: ["python", "pyi", "jupyter"] },
  "ruff-check": { ...RUFF_CHECK },
  // igorshubovych/markdownlint-cli (not the Ruby markdownlint/markdownlint's `mdl`, whose hook has the same id).
  "markdownlint": { ...MARKDOWNLINT_CLI },
  "markdownlint-fix": { ...MARKDOWNLINT_CLI },
  // scop/pre-commit-shfmt (its manifest's `args: [--write]` since v3.12.0-2; `-w -s` before).
  "shfmt": { ...SHFMT },
  "shfmt-src": { ...SHFMT },
  "shfmt-docker": { ...SHFMT },
  // pycqa/flake8: where no flake8 file governs, the style it holds is flake8's defaults and the hook's arguments.
  "flake8": { tool: "flake8", engine: "flake8", lints: true, languages: ["python"], types: ["python"] },
  // ruff-pre-commit's alias of `ruff-check`.
  "ruff": { ...RUFF_CHECK },
  "yapf": { tool: "yapf", languages: ["python"], types: ["python"] },
  "autopep8": { tool: "autopep8", languages: ["python"], types: ["python"] },
  "pretty-format-json": { tool: "pretty-format-json", languages: ["json"], types: ["json"] },
  "pyproject-fmt": { tool: "pyproject-fmt", languages: ["toml"], files: String.raw`(^|/)pyproject\.toml$` },
  "yamlfmt": { tool: "yamlfmt", languages: ["yaml"], types: ["yaml"] },
  "taplo-format": { tool: "taplo", languages: ["toml"], types: ["toml"] },
  "toml-sort-fix": { tool: "toml-sort", languages: ["toml"], types: ["toml"], exclude: TOML_LOCKS },
  "toml-sort": { tool: "toml-sort", languages: ["toml"], types: ["toml"], exclude: TOML_LOCKS },
  "mdformat": { tool: "mdformat", languages: ["markdown"], types: ["markdown"] },
  "sqlfluff-fix": { tool: "SQLFluff", languages: ["sql"], types: ["sql"] },
  "sqlfluff-lint": { tool: "SQLFluff", languages: ["sql"], types: ["sql"] },
  "pretty-format-yaml": { tool: "pretty-format-yaml", languages: ["yaml"], types: ["yaml"] },
  "pretty-format-toml": { tool: "pretty-format-toml", languages: ["toml"], types: ["toml"] },
  // `prettier --write --ignore-unknown` over every text file (pre-commit/mirrors-prettier, rbubley/mirrors-prettier).
  "prettier": { tool: "prettier", engine: "prettier", languages: PRETTIER_LANGUAGES, types: ["text"] },
};

/** A text that may hold a hook read here: a known id, or a local hook's `entry`. */
const MENTIONS = new RegExp(
  String.raw`\bentry\s*:|(?:^|[\s{,"'])(?:${Object.keys(KNOWN_HOOKS).join("|")})(?=$|[\s},"'#])`,
  "m",
);

/** A `local` hook's `entry`, by its command (after a runner such as `poetry run`): the known hook it is. */
const LOCAL_COMMANDS: Readonly<Record<string, string>> = {
  "black": "black",
  "ruff format": "ruff-format",
  "ruff check": "ruff-check",
  "yapf": "yapf",
  "autopep8": "autopep8",
  "pretty-format-json": "pretty-format-json",
  "pyproject-fmt": "pyproject-fmt",
  "yamlfmt": "yamlfmt",
  "taplo format": "taplo-format",
  "taplo fmt": "taplo-format",
  "toml-sort": "toml-sort",
  "mdformat": "mdformat",
  "sqlfluff fix": "sqlfluff-fix",
  "shfmt": "shfmt",
  "prettier": "prettier",
};

/** Commands that run another (`poetry run black`, `python -m black`): left out of a local hook's `entry`. */
const RUNNERS = [
  /^(?:poetry|pdm|hatch|pipenv|uv|rye)\s+run\s+/,
  /^uvx\s+/,
  /^python3?\s+-m\s+/,
  /^(?:npx|pnpx|bunx)\s+/,
  /^(?:pnpm|yarn)\s+(?:exec\s+)?/,
];

/** The known hook a `local` hook's `entry` runs, or undefined. */
function localKnown(entry: string): string | undefined {
  let command = entry.trim();
  for (let changed = true; changed;) {
    changed = false;
    for (const r of RUNNERS) {
      const next = command.replace(r, "");
      if (next !== command) [command, changed] = [next, true];
    }
  }
  const words = command.split(/\s+/);
  return LOCAL_COMMANDS[words.slice(0, 2).join(" ")] ?? LOCAL_COMMANDS[words[0]];
}

/** A string key of `at` (`where` names it in messages), checked as a Python regular expression when `regex`. */
function stringKey(at: Table, key: string, fallback: string, where: string, shown: string, regex = false): string {
  const v = at[key];
  if (v === undefined) return fallback;
  if (typeof v !== "string") throw new ConfigError({ file: shown }, `${where}"${key}" must be a string`);
  if (regex) {
    try {
      pythonPattern(v);
    } catch (e) {
      throw new ConfigError(
        { file: shown },
        `${where}"${key}" is not a regular expression poly can evaluate: ${(e as Error).message}`,
      );
    }
  }
  return v;
}

function listKey(at: Table, key: string, fallback: string[] | undefined, where: string, shown: string): string[] {
  const v = at[key];
  if (v === undefined) return fallback ?? [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) {
    throw new ConfigError({ file: shown }, `${where}"${key}" must be a list of strings`);
  }
  return v as string[];
}

/** Whether a hook runs only when asked for by hand (`stages: [manual]`): it holds no layout. */
function manualOnly(hook: Table, defaults: unknown): boolean {
  // An empty list is the configuration's `default_stages` (every stage when unset).
  const stages = Array.isArray(hook.stages) && hook.stages.length > 0 ? hook.stages : defaults;
  return Array.isArray(stages) && stages.length > 0 && stages.every((s) => s === "manual");
}

/** The hooks poly reads of a `.pre-commit-config.yaml`'s text; throws a ConfigError naming the file and hook. */
export async function readPreCommit(text: string, shown: string): Promise<PreCommitOptions> {
  let doc: unknown;
  // Nothing but blank lines and comments (which PyYAML reads as no document, and pre-commit refuses).
  if (/^(?:[ \t]*(?:#.*)?(?:\r?\n|$))*$/.test(text)) {
    throw new ConfigError({ file: shown }, "is empty: pre-commit expects a mapping with a `repos` list");
  }
  try {
    // As PyYAML (pre-commit's parser), a key written twice is the last one (js-yaml's `json` mode).
    doc = (await import("js-yaml")).load(text, { json: true });
  } catch (e) {
    throw parseError(e, shown);
  }
  if (!isTable(doc)) throw new ConfigError({ file: shown }, "must be a mapping with a `repos` list");
  const options: PreCommitOptions = {
    files: stringKey(doc, "files", "", "", shown, true),
    exclude: stringKey(doc, "exclude", "^$", "", shown, true),
    hooks: [],
  };
  const repos = doc.repos ?? [];
  if (!Array.isArray(repos)) throw new ConfigError({ file: shown }, '"repos" must be a list');
  for (const repo of repos) {
    if (!isTable(repo) || !Array.isArray(repo.hooks ?? [])) {
      throw new ConfigError({ file: shown }, 'each of "repos" must be a mapping with a "hooks" list');
    }
    for (const hook of (repo.hooks ?? []) as unknown[]) {
      if (!isTable(hook) || typeof hook.id !== "string") {
        throw new ConfigError({ file: shown }, `each hook of "${repo.repo}" must be a mapping with an "id"`);
      }
      const id = hook.id;
      const local = repo.repo === "local";
      const knownId = local ? (typeof hook.entry === "string" ? localKnown(hook.entry) : undefined) : id;
      let known = knownId === undefined ? undefined : KNOWN_HOOKS[knownId];
      if (known?.repos && !local && !known.repos.test(String(repo.repo).replace(/(\.git)?\/*$/, ""))) known = undefined;
      if (!known || manualOnly(hook, doc.default_stages)) continue;
      const where = `hook "${id}": `;
      // A local hook has no repository's defaults: its own keys say which files it takes.
      const base: Partial<Known> = local ? { types: ["file"] } : known;
      options.hooks.push({
        id,
        tool: known.tool,
        ...(known.engine ? { engine: known.engine } : {}),
        ...(known.lints ? { lints: true as const } : {}),
        languages: known.languages,
        files: stringKey(hook, "files", base.files ?? "", where, shown, true),
        exclude: stringKey(hook, "exclude", base.exclude ?? "^$", where, shown, true),
        types: listKey(hook, "types", base.types ?? ["file"], where, shown),
        typesOr: listKey(hook, "types_or", base.typesOr, where, shown),
        excludeTypes: listKey(hook, "exclude_types", base.excludeTypes, where, shown),
        args: listKey(hook, "args", base.args, where, shown),
        ...(typeof repo.rev === "string" && /^v?\d+\.\d+/.test(repo.rev)
          ? { version: repo.rev.replace(/^v/, "") }
          : {}),
      });
    }
  }
  return options;
}

/**
 * The tags pre-commit's `identify` gives a file: `file`, `text` (poly reads only text) and those of its name and
 * extension; for an executable file they give none of, those of the interpreter its shebang names (`#!/usr/bin/env
 * bash` → `shell`, `bash`), as identify reads it. `shebang` reads the file's first line where it is executable.
 */
export function tagsOf(path: string, shebang: (path: string) => string | undefined = readShebang): Set<string> {
  const name = basename(path);
  const tags = new Set(["file", "text"]);
  // identify looks a name up whole and by each of its dot-separated parts (`Dockerfile.xenial`), then its extension.
  for (const part of new Set([name, ...name.split(".")])) for (const t of NAME_TAGS[part] ?? []) tags.add(t);
  const dot = name.lastIndexOf(".");
  if (dot >= 0) { for (const t of EXTENSION_TAGS[name.slice(dot + 1).toLowerCase()] ?? []) tags.add(t); }
  if (tags.size === 2) { for (const t of interpreterTags(shebang(path))) tags.add(t); }
  return tags;
}

/** identify's tags by interpreter (identify/interpreters.py), for the languages poly formats. */
const INTERPRETER_TAGS: Readonly<Record<string, readonly string[]>> = {
  ash: ["shell", "ash"],
  bash: ["shell", "bash"],
  dash: ["shell", "dash"],
  ksh: ["shell", "ksh"],
  sh: ["shell", "sh"],
  zsh: ["shell", "zsh"],
  python: ["python"],
  python2: ["python", "python2"],
  python3: ["python", "python3"],
  node: ["javascript"],
  nodejs: ["javascript"],
  lua: ["lua"],
  php: ["php"],
};

/**
 * The tags of the interpreter a shebang line names (`/usr/bin/env -S python3.12 -u` → `python`, `python3`): its
 * command's name, the version dropped part by part until one is known, as identify's `tags_from_interpreter`.
 */
export function interpreterTags(line: string | undefined): readonly string[] {
  if (!line?.startsWith("#!")) return [];
  let words = line.slice(2).trim().split(/\s+/);
  if (words[0]?.endsWith("/env")) words = words[1] === "-S" ? words.slice(2) : words.slice(1);
  let name = basename(words[0] ?? "");
  while (name) {
    const tags = INTERPRETER_TAGS[name];
    if (tags) return tags;
    const dot = name.lastIndexOf(".");
    if (dot < 0) break;
    name = name.slice(0, dot);
  }
  return [];
}

/** The first line of `path` where it is an executable file, else undefined (identify reads no other's shebang). */
function readShebang(path: string): string | undefined {
  try {
    if (!hasExecutableBit(path)) return undefined;
    const file = Deno.openSync(path);
    try {
      const buffer = new Uint8Array(256);
      const n = file.readSync(buffer) ?? 0;
      return new TextDecoder().decode(buffer.subarray(0, n)).split("\n")[0];
    } finally {
      file.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * identify's tags by extension, for the languages poly formats (identify 2.6.19, identify/extensions.py: it has no
 * `jsonc`, `mts`, `cts` or `gql`, whose files carry no language tag).
 */
const EXTENSION_TAGS: Readonly<Record<string, readonly string[]>> = {
  py: ["python"],
  pyi: ["pyi"],
  ipynb: ["jupyter", "json"],
  json: ["json"],
  json5: ["json5"],
  yaml: ["yaml"],
  yml: ["yaml"],
  toml: ["toml"],
  lock: [],
  md: ["markdown"],
  markdown: ["markdown"],
  sql: ["sql"],
  js: ["javascript"],
  mjs: ["javascript"],
  cjs: ["javascript"],
  jsx: ["jsx"],
  ts: ["ts"],
  tsx: ["tsx"],
  css: ["css"],
  scss: ["scss"],
  less: ["less"],
  html: ["html"],
  htm: ["html"],
  vue: ["vue"],
  svelte: ["svelte"],
  astro: ["astro"],
  graphql: ["graphql"],
  c: ["c"],
  h: ["header", "c", "c++"],
  cc: ["c++"],
  cpp: ["c++"],
  cxx: ["c++"],
  hpp: ["header", "c++"],
  hh: ["header", "c++"],
  sh: ["shell"],
  bash: ["shell", "bash"],
  zsh: ["shell", "zsh"],
  lua: ["lua"],
  go: ["go"],
  rs: ["rust"],
  php: ["php"],
  proto: ["proto"],
  java: ["java"],
};

/** identify's tags by name (identify/extensions.py `NAMES`), for names poly formats. */
const NAME_TAGS: Readonly<Record<string, readonly string[]>> = {
  "pyproject.toml": ["toml", "pyproject"],
  "Pipfile": ["toml"],
  "uv.lock": ["toml"],
  "poetry.lock": ["toml"],
  "Cargo.lock": ["toml", "cargo-lock"],
  "Pipfile.lock": ["json"],
  ".babelrc": ["json", "babelrc"],
  "Dockerfile": ["dockerfile"],
};

/**
 * Why `hook` does not take `absPath` (the configuration's `root` the work tree's root), as pre-commit chooses a hook's
 * files, or undefined where it takes it.
 */
export function hookTakes(config: NativeEngineConfig, hook: PreCommitHook, absPath: string): string | undefined {
  const o = config.options as unknown as PreCommitOptions;
  const rel = relative(config.root, absPath).split(sep).join("/");
  if (rel.startsWith("..")) return "outside the work tree";
  const checks: [string, string, boolean][] = [
    ["the top-level files", o.files, true],
    ["the top-level exclude", o.exclude, false],
    ["its files", hook.files, true],
    ["its exclude", hook.exclude, false],
  ];
  for (const [named, source, include] of checks) {
    if (pythonPattern(source).test(rel) !== include) return `${named} "${source}"`;
  }
  const tags = tagsOf(absPath);
  if (!hook.types.every((t) => tags.has(t))) return `its types [${hook.types.join(", ")}]`;
  if (hook.typesOr.length > 0 && !hook.typesOr.some((t) => tags.has(t))) {
    return `its types_or [${hook.typesOr.join(", ")}]`;
  }
  if (hook.excludeTypes.some((t) => tags.has(t))) return `its exclude_types [${hook.excludeTypes.join(", ")}]`;
  return undefined;
}

/** The reader of the repository's pre-commit configuration (one file, at the root). */
export class PreCommitReader {
  readonly #found = new Map<string, Promise<NativeEngineConfig | undefined>>();

  constructor(private readonly files: NativeFiles, private readonly display: (path: string) => string) {}

  /** The formatting hooks of `top`'s `.pre-commit-config.yaml`, or undefined where it has none. Throws a ConfigError. */
  forRoot(top: string): Promise<NativeEngineConfig | undefined> {
    let found = this.#found.get(top);
    if (!found) this.#found.set(top, found = this.#read(top));
    return found;
  }

  async #read(top: string): Promise<NativeEngineConfig | undefined> {
    if (!(await this.files.namesIn(top)).has(PRE_COMMIT_FILE)) return undefined;
    const path = join(top, PRE_COMMIT_FILE);
    const file = await this.files.read(path);
    // Most configurations name no formatter poly reads: those are not parsed (the YAML parser's load is a cost).
    if (!MENTIONS.test(file.text)) return undefined;
    const options = await readPreCommit(file.text, this.display(path));
    if (options.hooks.length === 0) return undefined;
    return { files: [{ path: file.path, hash: file.hash }], options: { ...options }, root: top, ignoreOnly: true };
  }
}

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
const BLACK_QUIET = new Set([
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
  const name = `the "${hook.id}" hook's args`;
  // The black the hook pins: its stable style is the same within a major version (a calendar year), so black's
  // `--required-version` holds the black on PATH to that major, as black holds itself to a table's `required-version`.
  const out: Record<string, unknown> = hook.version ? { required_version: hook.version.split(".")[0] } : {};
  const at = { i: 0 };
  for (; at.i < hook.args.length; at.i++) {
    const arg = hook.args[at.i];
    if (BLACK_QUIET.has(arg)) continue;
    if (/^-[SC]+$/.test(arg)) {
      if (arg.includes("S")) out.skip_string_normalization = true;
      if (arg.includes("C")) out.skip_magic_trailing_comma = true;
    } else if (arg === "--skip-string-normalization") out.skip_string_normalization = true;
    else if (arg === "--skip-magic-trailing-comma") out.skip_magic_trailing_comma = true;
    else if (arg === "--preview") out.preview = true;
    else if (isFlag(arg, "--line-length", "-l")) {
      const flag = isFlag(arg, "--line-length", "-l")!;
      const value = flagValue(hook.args, at, flag, name, shown);
      if (!/^\d+$/.test(value)) throw new ConfigError({ file: shown }, `${name}: "${flag}" must be a whole number`);
      out.line_length = Number(value);
    } else if (isFlag(arg, "--target-version", "-t")) {
      const flag = isFlag(arg, "--target-version", "-t")!;
      out.target_version = [...(out.target_version as string[] ?? []), flagValue(hook.args, at, flag, name, shown)];
    } else if (isFlag(arg, "--config")) out.config = flagValue(hook.args, at, "--config", name, shown);
    else if (isFlag(arg, "--required-version")) {
      out.required_version = flagValue(hook.args, at, "--required-version", name, shown);
    } else if (isFlag(arg, "--workers", "-W")) flagValue(hook.args, at, isFlag(arg, "--workers", "-W")!, name, shown);
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

/** The hook of `config` that runs poly's engine `engine` as a formatter (as a linter: `lints`), or undefined. */
export function engineHook(
  config: NativeEngineConfig | undefined,
  engine: string,
  lints = false,
): PreCommitHook | undefined {
  if (!config || config.unhonoured) return undefined;
  return (config.options as unknown as PreCommitOptions).hooks.find((h) => h.engine === engine && !h.lints === !lints);
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
