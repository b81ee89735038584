/**
 * Linting many files with one rule set in one `ast-grep scan` process (the
 * engine's `lintMany`): @ast-grep/napi compiles every rule again on every call
 * and runs on one thread, the command line compiles the rule set once and scans
 * on every core.
 *
 * How the processes run, in chunks of path arguments (`_cli_run.ts`), and what
 * the command line is given (`_cli_config.ts`): the effective rule set (enabled
 * rules only, after `[rules.overrides]`), each rule whole (the regexes
 * `_split.ts` moves out of napi's per-call compile mean the same to the command
 * line, which compiles them once), written as one rule file under a private
 * temporary `sgconfig.yml`; the same parser libraries napi registers
 * (`@ast-grep/lang-*`, as custom languages); each extension to the language
 * ast-grep gives it, as napi's rules choose their files (`_langs.ts`). Its
 * matches are turned into diagnostics by the napi path's own code (`matchHit`,
 * `toDiagnostic`): message and fix templates, spans from byte offsets converted
 * to UTF-16, `files`/`ignores` globs (applied by poly, not by the command line),
 * sorting.
 *
 * Which files go through it, group by group (a file has one group of rules per
 * parser): only a group whose parser the command line picks for the file by its
 * extension (`.ts`/`.mts`/`.cts` TypeScript; `.tsx` TSX; `.js`/`.jsx`/`.mjs`/`.cjs`
 * JavaScript; `.py`/`.pyi`, `.go`, `.rs`, `.sh`/`.bash`, `.yml`/`.yaml`, `.html`/`.htm`,
 * `.css`). Everything else runs on the napi path, file by file, as `lint` does:
 * Dockerfiles (their `RUN` lines
 * as shell), files without such an extension (shebang scripts), files whose text
 * mentions `ast-grep-ignore` (the command line honours suppression comments,
 * napi does not), and any file the command line did not scan (named in an
 * `ERROR:` line, or skipped: `--inspect summary` counts them, and a second run
 * with `--inspect entity` then names which, and with which parser, unless they
 * are the chunk's empty files), or whose
 * match texts disagree with the text poly read (changed on disk in between).
 * When the command line is missing (no `sh` — `node` on Windows —, a platform without a binary) or
 * a process fails, its files fall back to the napi path: no file is ever
 * reported clean unchecked.
 *
 * A cold run starts the command line before it reads the files
 * ({@link startBatch}): on their paths alone, each with the parser its extension
 * gives; the texts read since decide, at `finish`, which files use its output.
 *
 * @module
 */
import { join } from "node:path";
import type { Diagnostic } from "../../report/schema.ts";
import type { HostRun } from "../host.ts";
import { pauser, settle, type Settled } from "../types.ts";
import type { AstGrepExecutable } from "./_cli_bin.ts";
import { utf8Offsets } from "./_offsets.ts";
import { type CliOutput, toHits } from "./_cli_hits.ts";
import { type CliBatch, scanWithCli } from "./_cli_run.ts";
import { toDiagnostic } from "./diagnose.ts";
import type { ParserName } from "./languages.ts";
import { cliCandidate, type CliFile, type CliRuleSet, cliRuleSet, sgconfig } from "./_cli_config.ts";
import { absolutePath, mayMatchIn, rulesForFile, type ScanFile, textDecides } from "./select.ts";
import { type RuleHit, sortHits } from "./hit.ts";
import type { LoadedRule, RuleSet } from "../../rules/types.ts";
import { makeTempDirSync, removeTempSync } from "../../fs/temp.ts";

/** Counts of how a batch was processed (for tests and benches). */
export interface BatchStats {
  /** Files whose rules ran (at least in part) in the command line. */
  viaCli: number;
  /** Files scanned, in whole or in part, on the napi path. */
  viaNapi: number;
  /** Files whose text ruled out every rule the command line would have run on them (`_needs.ts`). */
  ruledOut: number;
  /** Command-line processes started. */
  processes: number;
  /** Processes that failed (their files went to the napi path). */
  failures: number;
  /** Why the command line was not used at all, when it was not. */
  unavailable?: string;
}

/** A batch's outcome: per file, its diagnostics or its error, in input order. */
export interface BatchResult {
  results: Settled<Diagnostic[]>[];
  stats: BatchStats;
}

