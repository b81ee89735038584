/**
 * One file through its engines: read and classify, lint (or fix, or format),
 * write when fixing (through `replaceFile()`, which leaves alone a file that
 * changed since it was read or lies outside the run's roots), and return one
 * outcome. Runs in a worker or on the main thread; it never throws for a
 * problem with the file itself.
 *
 * @module
 */
import { dirname } from "node:path";
import { fromStored, openCache, type ResultCache, throughCache, verdictOf } from "../cache/mod.ts";
import type { Namespace } from "../cache/key.ts";
import { readCandidate, type ReadOutcome } from "../discover/content.ts";
import { engineById, loadEngine } from "../engines/registry.ts";
import {
  EngineError,
  EngineRefusal,
  type EngineSettings,
  type EngineSpec,
  EngineUnavailableError,
  type FixOutput,
  type Language,
  type LintOutput,
  SharedFailure,
  type SourceFile,
  SourceSyntaxError,
} from "../engines/types.ts";
import { type FileStamp, replaceFile, WriteRefusedError } from "../fs/atomic.ts";
import { templateReason } from "../engines/templates.ts";
import type { Diagnostic, FileResult, RunError } from "../report/schema.ts";
import { formatDiff } from "../report/diff.ts";
import type { EnginePlan } from "./plan.ts";
import { unhonouredBy } from "../engines/settings.ts";

/** Everything a worker needs to process one file (plain data: it crosses a postMessage). */
export interface FileTask {
  path: string;
  relPath: string;
  language: Language;
  kind: "lint" | "fmt";
  fix: boolean;
  engines: EnginePlan[];
  /** Why the language has no engine of its own (the file is reported skipped). */
  noEngine?: string;
  /** Diagnostic codes silenced by `[per-file-ignores]` for this file. */
  ignoreCodes: string[];
  /**
   * Codes an engine's own configuration silences for this file (ruff's `per-file-ignores`), by engine id:
   * they apply to that engine's findings only (`ALL` to all of them) and are not fixed either.
   */
  engineIgnores?: Record<string, string[]>;
  maxSize: number;
  /**
   * `[defaults] line_ending` for formatted output; "keep" when the formatter's
   * own configuration file governs it (its output's line endings stand).
   */
  lineEnding: "lf" | "crlf" | "auto" | "keep";
  /** Index into the report's configs (omitted when 0). */
  config?: number;
  /** The result cache to use (absent with --no-cache or `[cache] enabled = false`). */
  cache?: { anchor: string; root?: string; build: string; runId: string };
  /** With `fix`: write nothing, return the new text in the outcome's `proposed`. */
  preview?: boolean;
  /** The file's text, already read by the run's pre-pass (then it is not read again). */
  text?: string;
  /** The stamp of the stat taken before `text` was read: a rewrite checks the file is still so. */
  stamp?: FileStamp;
  /**
   * With `fix`: the directories a rewrite must stay in once links are resolved
   * (the run's root; see {@link replaceFile}). Absent: the file's own directory.
   */
  writeRoots?: string[];
  /** Engine results the pre-pass already has (from the cache or a batch call), by engine id. */
  known?: Record<string, Known>;
  /** The pre-pass looked these engines' results up in the cache and missed (so they are not looked up again). */
  missed?: string[];
  /**
   * A lint fix run: what the pre-pass's batch made of an engine's fixes to `text` (the file's first engine that
   * fixes), by engine id: the fix, and the findings left in the fixed text, when the batch found them under the
   * settings the engine lints with.
   */
  fixes?: Record<string, { fix: Known; lint?: Known }>;
}

/**
 * One engine's result for one file, found before the file reached its task: a
 * value (or a cached verdict, see `cache/engine.ts`), an error, a skip, or a
 * failure shared by its whole module.
 */
export type Known =
  | { value: unknown }
  | { error: string }
  | { unavailable: string }
  | { shared: { scope: string; detail: string; reason: string } };

/** The {@link Known} form of a thrown engine error. */
export function knownError(error: unknown): Known {
  const verdict = verdictOf(error);
  if (verdict) return { value: verdict };
  if (error instanceof SharedFailure) {
    return { shared: { scope: error.scope, detail: error.detail, reason: error.message } };
  }
  return error instanceof EngineUnavailableError ? { unavailable: error.message } : { error: describe(error) };
}

/** The value of a known result, or throws what the engine threw (the caller sorts skips from errors). */
function unwrap<T>(known: Known): T {
  if ("value" in known) return fromStored<T>(known.value);
  if ("unavailable" in known) throw new EngineUnavailableError(known.unavailable);
  if ("shared" in known) throw new SharedFailure(known.shared.scope, known.shared.detail, known.shared.reason);
  throw new KnownFailure(known.error);
}

