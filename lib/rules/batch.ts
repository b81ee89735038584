/**
 * Linting many files with one rule set in one `ast-grep scan` process (the
 * engine's `lintMany`): @ast-grep/napi compiles every rule again on every call
 * and runs on one thread, the command line compiles the rule set once and scans
 * on every core.
 *
 * What the command line is given (`_cli_config.ts`): the effective rule set (enabled rules only,
 * after `[rules.overrides]`), each rule in the split form the napi path runs
 * (`_split.ts`), written as one rule file under a private temporary
 * `sgconfig.yml`; the same parser libraries napi registers (`@ast-grep/lang-*`,
 * as custom languages); JavaScript files mapped to the TSX parser, as poly's
 * `typescript` rules parse them. Its matches are turned into diagnostics by the
 * napi path's own code (`matchHit`, `toDiagnostic`): message and fix templates,
 * the regex checks `_split.ts` moved out of ast-grep, spans from byte offsets
 * converted to UTF-16, `files`/`ignores` globs (applied by poly, not by the command
 * line), sorting.
 *
 * Which files go through it, group by group (a file has one group of rules per
 * parser): only a group whose parser the command line picks for the file by its
 * extension (`.ts`/`.mts`/`.cts` TypeScript; `.tsx`/`.js`/`.jsx`/`.mjs`/`.cjs` TSX;
 * `.py`/`.pyi`/`.pyw`, `.go`, `.rs`, `.sh`/`.bash`, `.yml`/`.yaml`, `.html`/`.htm`,
 * `.css`). Everything else runs on the napi path, file by file, as `lint` does:
 * `javascript`-language rules (JavaScript parser), Dockerfiles (their `RUN` lines
 * as shell), files without such an extension (shebang scripts), files whose text
 * mentions `ast-grep-ignore` (the command line honours suppression comments,
 * napi does not), and any file the command line did not scan (named in an
 * `ERROR:` line, or skipped: `--inspect summary` counts them, and a second run
 * with `--inspect entity` then names which, and with which parser), or whose
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
import { join, resolve, sep } from "node:path";
import type { Diagnostic } from "../report/schema.ts";
import { type HostRun, runExecutable } from "../engines/_host.ts";
import { pauser, settle, type Settled } from "../engines/types.ts";
import { type AstGrepExecutable, astGrepExecutable } from "./_cli_bin.ts";
import { utf8Offsets } from "./_offsets.ts";
import {
  below,
  chunks,
  type CliMatch,
  commonDir,
  Misfit,
  normalize,
  type Scanned,
  scannedByEntity,
  scannedBySummary,
  TextSource,
} from "./_cli_io.ts";
import { toDiagnostic } from "./diagnose.ts";
import { parserLibraries, type ParserName } from "./_langs.ts";
import { splitRule } from "./_split.ts";
import { CLI_LANGUAGE, cliCandidate, type CliFile, type CliRuleSet, cliRuleSet, sgconfig } from "./_cli_config.ts";
import {
  matchHit,
  mayMatchIn,
  type RuleHit,
  rulesForFile,
  type ScanFile,
  scanGroups,
  sortHits,
  textDecides,
} from "./scan.ts";
import type { LoadedRule, RuleSet } from "./types.ts";

/** Bytes of path arguments per process: far under ARG_MAX (and Windows' 32K command line). */
const CHUNK_BYTES = Deno.build.os === "windows" ? 24_000 : 128_000;

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

/** Rule sets the command line refused once (their batches take the napi path). */
const rejected = new WeakSet<RuleSet>();

function firstError(stderr: string): string {
  return stderr.split("\n").find((line) => /^(Error|ERROR)/.test(line))?.trim() ?? "unknown error";
}

/** What the command line reported for one file it scanned with the expected parser. */
type CliOutput = CliMatch[];

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
}

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
 * parser some rule needs. A file whose text, once read, must take the napi path
 * after all (a suppression comment) simply does not use what the command line
 * found; a file `finish` gets that was not started takes the napi path.
 */
