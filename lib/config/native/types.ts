/**
 * Types of the native-configuration layer: what an engine's own config files
 * (`ruff.toml`, `biome.json`, `.prettierrc`, `.editorconfig`) contribute to one
 * directory's effective configuration.
 *
 * @module
 */

/** One native file that governed a result: its absolute path and the SHA-256 of its bytes. */
export interface NativeSource {
  path: string;
  /** 16 hex digits of SHA-256 over the file's bytes (part of every cache key through the settings). */
  hash: string;
}

/** A glob from a native file, made absolute against the directory it is relative to. */
export interface NativePattern {
  /** The glob as written (without a leading `!`). */
  pattern: string;
  /** Absolute directory the glob is relative to (the native file's directory). */
  base: string;
  /** Written with a leading `!` (ruff per-file-ignores: the codes apply to files NOT matching). */
  negated?: boolean;
  /** Rule codes (per-file ignores only). */
  codes?: string[];
  /** A Python version, `py37` to `py314` (ruff's `per-file-target-version` only). */
  version?: string;
}

/**
 * What an engine's native configuration contributes for one directory. Plain
 * JSON: it is part of the engine's settings, hence of the cache key.
 */
/** A release of a formatter the repository formats with whose layout poly's does not keep (see `otherRelease`). */
export interface OtherRelease {
  /** The tool (or part of one: `dprint's json plugin`) as the reason names it. */
  tool: string;
  /** Its release or range. */
  spec: string;
  /** Where the repository names it, for the reason. */
  from: string;
  /** How poly's differs, for the reason. */
  clause: string;
}

