/**
 * The engine contract. An engine is one backend (ruff, biome, gofmt, ...): one file
 * in `lib/engines/`, registered in `registry.ts`. Its module is loaded lazily, so a
 * run that never needs it never pays for it.
 *
 * @module
 */
import type { Diagnostic } from "../report/schema.ts";
import type { ResultCache } from "../cache/db.ts";
import type { NativeEngineConfig } from "../config/native/types.ts";

/** Languages poly recognises. Discovery maps files to one of these. */
export type Language =
  | "python"
  | "javascript"
  | "typescript"
  | "json"
  | "css"
  | "graphql"
  | "go"
  | "shell"
  | "toml"
  | "markdown"
  | "yaml"
  | "dockerfile"
  | "c"
  | "cpp"
  | "java"
  | "protobuf"
  | "sql"
  | "lua"
  | "php"
  | "html"
  | "vue"
  | "svelte"
  | "astro"
  | "svg"
  | "rust"
  | "zig"
  | "ruby"
  | "kotlin"
  | "swift"
  | "csharp"
  | "scala"
  | "unknown";

/** How an engine runs (see ARCHITECTURE.md, "Engine tiers"). */
export type Tier = "in-process" | "bundled-native" | "host";

/** What the engine can do. */
export interface Capabilities {
  lint: boolean;
  format: boolean;
  /** Lint fixes it can apply (safe ones only). */
  fix: boolean;
}

/**
 * The settings one engine gets for one file: `[defaults]` merged with the tool's
 * own `[lint.<lang>.<tool>]` or `[fmt.<lang>.<tool>]` table. It is plain JSON so it
 * can be hashed into cache keys and config fingerprints.
 */
export interface EngineSettings {
  /** `[defaults]`: line_length, line_ending ("lf" | "crlf" | "auto"), final_newline, trim_trailing_whitespace, indent_width. */
  defaults: {
    line_length: number;
    line_ending: "lf" | "crlf" | "auto";
    final_newline: boolean;
    trim_trailing_whitespace: boolean;
    indent_width?: number;
  };
  /** The tool's table, as written in poly.toml (select, ignore, rules, and engine-specific keys). */
  tool: Record<string, unknown>;
  /** Directory of the nearest config file governing the file (for paths in engine settings, e.g. rule dirs). */
  configDir?: string;
  /**
   * The engine's own configuration files governing the file (lib/config/native/): its options in the
   * upstream's shape, the files and their hashes (so part of the cache key). poly.toml's tool keys apply on top.
   */
  native?: NativeEngineConfig;
  /**
   * biome only: the nearest `package.json` (its `type` and dependency fields), which turns on biome's
   * domain rules as on biome's command line; its file and hash are part of the cache key.
   */
  manifest?: NativeEngineConfig;
  /**
   * The hooks of the repository's `.pre-commit-config.yaml` that concern this engine's files of the language, for its
   * formatting or its linting (lib/config/native/pre_commit.ts; `options.language` and `options.kind` name them): the
   * engine's own hook, and, formatting, those of formatters poly does not run that keep the files they take from it
   * (lib/run/plan.ts).
   */
  hooks?: NativeEngineConfig;
  /** The `[rules]` table (for the structural-rules engine). */
  rules?: Record<string, unknown>;
}

/** A batch call's result for one file: its output, or the error for that file alone. */
export type Settled<T> = T | Error;