export function startBatch(set: RuleSet, refs: readonly BatchRef[], options: BatchOptions = {}): StartedRulesBatch {
  const cli = cliRuleSet(set);
  const stats: BatchStats = { viaCli: 0, viaNapi: 0, ruledOut: 0, processes: 0, failures: 0 };
  const ready = Promise.withResolvers<void>();
  const scanning = scanRefs(set, cli, refs, stats, options, ready.resolve, true).finally(ready.resolve);
  return { finish: (files) => finishBatch(set, cli, files, scanning, stats, options), ready: ready.promise };
}

/**
 * Starts the command line over the eligible refs; resolves to its matches by
 * absolute path. With `early` (no text read yet), a ref whose text could rule
 * out all its rules waits for that text: `finish` scans it if it must.
 */
async function scanRefs(
  set: RuleSet,
  cli: CliRuleSet,
  refs: readonly BatchRef[],
  stats: BatchStats,
  options: BatchOptions,
  spawned: () => void,
  early: boolean,
): Promise<Map<string, CliOutput>> {
  const candidates = refs.map((ref) => {
    const parser = cliCandidate(cli, ref);
    return parser && !(early && textDecides(set, ref.language, ref.path)) ? parser : undefined;
  });
  const wanted = candidates.flatMap((p, i) => (p ? [i] : []));
  if (wanted.length === 0) return new Map();
  try {
    const executable = options.executable === undefined ? await astGrepExecutable() : options.executable ?? undefined;
    if (!executable) stats.unavailable = "the ast-grep command line is not installed for this platform";
    else if (rejected.has(set)) stats.unavailable = "the ast-grep command line refused the rule set";
    else return await scanWithCli(executable, set, cli, refs, candidates, wanted, stats, options, spawned);
  } catch (error) {
    stats.failures++;
    stats.unavailable = error instanceof Error ? error.message : String(error);
  }
  return new Map();
}

async function finishBatch(
  set: RuleSet,
  cli: CliRuleSet,
  files: readonly ScanFile[],
  scanning: Promise<Map<string, CliOutput>>,
  stats: BatchStats,
  options: BatchOptions,
): Promise<BatchResult> {
  await parserLibraries();
  const candidates = files.map((file) => cliCandidate(cli, file));
  // Meanwhile: the rule groups of every file, the rules of the command line's group its text
  // leaves, and the napi part of each (yielding now and then, so the process's output is read
  // as it comes).
  const pause = pauser();
  const groups: Map<ParserName, LoadedRule[]>[] = [];
  const owns: (LoadedRule[] | undefined)[] = [];
  const early: Settled<RuleHit[]>[] = [];
  /** Files whose command-line scan waited for their text, and still has rules to run. */
  const late: ScanFile[] = [];
  for (const [i, file] of files.entries()) {
    const fileGroups = rulesForFile(set, file);
    groups.push(fileGroups);
    const parser = candidates[i];
    const group = parser ? fileGroups.get(parser) : undefined;
    // A command-line file is never a Dockerfile: its text is what the rules run on.
    const own = group ? mayMatchIn(group, file.text) : undefined;
    owns.push(own?.length ? own : undefined);
    if (own?.length && textDecides(set, file.language, file.path)) late.push(file);
    else if (group && !own?.length) stats.ruledOut++;
    const napiGroups = group ? without(fileGroups, parser!) : fileGroups;
    early.push(settle(() => scanGroups(file, napiGroups)));
    const paused = pause();
    if (paused) await paused;
  }
  const outputs = await scanning;
  // After a failed or missing command line, the files that waited take the napi path too.
  if (late.length > 0 && stats.failures === 0 && !stats.unavailable) {
    for (const [path, output] of await scanRefs(set, cli, late, stats, options, () => {}, false)) {
      outputs.set(path, output);
    }
  }
  const results: Settled<Diagnostic[]>[] = files.map((file, i) => {
    const fileGroups = groups[i];
    if (fileGroups.size === 0) return [];
    const parser = candidates[i];
    const own = owns[i];
    let hits = early[i];
    if (parser && own) {
      const output = outputs.get(resolve(set.configDir, file.path));
      const converted = output ? settle(() => toHits(cli, file, parser, new Set(own), output)) : undefined;
      const fromCli = converted instanceof Error ? undefined : converted;
      if (fromCli) {
        stats.viaCli++;
        if (fileGroups.size > 1) stats.viaNapi++;
      } else stats.viaNapi++;
      if (!(hits instanceof Error)) {
        const earlier = hits;
        hits = fromCli
          ? [...earlier, ...fromCli]
          : settle(() => [...earlier, ...scanGroups(file, new Map([[parser, own]]))]);
      }
    } else if (!(parser && fileGroups.has(parser)) || fileGroups.size > 1) stats.viaNapi++;
    if (hits instanceof Error) return hits;
    if (hits.length === 0) return [];
    const bytes = utf8Offsets(file.text);
    return sortHits(hits).map((h) => toDiagnostic(h, bytes));
  });
  return { results, stats };
}