/** An engine error found by the pre-pass, already described. */
class KnownFailure extends Error {}

const caches = new Map<string, Promise<ResultCache>>();

/** The result cache of a task, opened once per thread (undefined when the task has none). */
export function cacheFor(task: FileTask): Promise<ResultCache> | undefined {
  if (!task.cache) return undefined;
  const key = `${task.cache.anchor}\0${task.cache.root ?? ""}`;
  let cache = caches.get(key);
  if (!cache) {
    cache = openCache({
      anchor: task.cache.anchor,
      root: task.cache.root,
      build: task.cache.build,
      runId: task.cache.runId,
    });
    caches.set(key, cache);
  }
  return cache;
}

/** Closes every cache this thread opened (flushing writes) and returns their hits and misses. */
export async function closeCaches(): Promise<{ hits: number; misses: number }> {
  const total = { hits: 0, misses: 0 };
  for (const pending of caches.values()) {
    const cache = await pending;
    for (const c of Object.values(cache.counters())) {
      total.hits += c.hits;
      total.misses += c.misses;
    }
    cache.close();
  }
  caches.clear();
  return total;
}

/** Runs one engine step through the cache when there is one. */
async function cached<T>(
  task: FileTask,
  namespace: Namespace,
  plan: EnginePlan,
  file: SourceFile,
  compute: () => Promise<T> | T,
): Promise<T> {
  const cache = await cacheFor(task);
  if (!cache) return await compute();
  const lookup = !task.missed?.includes(plan.id);
  return await throughCache(cache, namespace, engineById(plan.id)!, file, plan.settings, compute, { lookup });
}

/** An engine's fixes to a text as the result cache keeps them (namespace `fix`): the text only when they change it. */
export type StoredFix = { text?: string; fixed: number };

/** What a fix result is kept as: `text` only when the fixes changed `before` (the findings on the way are not kept). */
export function storedFix(before: string, out: FixOutput): StoredFix {
  return out.fixed > 0 && out.text !== before ? { text: out.text, fixed: out.fixed } : { fixed: 0 };
}

/**
 * The settings `plan`'s engine fixes `task`'s file under: codes silenced for the file ([per-file-ignores], ruff's own
 * per-file-ignores) are not fixed either.
 */
export function fixSettings(task: FileTask, plan: EnginePlan): EngineSettings {
  const silenced = [...task.ignoreCodes, ...(task.engineIgnores?.[plan.id] ?? [])];
  return silenced.length === 0 ? plan.settings : {
    ...plan.settings,
    tool: { ...plan.settings.tool, ignore: [...(plan.settings.tool.ignore as string[] ?? []), ...silenced] },
  };
}

/**
 * An engine's fixes to `file` under `settings`, through the result cache like its findings (namespace `fix`, keyed by
 * the text, the settings and the engine): the fixed text, or only `fixed: 0` when the fixes change nothing. The engine
 * loads only on a miss, so a `poly lint --fix` over files fixed before loads none.
 */
async function fixed(
  task: FileTask,
  spec: EngineSpec,
  file: SourceFile,
  settings: EngineSettings,
): Promise<StoredFix & { lint?: LintOutput }> {
  let lint: LintOutput | undefined;
  const compute = async () => {
    const engine = await loadEngine(spec);
    if (!engine.fix) return { fixed: 0 };
    const out = await engine.fix(file, settings);
    lint = out.lint;
    return storedFix(file.text, out);
  };
  const cache = await cacheFor(task);
  const stored = cache ? await throughCache(cache, "fix", spec, file, settings, compute) : await compute();
  return lint ? { ...stored, lint } : stored;
}

/** What happened to one file. */
export interface FileOutcome {
  relPath: string;
  /** At least one engine checked the file without error. */
  checked: boolean;
  /** The per-file record, when there is one (findings, a fix, a change, a skip or an error). */
  record?: FileResult;
  skip?: string;
  error?: string;
  /**
   * Failures common to the file's whole module (see {@link SharedFailure}), each
   * reported once by the run however many files share it; `path` is absolute.
   */
  shared?: RunError[];
  /** A preview run's change to this file (nothing was written). */
  proposed?: { before: string; after: string };
}

/** The outcome of a file that could not be processed at all (cancelled, a crashed worker). */
export function failed(task: FileTask, error: string): FileOutcome {
  return { relPath: task.relPath, checked: false, error, record: { path: task.relPath, error } };
}