/** `fn()`'s value, or what it threw as an Error: one file's {@link Settled} result. */
export function settle<T>(fn: () => T): Settled<T> {
  try {
    return fn();
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

/** Milliseconds of work between two yields of a {@link pauser}. */
const PAUSE_EVERY_MS = 25;

/**
 * A function to await in a long synchronous loop while a native batch runs: it
 * yields to the event loop once per 25 ms of work, so the process's output is
 * read as it comes — a pipe left unread fills and stalls the process (64 KB of
 * findings, while the loop works on; each yield costs a timer, and every 10 ms
 * measured ~2% slower on the rules bench). Between
 * yields it returns undefined: callers await only a promise
 * (`const p = pause(); if (p) await p;`), since awaiting undefined would still
 * cost a microtask per iteration of a loop over thousands of files.
 */
export function pauser(): () => Promise<void> | undefined {
  let last = performance.now();
  return () => {
    const now = performance.now();
    if (now - last < PAUSE_EVERY_MS) return undefined;
    last = now;
    return new Promise((resolve) => setTimeout(resolve, 0)).then(() => {
      last = performance.now();
    });
  };
}

/** One group of {@link EngineInstance.startLintGroups}: files not read yet, and their settings. */
export interface BatchGroup {
  files: readonly Omit<SourceFile, "text">[];
  settings: EngineSettings;
}

/** A batch started before its files were read ({@link EngineInstance.startLintMany}). */
export interface StartedBatch<T> {
  /**
   * The results for `files` (as read since: any subset of the started ones, in
   * any order), as the engine's `lintMany` would give them. Call it once, with
   * no files to only wait for the batch and release what it holds.
   */
  finish(files: SourceFile[]): Promise<Settled<T>[]>;
  /**
   * Settles once the batch's work is under way (its process spawned, or queued
   * behind the engine's limit on processes), when getting there takes asynchronous
   * steps: the caller waits for it before it blocks its thread reading files.
   * Never rejects.
   */
  ready?: Promise<void>;
  /**
   * The text of one of the started files, as soon as the caller has read it
   * (before `finish`): an engine that waits for some texts may start on them.
   */
  offer?(file: SourceFile): void;
}

/** One file handed to an engine. */
export interface SourceFile {
  /** Absolute path on disk. */
  path: string;
  /** Path relative to the run's root, with `/` separators: what reports show. */
  relPath: string;
  language: Language;
  text: string;
}

/** Result of linting one file with one engine. */
export interface LintOutput {
  diagnostics: Diagnostic[];
  /**
   * What of the engine's own checks did not run on this file, its findings being the rest (deno lint without the
   * repository's lint plugins): reported as the file's skip, so the file is not called wholly clean.
   */
  partial?: string;
}

/**
 * For a batch fix: what the engine's `lint` gives for each file's text as read, under the settings it fixes with,
 * where the caller knows it (a check of the same text cached); an engine that counts its fixes by the findings they
 * remove takes the count from it rather than linting the text again.
 */
export type Linted = readonly (LintOutput | undefined)[];

/** One group of a batch fix ({@link EngineInstance.fixGroups}): files under one settings object. */
export interface FixGroup {
  files: SourceFile[];
  settings: EngineSettings;
  linted?: Linted;
}

/** Result of linting one file with fixes applied. */
export interface FixOutput {
  /** The file's text after the engine's safe fixes; equal to the input when none applied. */
  text: string;
  /** Number of fixes applied. */
  fixed: number;
  /**
   * The findings in `text` under the same settings, when the engine found them on the way (what `lint` would give for
   * that text): the pipeline does not lint the text again.
   */
  lint?: LintOutput;
}

/**
 * An engine failed on a file it accepted (a crash, bad engine config). Becomes an
 * errored record, never a crash of the run. Its subclass {@link SourceSyntaxError}
 * is the user's syntax error, which is a diagnostic instead.
 */
export class EngineError extends Error {
  readonly line?: number;
  readonly column?: number;
  constructor(message: string, position: { line?: number; column?: number } = {}) {
    // Never an errored record without a reason: an engine that says nothing is named as such.
    super(message.trim() ? message : "the engine failed without giving a reason");
    this.name = "EngineError";
    this.line = position.line;
    this.column = position.column;
  }
}

/**
 * A WebAssembly engine crashed on the file (a trap, or its stack overflowed: see
 * `wasmCall` in module.ts). `repeated` when a new instance of the module crashed on
 * the same text too ({@link againOnCrash}): then the crash is the file's (its text,
 * the settings and the engine's version decide it), and is cached like findings;
 * a single crash may have been the old instance's state, and is not.
 */
export class EngineCrash extends EngineError {
  /** `detail`: the panic's message, or the trap's. */
  constructor(readonly engine: string, readonly detail: string, readonly repeated = false) {
    super(crashMessage(engine, detail, repeated));
    this.name = "EngineCrash";
  }
}

/** What an engine's crash on a file is called: once (the next files get a new instance), or twice (remembered). */
function crashMessage(engine: string, detail: string, repeated: boolean): string {
  return repeated
    ? `${engine} crashed on this file twice (${detail}), the second time in a new instance of its WebAssembly ` +
      `module, so it is not checked; the crash is remembered for this text and these settings until ${engine} ` +
      `changes (--no-cache runs it again)`
    : `${engine} crashed on this file (${detail}), so it is not checked; the next files get a new instance of ` +
      `${engine}'s WebAssembly module`;
}

/**
 * `attempt`, and once more when it crashes ({@link EngineCrash}: the crash discarded
 * the module, so the second attempt runs in a new instance). A second crash is
 * thrown as repeated; a second attempt that succeeds is the result (the first crash
 * was the old instance's: memory grown over the files before, say).
 */
export async function againOnCrash<T>(attempt: () => T | Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (e) {
    if (!(e instanceof EngineCrash) || e.repeated) throw e; // repeated: an inner call has tried twice already
  }
  try {
    return await attempt();
  } catch (e) {
    throw e instanceof EngineCrash ? new EngineCrash(e.engine, e.detail, true) : e;
  }
}

/**
 * A syntax error in the user's file, found by the engine: not a failure of
 * poly's but a finding. The pipeline reports its {@link SourceSyntaxError.diagnostics}
 * (error severity, the engine's own code: biome's `parse`, ruff's
 * `invalid-syntax`, shellcheck's `SC1073`, `syntax` where the engine has none),
 * so the run exits 1 as the native tool would, and caches it like findings
 * (the same bytes give the same error).
 */
export class SourceSyntaxError extends EngineError {
  /** The error's diagnostics, the first one in the text first (an engine may report several). */
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: [Diagnostic, ...Diagnostic[]]) {
    const first = diagnostics[0];
    const line = first.span?.start_line;
    const column = first.span?.start_col;
    super(`syntax error${line !== undefined ? ` at ${line}:${column}` : ""}: ${first.title}`, { line, column });
    this.name = "SourceSyntaxError";
    this.diagnostics = diagnostics;
  }
}

/**
 * The diagnostic of one syntax error at a 1-based line and column (UTF-16),
 * for {@link SourceSyntaxError}. `end` defaults to the start (a point).
 */
export function syntaxDiagnostic(
  engine: string,
  code: string,
  title: string,
  at: { line: number; column: number },
  end: { line: number; column: number } = at,
): Diagnostic {
  return {
    engine,
    code,
    severity: "error",
    title,
    span: { start_line: at.line, start_col: at.column, end_line: end.line, end_col: end.column },
  };
}

/**
 * The engine declines a file by its own rules (biome does not check files under
 * `node_modules/`): the file is skipped with the engine's reason, never
 * errored, and the decision is cached like findings (it depends only on the
 * file and the engine).
 */
export class EngineRefusal extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "EngineRefusal";
  }
}