/** Options for {@link lintBatch} (tests). */
export interface BatchOptions {
  /** Runs the command line with `args` in `cwd` (default: the real thing). */
  run?: (args: string[], cwd: string) => Promise<HostRun>;
  /** The command line (default: {@link astGrepExecutable}); null: it is unavailable. */
  executable?: AstGrepExecutable | null;
  /** Bytes of path arguments per process (default 128,000; 24,000 on Windows). */
  chunkBytes?: number;
}

/** What offering a file found: its text then, its parser and rule groups, and the rules that text leaves. */
interface Offered {
  text: string;
  parser: ParserName | undefined;
  groups: ReadonlyMap<ParserName, readonly LoadedRule[]>;
  own: readonly LoadedRule[];
}

/** The napi scanner: loaded (with napi, the parsers registered) only once a file needs it. */
type Scanner = typeof import("./scan.ts");
let scanner: Promise<Scanner> | undefined;

function napiScanner(): Promise<Scanner> {
  scanner ??= Promise.all([import("./scan.ts"), import("./napi.ts").then((m) => m.ensureLanguages())])
    .then(([module]) => module);
  return scanner;
}

/** What a file's result is, before the scanner is loaded, when its command-line output is missing or misfits. */
const NEEDS_NAPI = Symbol("needs napi");

/** A file of a batch, its text once read: what the command line needs to be started on it. */
export type BatchRef = CliFile;

/** A batch whose command line was started ({@link startBatch}): finish it with the files' texts. */
export interface StartedRulesBatch {
  /**
   * The batch's results for `files` (any subset of the started files, in any order,
   * with their texts as read since), as {@link lintBatch} gives them.
   */
  finish(files: readonly ScanFile[]): Promise<BatchResult>;
  /** Settles once the first command-line process is running (or none will). */
  ready: Promise<void>;
  /**
   * The text of one of the started files, as soon as it is read. A file whose
   * scan waits for its text (see {@link startBatch}) is then scanned without
   * waiting for `finish`: once every such file has been offered (or
   * {@link LATE_CHUNK} of them pass the pre-filter), a process starts on those
   * that pass.
   */
  offer(file: ScanFile): void;
}

/** Files that waited for their texts, passed the pre-filter and were offered: one process per this many. */
const LATE_CHUNK = 2000;

/**
 * Lints `files` with `set`: the command line for what it can do, napi for the
 * rest (see the module doc). Results come back in input order; a file the napi
 * path fails on gets its error. While the command line runs, this process works
 * out which rules apply to each file and runs the napi part.
 */
export async function lintBatch(
  set: RuleSet,
  files: readonly ScanFile[],
  options: BatchOptions = {},
): Promise<BatchResult> {
  return await startBatch(set, files, options).finish(files);
}

/**
 * Starts the command line over `refs` before their texts are read (a cold run
 * starts it while it reads): every file whose extension gives the command line a
 * parser some rule needs, except those whose text could rule out all their rules
 * (the pre-filter, `_needs.ts`): they wait for their texts ({@link StartedRulesBatch.offer},
 * at the latest `finish`). A file whose text, once read, must take the napi path
 * after all (a suppression comment) simply does not use what the command line
 * found; a file `finish` gets that was not started takes the napi path.
 */
export function startBatch(set: RuleSet, refs: readonly BatchRef[], options: BatchOptions = {}): StartedRulesBatch {
  const batch = new Batch(set, options);
  const ready = Promise.withResolvers<void>();
  const parsers = refs.map((ref) => cliCandidate(batch.cli, ref));
  const waits = refs.map((ref, i) => parsers[i] !== undefined && textDecides(set, ref.language, ref.path));
  const waiting = new Set(refs.flatMap((ref, i) => (waits[i] ? [absolutePath(set.configDir, ref.path)] : [])));
  const early = parsers.map((parser, i) => (waits[i] ? undefined : parser));
  const scanning = batch.scan(refs, ready.resolve, early).finally(ready.resolve);
  // Their process will want the configuration: written now, it starts the moment they are read.
  if (waiting.size > 0) batch.configFile().catch(() => {});
  const offeredKeys = new Set<string>();
  let passing: ScanFile[] = [];
  const launch = () => {
    const chunk = passing;
    passing = [];
    // After a failed or missing command line, they take the napi path at finish.
    if (chunk.length === 0 || batch.cliFailed()) return;
    for (const file of chunk) batch.launched.add(absolutePath(set.configDir, file.path));
    batch.runs.push(batch.scan(chunk, () => {}));
  };
  return {
    finish: (files) => batch.finish(files, scanning),
    ready: ready.promise,
    offer(file) {
      const key = absolutePath(set.configDir, file.path);
      if (!waiting.has(key) || offeredKeys.has(key)) return;
      offeredKeys.add(key);
      const parser = cliCandidate(batch.cli, file);
      const groups = rulesForFile(set, file);
      const group = parser ? groups.get(parser) : undefined;
      const own = group ? mayMatchIn(group, file.text) : [];
      // What finish would work out again for this file (it gets the same object, with this text).
      batch.offered.set(file, { text: file.text, parser, groups, own });
      if (own.length > 0) passing.push(file);
      if (offeredKeys.size === waiting.size || passing.length >= LATE_CHUNK) launch();
    },
  };
}