/** An engine failure as an errored record's reason: never empty. */
function describe(error: unknown): string {
  if ((error instanceof EngineError || error instanceof KnownFailure) && error.message.trim()) return error.message;
  const name = error instanceof Error && !["Error", "EngineError"].includes(error.name) ? error.name : "";
  const message = error instanceof Error ? (error.message.trim() || name) : String(error).trim();
  return `engine crashed: ${message || "it gave no reason"}`;
}

/** Whether the engine's own per-file ignores (ruff's `per-file-ignores`) silence `d`, as the engine reads them. */
function engineIgnored(d: Diagnostic, ignores: Record<string, string[]> | undefined): boolean {
  const codes = ignores?.[d.engine];
  if (!codes) return false;
  if (codes.includes("ALL")) return true;
  const selects = engineById(d.engine)?.selects;
  return selects ? d.code !== undefined && codes.some((c) => selects(c, d.code!)) : ignored(d, codes);
}

function ignored(d: Diagnostic, codes: string[]): boolean {
  return d.code !== undefined && codes.some((c) => d.code === c || d.code!.startsWith(c) || d.code!.endsWith("/" + c));
}

function withLineEnding(text: string, original: string, mode: "lf" | "crlf" | "auto" | "keep"): string {
  if (mode === "keep") return text;
  const crlf = mode === "crlf" || (mode === "auto" && /\r\n/.test(original.slice(0, 4096)));
  const lf = text.replace(/\r\n/g, "\n");
  return crlf ? lf.replace(/\n/g, "\r\n") : lf;
}

/** A task's record before any finding: its path, and its config's index when not the first. */
function baseRecord(task: FileTask): FileResult {
  return { path: task.relPath, ...(task.config ? { config: task.config } : {}) };
}

/**
 * What reading a task's file gave: its text, or the finished outcome of a file
 * that is skipped (too large, binary, a template dialect) or cannot be read.
 * The one classification for the worker path and the pre-pass.
 */
export function classifyRead(task: FileTask, read: ReadOutcome): { text: string } | { outcome: FileOutcome } {
  if ("error" in read) {
    return {
      outcome: {
        relPath: task.relPath,
        checked: false,
        error: read.error,
        record: { ...baseRecord(task), error: read.error },
      },
    };
  }
  const skip = "skip" in read ? read.skip : templateReason(task.relPath, read.text, task.kind);
  if (skip !== undefined) {
    return { outcome: { relPath: task.relPath, checked: false, skip, record: { ...baseRecord(task), skipped: skip } } };
  }
  // Most files: the read itself ({ text, bytes }), no other object made.
  return read as { text: string };
}

/** The cache namespace of one engine's result for a task. */
export function namespaceOf(kind: FileTask["kind"], spec: EngineSpec): Namespace {
  return kind === "fmt" ? "fmt" : spec.crossCutting ? "rules" : "lint";
}

/** Processes one file; see the module doc. A task with `text` was read and classified by the pre-pass. */
export async function processFile(task: FileTask): Promise<FileOutcome> {
  let text = task.text;
  if (text === undefined) {
    const raw = await readCandidate(task.path, task.maxSize, { language: task.language });
    const read = classifyRead(task, raw);
    if ("outcome" in read) return read.outcome;
    text = read.text;
    if ("stamp" in raw) task = { ...task, stamp: raw.stamp };
  }
  const file: SourceFile = { path: task.path, relPath: task.relPath, language: task.language, text };
  return task.kind === "lint" ? await lintFile(task, file) : await formatFile(task, file);
}

/** What a lint check gathers from its engines, and the outcome it makes of it. */
class LintTally {
  fixed = 0;
  checked = false;
  readonly errors: string[] = [];
  readonly skips: string[] = [];
  readonly shared: RunError[] = [];
  readonly diagnostics: Diagnostic[] = [];

  constructor(readonly task: FileTask) {}

  /**
   * An engine that did not give findings: a syntax error in the file (its
   * diagnostics: the engine checked it), an engine that could not run or
   * declined the file (a skip), a failure of the whole module (a skip here,
   * reported once by the run), or a failure of its own (an error).
   */
  failed(plan: EnginePlan, error: unknown): void {
    if (error instanceof SourceSyntaxError) this.linted({ diagnostics: error.diagnostics });
    else if (error instanceof EngineUnavailableError || error instanceof EngineRefusal) this.skips.push(error.message);
    else if (error instanceof SharedFailure) {
      this.skips.push(error.message);
      this.shared.push({ path: error.scope, message: error.detail });
    } else this.errors.push(`${plan.id}: ${describe(error)}`);
  }