/**
 * A failure common to a whole module or package (the host Go is older than
 * `go.mod` asks for, `go.mod` does not parse): reported once for `scope` (an
 * absolute path, e.g. the `go.mod`) with the cause and the fix, while each of
 * its files is skipped with the short `message`. Never cached: installing a
 * newer toolchain must change the answer.
 */
export class SharedFailure extends Error {
  /** Absolute path of what failed (a `go.mod`). */
  readonly scope: string;
  /** The run-level message: the cause and what to do. */
  readonly detail: string;
  constructor(scope: string, detail: string, message: string) {
    super(message);
    this.name = "SharedFailure";
    this.scope = scope;
    this.detail = detail;
  }
}

/**
 * A loaded engine. Methods throw {@link EngineError} for a file they cannot process.
 * `lint` returns diagnostics; `fix` returns new text; `format` returns the formatted text.
 */
export interface EngineInstance {
  lint?(file: SourceFile, settings: EngineSettings): Promise<LintOutput> | LintOutput;
  /**
   * A {@link SourceSyntaxError} from `fix` (or a batch fix's result) says the text as read does not parse, an
   * {@link EngineRefusal} that the engine takes no such file; either is what `lint` throws for that text under the same
   * settings: a file that does not parse is not fixed.
   */
  fix?(file: SourceFile, settings: EngineSettings): Promise<FixOutput> | FixOutput;
  format?(file: SourceFile, settings: EngineSettings): Promise<string> | string;
  /**
   * Lints many files with equal settings in one call (one native process per
   * batch, say). Results come back in input order; a file the engine cannot
   * process gets its error (an {@link EngineError}) and does not fail the others. The
   * pipeline calls it only in check runs (no fixes), where each file's `text` is
   * exactly the bytes at its `path` as read a moment before, so a native tool may
   * read the files itself.
   */
  lintMany?(files: SourceFile[], settings: EngineSettings): Promise<Settled<LintOutput>[]>;
  /** Formats many files with equal settings in one call; as {@link EngineInstance.lintMany}. */
  formatMany?(files: SourceFile[], settings: EngineSettings): Promise<Settled<string>[]>;
  /**
   * Fixes many files with equal settings in one call (`poly lint --fix`), each
   * as `fix` would; as {@link EngineInstance.lintMany}, except that the texts
   * are the engine's to fix, never read from the files' paths.
   */
  fixMany?(files: SourceFile[], settings: EngineSettings, linted?: Linted): Promise<Settled<FixOutput>[]>;
  /**
   * Several groups' {@link EngineInstance.fixMany} at once: the engine may fix groups whose settings differ only in
   * what needs no process of its own in one (biome: a monorepo's packages, each with its own manifest). One list of
   * results per group, in their order.
   */
  fixGroups?(groups: readonly FixGroup[]): Promise<Settled<FixOutput>[][]>;
  /**
   * Starts a {@link EngineInstance.lintMany} over files not read yet (a native
   * process reading them itself), so a cold check run reads and hashes its files
   * while the engine works. The pipeline calls it only when it expects every one
   * of them to miss the cache.
   */
  startLintMany?(files: readonly Omit<SourceFile, "text">[], settings: EngineSettings): StartedBatch<LintOutput>;
  /**
   * Starts several groups' {@link EngineInstance.startLintMany} at once: the engine
   * may lint groups whose settings differ only in what needs no process of its own
   * in one (biome: a monorepo's packages, each with its own manifest). One started
   * batch per group, in their order.
   */
  startLintGroups?(groups: readonly BatchGroup[]): StartedBatch<LintOutput>[];
  /**
   * Loads what a batch with these settings will need (modules, the rule set), so
   * that a run can do it while discovery still waits on the file system.
   */
  prepare?(settings: EngineSettings): Promise<void>;
  /**
   * Whether its in-process path is loaded in this process, so that a handful of
   * files lint here sooner than a new native process starts (a resident poly).
   */
  warm?(): boolean;
  /** Loads its in-process path ahead of use (a resident poly, when idle). */
  prewarm?(): Promise<void>;
}