/**
 * One batch: its rule set as the command line takes it, its counts, the private
 * folder with the generated `sgconfig.yml` every process of the batch shares, and
 * the processes started on offered files before `finish`.
 */
class Batch implements CliBatch {
  readonly cli: CliRuleSet;
  readonly stats: BatchStats = { viaCli: 0, viaNapi: 0, ruledOut: 0, processes: 0, failures: 0 };
  /** Absolute paths of the offered files a process was started on. */
  readonly launched = new Set<string>();
  readonly runs: Promise<Map<string, CliOutput>>[] = [];
  /** What {@link StartedRulesBatch.offer} found for each offered file. */
  readonly offered = new WeakMap<ScanFile, Offered>();
  #config?: Promise<{ dir: string; file: string }>;

  constructor(readonly set: RuleSet, readonly options: BatchOptions) {
    this.cli = cliRuleSet(set);
  }

  /**
   * The generated `sgconfig.yml` (and its rule file), written once in a private
   * temporary folder (synchronously: four small calls, done at once rather than
   * waiting for a thread busy reading files).
   */
  configFile(): Promise<string> {
    this.#config ??= sgconfig(this.cli).then((text) => {
      const dir = makeTempDirSync("poly-sg-");
      try {
        Deno.mkdirSync(join(dir, "rules"));
        Deno.writeTextFileSync(join(dir, "rules", "rules.yml"), this.cli.rules);
        const file = join(dir, "sgconfig.yml");
        Deno.writeTextFileSync(file, text);
        return { dir, file };
      } catch (error) {
        removeTempSync(dir);
        throw error;
      }
    });
    return this.#config.then((c) => c.file);
  }

  /** Whether a process of the batch failed or the command line is missing: no further process is started. */
  cliFailed(): boolean {
    return this.stats.failures > 0 || this.stats.unavailable !== undefined;
  }

  /** Removes the configuration folder, once no process of the batch can start any more. */
  async dispose(): Promise<void> {
    const config = await this.#config?.catch(() => undefined);
    if (!config) return;
    removeTempSync(config.dir);
  }

  /**
   * Starts the command line over the eligible refs (`candidates`: the parser each
   * takes, undefined for those it leaves; by default what {@link cliCandidate}
   * says); resolves to its matches by absolute path.
   */
  scan(
    refs: readonly BatchRef[],
    spawned: () => void,
    candidates = refs.map((ref) => cliCandidate(this.cli, ref)),
  ): Promise<Map<string, CliOutput>> {
    return scanWithCli(this, refs, spawned, candidates);
  }

  /** The results for `files` (with their texts): see {@link StartedRulesBatch.finish}. */
  async finish(files: readonly ScanFile[], scanning: Promise<Map<string, CliOutput>>): Promise<BatchResult> {
    try {
      return await this.#finish(files, scanning);
    } finally {
      await Promise.allSettled([scanning, ...this.runs]);
      await this.dispose();
    }
  }

  async #finish(files: readonly ScanFile[], scanning: Promise<Map<string, CliOutput>>): Promise<BatchResult> {
    const { set, cli, stats } = this;
    /** Loaded once a file has rules the command line does not run. */
    let napi: Scanner | undefined;
    const candidates: (ParserName | undefined)[] = [];
    // Meanwhile: the rule groups of every file, the rules of the command line's group its text
    // leaves, and the napi part of each (yielding now and then, so the process's output is read
    // as it comes).
    const pause = pauser();
    const groups: ReadonlyMap<ParserName, readonly LoadedRule[]>[] = [];
    const owns: (readonly LoadedRule[] | undefined)[] = [];
    const early: Settled<RuleHit[]>[] = [];
    /** Files whose command-line scan waited for their text, still has rules to run, and was not started. */
    const late: ScanFile[] = [];
    for (const file of files) {
      const offered = this.offered.get(file);
      const known = offered?.text === file.text ? offered : undefined;
      const parser = known ? known.parser : cliCandidate(cli, file);
      candidates.push(parser);
      const fileGroups = known?.groups ?? rulesForFile(set, file);
      groups.push(fileGroups);
      const group = parser ? fileGroups.get(parser) : undefined;
      // A file that waited for its text: the rules the text leaves (a command-line file is never a
      // Dockerfile, so its text is what they run on). The others were scanned with every rule.
      const waited = group !== undefined && textDecides(set, file.language, file.path);
      const own = group && waited ? known?.own ?? mayMatchIn(group, file.text) : group;
      owns.push(own?.length ? own : undefined);
      if (waited && own!.length > 0) {
        if (!this.launched.has(absolutePath(set.configDir, file.path))) late.push(file);
      } else if (waited) stats.ruledOut++;
      // The napi part: every group but the command line's (most files have none).
      if (fileGroups.size === 0 || (group && fileGroups.size === 1)) early.push([]);
      else {
        const napiGroups = group ? without(fileGroups, parser!) : fileGroups;
        const loaded = napi ?? await napiScanner().then((m) => (napi = m), (error: Error) => error);
        early.push(loaded instanceof Error ? loaded : settle(() => loaded.scanGroups(file, napiGroups)));
      }
      const paused = pause();
      if (paused) await paused;
    }
    const outputs = await scanning;
    for (const run of this.runs) for (const [path, output] of await run) outputs.set(path, output);
    // After a failed or missing command line, the files that waited take the napi path too.
    if (late.length > 0 && !this.cliFailed()) {
      for (const [path, output] of await this.scan(late, () => {})) outputs.set(path, output);
    }
    const result = (i: number) => this.#result(files[i], groups[i], candidates[i], owns[i], early[i], outputs, napi);
    const results = files.map((_, i) => result(i));
    if (results.includes(NEEDS_NAPI)) {
      const loaded = napi ?? await napiScanner().then((m) => (napi = m), (error: Error) => error);
      results.forEach((r, i) => {
        if (r !== NEEDS_NAPI) return;
        if (loaded instanceof Error) stats.viaNapi++;
        results[i] = loaded instanceof Error ? loaded : result(i);
      });
    }
    return { results: results as Settled<Diagnostic[]>[], stats };
  }

  /** One file's diagnostics: its napi part, and its command-line part (or napi's, when that is missing or misfits). */
  #result(
    file: ScanFile,
    fileGroups: ReadonlyMap<ParserName, readonly LoadedRule[]>,
    parser: ParserName | undefined,
    own: readonly LoadedRule[] | undefined,
    early: Settled<RuleHit[]>,
    outputs: Map<string, CliOutput>,
    napi: Scanner | undefined,
  ): Settled<Diagnostic[]> | typeof NEEDS_NAPI {
    const { stats } = this;
    if (fileGroups.size === 0) return [];
    let hits = early;
    if (parser && own) {
      const output = outputs.get(absolutePath(this.set.configDir, file.path));
      // Most files: scanned, nothing found.
      const converted = output?.length === 0
        ? []
        : output && settle(() => toHits(this.cli, file, parser, new Set(own), output));
      const fromCli = converted instanceof Error ? undefined : converted;
      // Nothing counted yet: called again once the scanner is loaded.
      if (!fromCli && !napi && !(hits instanceof Error)) return NEEDS_NAPI;
      if (fromCli) {
        stats.viaCli++;
        if (fileGroups.size > 1) stats.viaNapi++;
      } else stats.viaNapi++;
      if (!(hits instanceof Error)) {
        const earlier = hits;
        hits = fromCli
          ? (fromCli.length === 0 ? earlier : earlier.length === 0 ? fromCli : [...earlier, ...fromCli])
          : settle(() => [...earlier, ...napi!.scanGroups(file, new Map([[parser, own]]))]);
      }
    } else if (!(parser && fileGroups.has(parser)) || fileGroups.size > 1) stats.viaNapi++;
    if (hits instanceof Error) return hits;
    if (hits.length === 0) return [];
    const bytes = utf8Offsets(file.text);
    return sortHits(hits).map((h) => toDiagnostic(h, bytes));
  }
}

function without<K, V>(map: ReadonlyMap<K, V>, key: K): Map<K, V> {
  const out = new Map(map);
  out.delete(key);
  return out;
}