  /** An engine's findings, less the codes `[per-file-ignores]` silences here. */
  linted(out: LintOutput): void {
    for (const d of out.diagnostics) {
      if (!ignored(d, this.task.ignoreCodes) && !engineIgnored(d, this.task.engineIgnores)) this.diagnostics.push(d);
    }
    if (out.partial && !this.skips.includes(out.partial)) this.skips.push(out.partial);
    this.checked = true;
  }

  outcome(proposed?: FileOutcome["proposed"]): FileOutcome {
    const { task, diagnostics, fixed } = this;
    const record = baseRecord(task);
    if (diagnostics.length > 0) record.diagnostics = diagnostics;
    if (fixed > 0) record.fixed = fixed;
    // "No lint engine for Rust" only when no engine (a cross-cutting one included) checked the file.
    const skips = task.noEngine && !this.checked ? [task.noEngine, ...this.skips] : this.skips;
    const skip = skips.length > 0 ? skips.join("; ") : undefined;
    const error = this.errors.length > 0 ? this.errors.join("; ") : undefined;
    if (skip) record.skipped = skip;
    if (error) record.error = error;
    const hasRecord = diagnostics.length > 0 || fixed > 0 || skip !== undefined || error !== undefined;
    return {
      relPath: task.relPath,
      checked: this.checked && !error,
      record: hasRecord ? record : undefined,
      skip,
      error,
      ...(this.shared.length > 0 ? { shared: this.shared } : {}),
      ...(proposed ? { proposed } : {}),
    };
  }
}

/**
 * The outcome of a lint check (no fix) whose every engine result is in `known`
 * (the pre-pass's batches and cache lookups), at once; undefined when some
 * engine must still run. {@link processFile} gives the same outcome, later.
 */
export function knownLintOutcome(task: FileTask, known: Record<string, Known>): FileOutcome | undefined {
  if (task.kind !== "lint" || task.fix) return undefined;
  const tally = new LintTally(task);
  for (const plan of task.engines) {
    try {
      if (!engineById(plan.id)!.capabilities.lint) continue;
      const result = known[plan.id];
      if (!result) return undefined;
      tally.linted(unwrap<LintOutput>(result));
    } catch (e) {
      tally.failed(plan, e);
    }
  }
  return tally.outcome();
}

/**
 * Throws when `plan`'s engine is governed by a file of its own that poly cannot honour (lib/config/native/): run under
 * anything else, it could report clean, or fix, what the project's configuration rules otherwise. The pre-pass leaves
 * such a step to this path (lib/run/prepass.ts).
 */
export function unhonoured(plan: EnginePlan): void {
  const why = unhonouredBy(plan.settings);
  if (why) throw new EngineError(why);
}

async function lintFile(task: FileTask, original: SourceFile): Promise<FileOutcome> {
  let file = original;
  const tally = new LintTally(task);
  const usable: EnginePlan[] = [];
  /** The findings a batch fix found in the text it left, by engine: this engine's, while the text is still that. */
  const linted = new Map<string, { text: string; lint: Known; cached: boolean }>();
  for (const plan of task.engines) {
    try {
      // Under its own file that poly cannot honour, an engine neither fixes nor lints: the file says why.
      unhonoured(plan);
      const spec = engineById(plan.id)!;
      if (task.fix && spec.capabilities.fix) {
        // The pre-pass's batch fixed the text as read: used while no engine before this one changed it.
        const batched = file === original ? task.fixes?.[plan.id] : undefined;
        const settings = fixSettings(task, plan);
        const out: StoredFix & { lint?: LintOutput } = batched
          ? unwrap<StoredFix>(batched.fix)
          : await fixed(task, spec, file, settings);
        if (out.fixed > 0 && out.text !== undefined && out.text !== file.text) {
          file = { ...file, text: out.text };
          tally.fixed += out.fixed;
        }
        // The findings the fix found in the text it left, when they are the lint's (no code silenced for the fix):
        // the batch's are cached already, the pool's own go through the cache below.
        if (batched?.lint) linted.set(plan.id, { text: file.text, lint: batched.lint, cached: true });
        else if (out.lint && settings === plan.settings) {
          linted.set(plan.id, { text: file.text, lint: { value: out.lint }, cached: false });
        }
      }
      usable.push(plan);
    } catch (e) {
      tally.failed(plan, e);
    }
  }
  for (const plan of usable) {
    try {
      const spec = engineById(plan.id)!;
      if (!spec.capabilities.lint) continue;
      const namespace = namespaceOf("lint", spec);
      const current = file;
      const after = linted.get(plan.id);
      const found = after?.text === current.text ? after : undefined;
      const known = task.known?.[plan.id] ?? (found?.cached ? found.lint : undefined);
      const out = known ? unwrap<LintOutput>(known) : await cached(task, namespace, plan, current, async () => {
        if (found) return unwrap<LintOutput>(found.lint);
        const engine = await loadEngine(spec);
        return engine.lint ? await engine.lint(current, plan.settings) : { diagnostics: [] };
      });
      tally.linted(out);
    } catch (e) {
      tally.failed(plan, e);
    }
  }
  let proposed: FileOutcome["proposed"];
  if (tally.fixed > 0 && task.preview) {
    proposed = { before: original.text, after: file.text };
  } else if (tally.fixed > 0) {
    const failure = await writeBack(task, original.text, file.text, "fixed");
    if (failure) {
      tally.errors.push(failure);
      tally.fixed = 0;
    }
  }
  return tally.outcome(proposed);
}