function without<K, V>(map: Map<K, V>, key: K): Map<K, V> {
  const out = new Map(map);
  out.delete(key);
  return out;
}

/**
 * Runs the command line over the files at `wanted`, in chunks; returns, for each
 * file it reported scanning with the expected parser, its matches.
 */
async function scanWithCli(
  executable: AstGrepExecutable,
  set: RuleSet,
  cli: CliRuleSet,
  refs: readonly BatchRef[],
  candidates: (ParserName | undefined)[],
  wanted: number[],
  stats: BatchStats,
  options: BatchOptions,
  spawned: () => void,
): Promise<Map<string, CliOutput>> {
  const outputs = new Map<string, CliOutput>();
  const run = options.run ?? ((args: string[], cwd: string) => runExecutable(executable, args, { cwd }));
  const absolute = wanted.map((i) => resolve(set.configDir, refs[i].path));
  const cwd = commonDir(absolute);
  const args = new Map<number, string>();
  const absoluteOf = new Map(wanted.map((i, k) => [i, absolute[k]]));
  wanted.forEach((i, k) => {
    let arg = below(cwd, absolute[k]) ?? absolute[k];
    if (sep === "\\") arg = arg.replaceAll("\\", "/");
    if (arg.startsWith("-")) arg = `./${arg}`;
    args.set(i, arg);
  });
  const dir = await Deno.makeTempDir({ prefix: "poly-sg-" });
  try {
    await Deno.mkdir(join(dir, "rules"));
    await Deno.writeTextFile(join(dir, "rules", "rules.yml"), cli.rules);
    const config = join(dir, "sgconfig.yml");
    await Deno.writeTextFile(config, await sgconfig(cli));
    const base = ["scan", "-c", config, "--json=stream", "--custom-languages", "allow", "--color", "never"];
    const encoder = new TextEncoder();
    const size = (i: number) => encoder.encode(args.get(i)!).length + 1;
    for (const chunk of chunks(wanted, size, options.chunkBytes ?? CHUNK_BYTES)) {
      const paths = [...new Set(chunk.map((i) => args.get(i)!))];
      // First with a summary only (per-file tracing costs the scan ~10%): when its counts
      // add up, every file was scanned, each with the parser its extension maps to.
      // Otherwise once more, file by file, to learn which ones were.
      for (const inspect of ["summary", "entity"] as const) {
        stats.processes++;
        let out: HostRun;
        try {
          const running = run([...base, "--inspect", inspect, "--", ...paths], cwd);
          spawned();
          out = await running;
        } catch (error) {
          // node is missing or may not run: no later process would start either.
          stats.failures++;
          stats.unavailable = error instanceof Error ? error.message : String(error);
          return outputs;
        }
        if (out.code !== 0) {
          stats.failures++;
          if (/Cannot parse (rule|config)|Fail to parse/i.test(out.stderr) && !out.stderr.includes("|file")) {
            // The command line refuses this rule set (napi accepted it): do not try again.
            rejected.add(set);
            stats.unavailable = `the ast-grep command line refused the rule set: ${firstError(out.stderr)}`;
            return outputs;
          }
          break;
        }
        try {
          const scanned = inspect === "summary" ? scannedBySummary(out.stderr, paths) : scannedByEntity(out.stderr);
          if (!scanned) continue;
          collect(
            chunk,
            args,
            candidates,
            scanned,
            out.stdout,
            (i, matches) => outputs.set(absoluteOf.get(i)!, matches),
          );
        } catch {
          stats.failures++; // unreadable output: these files take the napi path
          for (const i of chunk) outputs.delete(absoluteOf.get(i)!);
        }
        break;
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  return outputs;
}

/**
 * Hands `found` one process's matches for every file of `chunk` it scanned with
 * the parser expected (the entity trace names it; with the summary, the generated
 * sgconfig.yml fixes it by extension).
 */
function collect(
  chunk: number[],
  args: Map<number, string>,
  candidates: (ParserName | undefined)[],
  scanned: Scanned,
  stdout: string,
  found: (index: number, matches: CliOutput) => void,
): void {
  const byArg = new Map<string, number[]>();
  for (const i of chunk) {
    const key = normalize(args.get(i)!);
    if (!scanned.has(key)) continue;
    const languages = scanned.get(key);
    if (languages && !languages.has(CLI_LANGUAGE[candidates[i]!]!)) continue;
    const list = byArg.get(key);
    if (list) list.push(i);
    else byArg.set(key, [i]);
  }
  const matches = new Map<number, CliOutput>([...byArg.values()].flat().map((i) => [i, []]));
  for (const line of stdout.split("\n")) {
    if (!line.trim()) continue;
    const match = JSON.parse(line) as CliMatch;
    for (const i of byArg.get(normalize(match.file)) ?? []) matches.get(i)!.push(match);
  }
  for (const [i, list] of matches) found(i, list);
}

/**
 * The command line's matches of one file as hits of `rules` (the file's rules for
 * `parser`, after `files`/`ignores`); undefined when they do not fit the text poly read.
 */
function toHits(
  cli: CliRuleSet,
  file: ScanFile,
  parser: ParserName,
  rules: ReadonlySet<LoadedRule>,
  matches: CliMatch[],
): RuleHit[] | undefined {
  if (matches.length === 0) return [];
  const text = new TextSource(file.text);
  const hits: RuleHit[] = [];
  try {
    for (const match of matches) {
      const n = /^poly-(\d+)$/.exec(match.ruleId)?.[1];
      const emitted = n === undefined ? undefined : cli.emitted[Number(n)];
      if (!emitted) return undefined;
      // A rule of another parser matched inside an embedded language (HTML's <script>/<style>):
      // the napi path parses the file with one parser only.
      if (emitted.parser !== parser) continue;
      if (!rules.has(emitted.rule)) continue; // `files`/`ignores`
      const node = text.node(match.range, match.metaVariables);
      if (node.text() !== match.text) return undefined;
      if (!splitRule(emitted.rule).checks.every((check) => check(node))) continue;
      let editRange: { start: number; end: number } | undefined;
      if (emitted.rule.fix !== undefined) {
        const r = match.replacementOffsets;
        editRange = r
          ? { start: text.index(r.start), end: text.index(r.end) }
          : { start: node.range().start.index, end: node.range().end.index };
      }
      hits.push(matchHit(emitted.rule, node, file.text, editRange));
    }
  } catch (error) {
    if (error instanceof Misfit) return undefined;
    throw error;
  }
  return hits;
}