export interface NativeEngineConfig {
  /** The files it was assembled from, farthest first (an `extend`/`extends` base before its child). */
  files: NativeSource[];
  /** The engine's options in the upstream's own shape (ruff's Options, biome's Configuration). */
  options: Record<string, unknown>;
  /** The directory the configuration's relative paths are relative to (the governing file's directory). */
  root: string;
  /** Files the configuration keeps from this engine, by kind ("lint", "fmt" or "all"). */
  exclude?: { all?: NativePattern[]; lint?: NativePattern[]; fmt?: NativePattern[] };
  /** Files the engine takes at all (ruff's `include`): a file matching none is kept from it. */
  include?: NativePattern[];
  /** ruff's `per-file-ignores` (and `extend-per-file-ignores`). */
  perFileIgnores?: NativePattern[];
  /** ruff's `per-file-target-version`, in the order written: the first that matches a file gives its version. */
  perFileTarget?: NativePattern[];
  /**
   * The files the configuration keeps from the formatter: gitignore patterns relative to `root`, by the file that
   * lists them (oxfmt's `ignorePatterns` in its config file, a `.prettierignore` beside prettier's or oxfmt's file).
   */
  formatIgnore?: { file: string; patterns: string[] }[];
  /**
   * clang-format: the nearest `.clang-format-ignore` (its path, absolute) and its patterns, matched as clang-format's
   * command line matches them (lib/config/native/clang_format_ignore.ts).
   */
  clangFormatIgnore?: { file: string; patterns: string[] };
  /** The files the configuration keeps from the linter: gitignore patterns relative to `root` (oxlint's `ignorePatterns`). */
  lintIgnore?: { file: string; patterns: string[] }[];
  /**
   * markdownlint-cli2's `ignores` (lib/config/native/markdownlint.ts, `markdownlintExcluded`): the files they keep from
   * markdownlint, at most one list of each kind: the root's file search's (`search`) and its configuration folder's.
   */
  markdownlintIgnores?: MarkdownlintIgnores[];
  /**
   * Set when the options are a prettier-compatible tool's (prettier, oxfmt) mapped onto biome: that tool reads a
   * file's `.editorconfig` beneath them, except for the options its file sets at its top level (`explicit`).
   */
  style?: { tool: "prettier" | "oxfmt"; explicit: string[] };
  /**
   * Set when the options are a `deno.json`'s `fmt` or `lint` (lib/config/native/deno.ts): dprint formats under them as
   * `deno fmt` does, `deno lint` lints under them; `include` and `exclude.fmt` / `exclude.lint` are Deno's paths.
   */
  deno?: true;
  /**
   * ruff: the module names found in its `src` folders and added to isort's `known-first-party` (lib/config/native/ruff.ts,
   * `withFirstParty`). ruff looks at its standard-library list before `src`, so the engine takes those it knows as
   * standard out again (lib/engines/ruff/mod.ts); a name the configuration lists itself is never one of these.
   */
  sourceModules?: string[];
  /** ruff: the `src` folders (absolute, globs expanded), where {@link sourceModules} were found. */
  sourceDirs?: string[];
  /**
   * Set when the options are a `dprint.json`'s (lib/config/native/dprint.ts): its global keys, the sections of the
   * plugins it lists that poly runs, the languages of the others; `include` and `exclude.fmt` are its globs.
   */
  dprint?: true;
  /**
   * Set when the options (a prettier-compatible tool's) could not be mapped onto this engine: what says why. Raised
   * only where the engine formats under them (an errored record), so its linting is not stopped by its formatter's
   * options.
   */
  unmapped?: string;
  /**
   * Set when the engine's own governing file (biome's, oxlint's, a `deno.json`) cannot be honoured — a key poly cannot
   * apply, a file that does not parse: what says why, naming file and key. Every file the engine lints or formats
   * under it is an errored record saying so, and the run's other files go on.
   */
  unhonoured?: string;
  /**
   * Set when the files found only keep files from the engine (`.styluaignore` without a `stylua.toml`): `options` are
   * not the engine's, so poly's `[defaults]` and the `.editorconfig` still apply as where no file governs.
   */
  ignoreOnly?: true;
  /**
   * Set where the files found name a tool poly does not run that keeps the language's style (PHP-CS-Fixer's, Laravel
   * Pint's, PHP_CodeSniffer's file, or a `composer.json` requiring one, where no `mago.toml` governs): the tool and where
   * it was found. lib/run/plan.ts leaves such files unformatted, saying so, unless poly.toml names the formatter
   * (`ignoreOnly` is set too: the engine then formats under poly's `[defaults]`).
   */
  keptBy?: string;
  /**
   * Set where a hook of the repository's `.pre-commit-config.yaml` runs the engine (black's `black`, ruff's
   * `ruff-format` and `ruff-check`, shfmt's, markdownlint-cli's: lib/config/native/pre_commit.ts): the hook's id. Where
   * no file of the engine's own governs, the engine's own defaults apply beneath the hook's arguments, not poly's
   * `[defaults]`, as the hook runs it.
   */
  hook?: string;
  /**
   * Set where the repository formats with a release of the engine whose layout poly's does not keep (a prettier file
   * under another prettier than poly's, a `ruff-format` hook pinning a ruff of another year's style guide, a
   * clang-format hook another LLVM major): the tool and release, where it is named, and how poly's differs, for the
   * reason lib/run/plan.ts gives.
   */
  otherRelease?: OtherRelease;
  /**
   * The same, per part of an engine whose parts have releases of their own: dprint's plugins, by name (`json`, the
   * repository's `dprint.json` naming `json-0.23.0.wasm` where poly runs 0.24.0).
   */
  otherReleases?: Record<string, OtherRelease>;
  /**
   * Set when the engine reads the `.editorconfig` over these options, as StyLua does over its hook's flags where no
   * `stylua.toml` governs (lib/run/plan.ts): the options govern otherwise (no `[defaults]`).
   */
  readsEditorconfig?: true;
  /** Where each effective key came from (dotted key → file path), for `poly config show`. */
  origins?: Record<string, string>;
}

/** One list of markdownlint-cli2's `ignores`, as {@link NativeEngineConfig.markdownlintIgnores} keeps it. */
export interface MarkdownlintIgnores {
  /** The `.markdownlint-cli2.*` that lists them (absolute). */
  file: string;
  /** The folder the globs are matched relative to (absolute): the root for the search, else the configuration's. */
  base: string;
  /** The globs as written; for the search, a glob naming an existing folder made its `/**` (globby's). */
  patterns: string[];
  /** The root's list as markdownlint-cli2's file search applies it (fast-glob's `ignore`), else as `lintFiles` does. */
  search?: true;
}

/** The native layer of one directory: by engine id. */
export type NativeLayer = Record<string, NativeEngineConfig>;