/** What happened to a path a resident process heard of: a file made, its bytes changed, or removed. */
export type FileChange = "create" | "modify" | "remove";

/**
 * A registered engine: static facts plus a lazy loader. Documented where defined:
 * what it checks, its tier, its languages and the config keys it reads.
 */
export interface EngineSpec {
  /** Stable id, also the `<tool>` in `[lint.<lang>.<tool>]` (e.g. "ruff", "biome"). */
  id: string;
  tier: Tier;
  /** Languages it lints. */
  lintLanguages: readonly Language[];
  /** Languages it formats. */
  formatLanguages: readonly Language[];
  capabilities: Capabilities;
  /** Upstream package and version it wraps, e.g. "@astral-sh/ruff-wasm-nodejs 0.17.3". */
  upstream: string;
  /**
   * Whether it runs without being named in poly.toml. Opt-in engines (oxlint) run
   * only when `[lint.<lang>.<id>]` exists.
   */
  defaultEnabled: boolean;
  /**
   * Files whose bytes are the engine (wasm modules, JS glue): hashed into the
   * identity's engine digest. Resolved lazily; empty for host tools.
   */
  moduleUrls(): Promise<string[]>;
  /** For host tools: the program looked up on PATH. */
  hostProgram?: string;
  /**
   * For host tools: the environment variables the program reads that change its
   * results (`SHELLCHECK_OPTS`); the program inherits them, so their values are
   * part of its cached results' key (lib/identity/engines.ts `engineCacheVersion`).
   */
  hostEnv?: readonly string[];
  /**
   * Cross-cutting engines (structural rules) run on every file of a language they
   * have rules for, alongside the language's own engines, and do not by themselves
   * count as "an engine for this language".
   */
  crossCutting?: boolean;
  /**
   * Its fixes are exactly the `fix` edits its findings carry (the rule pack): a text whose findings carry none is
   * left as it is, so a lint fix run may take a batch lint of the text for its fix.
   */
  fixesFindings?: boolean;
  /**
   * What a cached result depends on besides the file, the engine version and its
   * settings (e.g. the digest of rule files the settings point to). Part of the cache key.
   */
  cacheSalt?(settings: EngineSettings): Promise<string>;
  /**
   * What one file's cached result depends on besides its own bytes (e.g. go vet:
   * the other files of its package or module). Part of that file's cache key.
   * `run` identifies the run asking (an engine may remember answers within one
   * run, never across runs: a long-lived server sees the files change). `index`
   * is the cache whose stat index may tell the digests of files unchanged since
   * poly last read them.
   */
  cacheContext?(file: SourceFile, settings: EngineSettings, run?: string, index?: ResultCache): Promise<string>;
  /**
   * With {@link cacheContext}: whether a change to the file at `path` can change
   * another file's context (go vet: a `.go` file, `go.mod`, `go.sum`). A resident
   * process that watches the tree (`poly daemon`) re-checks results whose context
   * such a change may touch; absent, it assumes any change does. `change`: what
   * happened to the path, when known (a file made, its bytes changed, or removed).
   */
  contextFiles?(path: string, change?: FileChange): boolean;
  /**
   * Whether `selector`, as the engine's own configuration names rules (ruff's `per-file-ignores`), selects the rule
   * `code`: ruff's `D` is pydocstyle's and not flake8-datetimez's `DTZ005`. Absent: `code` equals the selector or starts
   * with it (poly's own `[per-file-ignores]`).
   */
  selects?(selector: string, code: string): boolean;
  /**
   * What the engine lacks to run under `settings` besides its host program (`poly doctor` says it, with how to get
   * it): the eslint engine's bubblewrap, and the ESLint the repository installs. Undefined when nothing.
   */
  unavailable?(settings: EngineSettings): Promise<{ missing: string; install: string } | undefined>;
  /**
   * Its instance implements `lintMany` / `formatMany` / `fixMany`, and a run hands it all of
   * its files at once rather than one per worker task.
   */
  batch?: { lint?: boolean; format?: boolean; fix?: boolean };
  /** Loads (once per process or worker) and returns the engine. */
  load(): Promise<EngineInstance>;
}

/**
 * An engine cannot run here at all (a host tool missing from PATH). Files it
 * would have handled are skipped with this reason — never reported clean.
 */
export class EngineUnavailableError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "EngineUnavailableError";
  }
}