/**
 * Replaces the task's file, read as `before`, with `after` (see
 * {@link replaceFile}); returns why it was not written, or undefined once it is:
 * `not written: …` for a file left alone on purpose (outside the root, changed
 * during the run, read-only, hard-linked), `could not write the … file: …` for
 * a failed write.
 */
async function writeBack(task: FileTask, before: string, after: string, what: string): Promise<string | undefined> {
  try {
    await replaceFile(task.path, after, {
      expected: { content: before, ...(task.stamp ? { stamp: task.stamp } : {}) },
      roots: task.writeRoots ?? [dirname(task.path)],
    });
    return undefined;
  } catch (e) {
    if (e instanceof WriteRefusedError) return `not written: ${e.message}`;
    return `could not write the ${what} file: ${e instanceof Error ? e.message : String(e)}`;
  }
}

async function formatFile(task: FileTask, file: SourceFile): Promise<FileOutcome> {
  const base = baseRecord(task);
  const plan = task.engines[0];
  if (!plan) {
    const skip = task.noEngine ?? "no formatter";
    return { relPath: task.relPath, checked: false, skip, record: { ...base, skipped: skip } };
  }
  let formatted: string;
  try {
    unhonoured(plan);
    const spec = engineById(plan.id)!;
    const known = task.known?.[plan.id];
    const text = known ? unwrap<string>(known) : await cached(
      task,
      "fmt",
      plan,
      file,
      async () => (await loadEngine(spec)).format!(file, plan.settings),
    );
    formatted = withLineEnding(text, file.text, task.lineEnding);
  } catch (e) {
    if (e instanceof SourceSyntaxError) {
      // The formatter read the file and found it does not parse: a finding, not a failure.
      return { relPath: task.relPath, checked: true, record: { ...base, diagnostics: e.diagnostics } };
    }
    if (e instanceof EngineUnavailableError || e instanceof EngineRefusal) {
      return { relPath: task.relPath, checked: false, skip: e.message, record: { ...base, skipped: e.message } };
    }
    if (e instanceof SharedFailure) {
      const shared = [{ path: e.scope, message: e.detail }];
      return {
        relPath: task.relPath,
        checked: false,
        skip: e.message,
        shared,
        record: { ...base, skipped: e.message },
      };
    }
    const error = `${plan.id}: ${describe(e)}`;
    return { relPath: task.relPath, checked: false, error, record: { ...base, error } };
  }
  if (formatted === file.text) return { relPath: task.relPath, checked: true };
  // The repository formats with another release of this formatter: what poly's would change is not poly's to judge.
  if (plan.releaseDiffers) {
    return {
      relPath: task.relPath,
      checked: false,
      skip: plan.releaseDiffers,
      record: { ...base, skipped: plan.releaseDiffers },
    };
  }
  // What the formatter changes (check: would change; fix: changed), for the report and `poly fmt --diff`.
  const diff = formatDiff(task.relPath, file.text, formatted);
  if (task.fix && task.preview) {
    return {
      relPath: task.relPath,
      checked: true,
      record: { ...base, changed: true, diff },
      proposed: { before: file.text, after: formatted },
    };
  }
  if (task.fix) {
    const error = await writeBack(task, file.text, formatted, "formatted");
    if (error) return { relPath: task.relPath, checked: false, error, record: { ...base, error } };
  }
  return { relPath: task.relPath, checked: true, record: { ...base, changed: true, diff } };
}
