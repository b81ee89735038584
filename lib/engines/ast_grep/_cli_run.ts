/**
 * Running `ast-grep scan` over a batch's files (`batch.ts`): the files in chunks
 * of path arguments, each chunk in one process with the batch's generated
 * `sgconfig.yml`, first with `--inspect summary`, then, when its counts do not
 * add up, once more with `--inspect entity` to learn which files it scanned
 * (the empty files it skips are counted from their sizes, not traced).
 * What the processes report becomes each scanned file's matches (`_cli_hits.ts`);
 * a process that fails, or a missing command line, leaves its files without
 * output, and the batch takes them through napi.
 *
 * @module
 */
import { resolve, sep } from "node:path";
import { type HostRun, runExecutable } from "../host.ts";
import { type AstGrepExecutable, astGrepExecutable } from "./_cli_bin.ts";
import { below, chunks, commonDir, scannedByEntity, scannedBySummary } from "./_cli_io.ts";
import { type CliOutput, collect } from "./_cli_hits.ts";
import type { CliRuleSet } from "./_cli_config.ts";
import type { ParserName } from "./languages.ts";
import { absolutePath } from "./select.ts";
import type { BatchOptions, BatchRef, BatchStats } from "./batch.ts";
import type { RuleSet } from "../../rules/types.ts";

/** Bytes of path arguments per process: far under ARG_MAX (and Windows' 32K command line). */
const CHUNK_BYTES = Deno.build.os === "windows" ? 24_000 : 128_000;

/** Rule sets the command line refused once (their batches take the napi path). */
const rejected = new WeakSet<RuleSet>();

/** What running the command line needs of its batch (its counts are updated in place). */
export interface CliBatch {
  readonly set: RuleSet;
  readonly cli: CliRuleSet;
  readonly stats: BatchStats;
  readonly options: BatchOptions;
  /** The batch's generated `sgconfig.yml`. */
  configFile(): Promise<string>;
}

/** ast-grep skips a file over this many bytes when it also has over 200,000 lines (its `file_too_large`). */
const MAX_BYTES = 3_000_000;

/**
 * The paths (command-line arguments, relative to `cwd`) of empty files: the command line reads each and skips it,
 * counting it in its summary's `skippedFileCount`. Undefined when one could be skipped for its size (over
 * {@link MAX_BYTES}: whether it has too many lines too would need its text) or cannot be stat-ed. A file
 * changed between the command line's read and this stat makes the counts disagree (or its matches disagree with the
 * text poly read): its chunk is then traced file by file, or the file takes the napi path.
 */
function emptyFiles(cwd: string, paths: readonly string[]): Set<string> | undefined {
  const empty = new Set<string>();
  for (const path of paths) {
    let size: number;
    try {
      size = Deno.statSync(resolve(cwd, path)).size;
    } catch {
      return undefined;
    }
    if (size === 0) empty.add(path);
    else if (size > MAX_BYTES) return undefined;
  }
  return empty;
}

function firstError(stderr: string): string {
  return stderr.split("\n").find((line) => /^(Error|ERROR)/.test(line))?.trim() ?? "unknown error";
}

/**
 * Starts the command line over the refs that have a parser in `candidates`
 * (undefined for those it leaves); resolves to their matches by absolute path.
 * `spawned` is called as each process starts.
 */
export async function scanWithCli(
  batch: CliBatch,
  refs: readonly BatchRef[],
  spawned: () => void,
  candidates: (ParserName | undefined)[],
): Promise<Map<string, CliOutput>> {
  const wanted = candidates.flatMap((p, i) => (p ? [i] : []));
  if (wanted.length === 0) return new Map();
  const { stats, options } = batch;
  try {
    const executable = options.executable === undefined ? await astGrepExecutable() : options.executable ?? undefined;
    if (!executable) stats.unavailable = "the ast-grep command line is not installed for this platform";
    else if (rejected.has(batch.set)) stats.unavailable = "the ast-grep command line refused the rule set";
    else return await runChunks(batch, executable, refs, candidates, wanted, spawned);
  } catch (error) {
    stats.failures++;
    stats.unavailable = error instanceof Error ? error.message : String(error);
  }
  return new Map();
}

/**
 * Runs the command line over the files at `wanted`, in chunks; returns, for each
 * file it reported scanning with the expected parser, its matches.
 */
async function runChunks(
  batch: CliBatch,
  executable: AstGrepExecutable,
  refs: readonly BatchRef[],
  candidates: (ParserName | undefined)[],
  wanted: number[],
  spawned: () => void,
): Promise<Map<string, CliOutput>> {
  const { set, stats, options } = batch;
  const outputs = new Map<string, CliOutput>();
  const run = options.run ?? ((args: string[], cwd: string) => runExecutable(executable, args, { cwd }));
  const located = wanted.map((i) => absolutePath(set.configDir, refs[i].path));
  const cwd = commonDir(located);
  const args = new Map<number, string>();
  const absoluteOf = new Map(wanted.map((i, k) => [i, located[k]]));
  wanted.forEach((i, k) => {
    let arg = below(cwd, located[k]) ?? located[k];
    if (sep === "\\") arg = arg.replaceAll("\\", "/");
    if (arg.startsWith("-")) arg = `./${arg}`;
    args.set(i, arg);
  });
  const config = await batch.configFile();
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
        const scanned = inspect === "summary"
          ? scannedBySummary(out.stderr, paths, () => emptyFiles(cwd, paths))
          : scannedByEntity(out.stderr);
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
  return outputs;
}
