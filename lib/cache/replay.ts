/**
 * Replays of check runs: a one-shot `poly lint` or `poly fmt --check` whose
 * command line, relevant environment and code are those of an earlier run, and
 * none of whose reads changed since, gives that run's report without starting
 * configuration, discovery or any engine.
 *
 * A run's result is a function of its key (the command line as given, the
 * working directory, the environment a run reads, poly's code stamp) and of
 * what it read from the file system: every configuration file and ignore file,
 * every directory listed and every file checked, each with its stat line
 * (lib/fs/read_log.ts). Each kept run is one file, `<cache home>/replay/<key>.json`
 * (a JSON run's results kept as the text it wrote, after the file's first line,
 * then the rest of its document as written for a replay);
 * a lookup takes every line again (~1 stat per path read: a few milliseconds
 * for a thousand files) and replays only when all are equal. A run that had
 * errors, read a file changed just before it (within a file system's timestamp
 * granularity), or ran with the cache off is not kept; a file changed while the
 * run read it keeps the line from before its read, so the next lookup misses.
 * The newest {@link KEEP} runs are kept, and `poly cache clean` removes them all.
 * The folder is the user's alone (mode 0700): a report quotes their code.
 *
 * @example
 * ```ts
 * const key = await replayKey({ args: ["lint", "--format", "json"], cwd, env });
 * const replay = findReplay(key); // { command, results, report } or undefined
 * ```
 *
 * @module
 */
import { join } from "../paths/path.ts";
import { cacheHome } from "../paths/mod.ts";
import { writeFileAtomic } from "../fs/atomic.ts";
import { concatBytes } from "../io/bytes.ts";
import { type ReadLog, regularFileLine, sightOf } from "../fs/read_log.ts";
import type { FileResult, Report, RunSkip } from "../report/schema.ts";
import { BUILD_ID, CHANNEL, VERSION } from "../identity/build.ts";
import { codeStamp } from "../identity/code.ts";
import { shortDigest } from "./short_digest.ts";

/** Version of the stored file's shape. */
const FORMAT = 5;

/**
 * Most of a kept `poly lint` or `poly fmt --check` run's own files that may have changed for it to be brought up to date
 * (those files checked again, the rest of its report kept) rather than run again whole.
 */
export const MAX_STALE = 32;

/** Runs kept (the oldest go first). */
export const KEEP = 32;

/** A run larger than this (its report, as JSON) is not kept; a run collecting its results stops at about this much. */
export const MAX_CHARS = 64 * 1024 * 1024;

/**
 * What a replay gives back: the command the arguments parsed to, the run's
 * results in the order it passed them on, and its report. A run keeps its
 * streamed results as text (`Replay<string>`); read back, they are bytes.
 */
export interface Replay<Text extends string | KeptText = string | KeptText> {
  /** `poly lint` or `poly fmt`, and what its arguments parsed to (a replay prints as the run did, without a parser). */
  command: { kind: "lint" | "fmt"; value: unknown };
  /** The results, in the order the run passed them on (none when {@link Replay.streamed} holds them). */
  results: FileResult[];
  /**
   * A JSON run's results as its report writer wrote them (lib/report/stream.ts), for `count` results: a replay
   * writes the text again rather than decoding and encoding every result (~50 ms of a warm run on a 2,600-file tree).
   * Read back from the kept file it is that text's UTF-8 bytes ({@link KeptText}), which the replay writes as they are.
   */
  streamed?: { text: Text; count: number };
  /**
   * A JSON run's rest of the document after its results, as its report writer writes it for the report a replay
   * gives (lib/report/stream.ts `tail`): a replay writes it as it is rather than encoding the report's skips and
   * configurations again (~35 ms of a warm run with 3,800 skips). Kept with {@link PID_MARK} for the pid; read back,
   * its UTF-8 bytes with the replaying process's pid in its place.
   */
  tail?: Text extends string ? string : Uint8Array;
  /** The report as a replay gives it; with a {@link Replay.tail}, without the skips and configurations it writes. */
  report: Report;
  /** Whether the run's whole-project phase had no job (`poly lint`): a replay need not run it again. */
  noWorkspaceJobs?: boolean;
  /**
   * Set when the kept run is stale: the run's own files (absolute paths) whose bytes changed since, and nothing else it
   * read did (see {@link findReplay}); with the kept lines and own files, to keep the run once it is brought up to date.
   */
  stale?: { changed: string[]; lines: [string, string][]; files: number[] };
}

/** A JSON run's results text as a run keeps it: whole, or in the parts (text and UTF-8 bytes) its writer wrote. */
export type KeepText = string | readonly (string | Uint8Array)[];

/**
 * A kept run's results text, read back: its UTF-8 bytes in pieces, each valid only until the next is asked for (one
 * buffer, read into again). Read whole into a new buffer, astro's 3.3 MB took ~19 ms, nearly all of it the fresh
 * memory's pages faulted in; through one 256 KB buffer ~1.5 ms. Iterated to its end (or stopped), it closes the file.
 */
export interface KeptText extends Iterable<Uint8Array> {
  /** Closes the kept file without reading the text (reading it to its end closes it too). */
  close(): void;
  /** Whether the kept file is closed. */
  readonly closed: boolean;
}

/** The buffer a kept file is read through. */
const PIECE = 256 * 1024;

/**
 * A kept run's file: this as one line of ASCII JSON, then (for a JSON run) its results' text as it is, after the first
 * newline (JSON as `JSON.stringify` writes it has none), so that text is neither escaped nor parsed, and its
 * {@link Replay.tail}'s two parts.
 */
interface Stored extends Omit<Replay, "streamed" | "tail" | "stale"> {
  format: number;
  key: string;
  lines: [string, string][];
  /** The indexes into `lines` of the run's own files (lib/fs/read_log.ts `Settled`). */
  files?: number[];
  /** How many results the text after the first line holds (a JSON run's). */
  streamed?: number;
  /** The {@link Replay.tail}'s UTF-8 bytes before and after the pid, at the file's end (after the results' text). */
  tail?: [number, number];
  /**
   * The report's skips are the results' own, in order, and were left out of it ({@link skipsOf} rebuilds them): a
   * run's skips are most of a large tree's kept file (half of astro's 2.2 MB), twice.
   */
  skipsFromResults?: true;
}

/** The report's skips a run's results make: each skipped result's path and reason, in the results' order. */
function skipsOf(results: readonly FileResult[]): RunSkip[] {
  const skips: RunSkip[] = [];
  for (const r of results) if (r.skipped !== undefined) skips.push({ path: r.path, reason: r.skipped });
  return skips;
}

/** Whether `skips` are exactly {@link skipsOf}`(results)`. */
function sameSkips(skips: readonly RunSkip[], results: readonly FileResult[]): boolean {
  let i = 0;
  for (const r of results) {
    if (r.skipped === undefined) continue;
    const s = skips[i++];
    if (s === undefined || s.path !== r.path || s.reason !== r.skipped || Object.keys(s).length !== 2) return false;
  }
  return i === skips.length;
}

/**
 * `text` (JSON) with every character outside ASCII written as its `\uXXXX` escape: the platform decodes an ASCII
 * file's bytes to a string ~4× faster than UTF-8 with a few accented names in it (2 MB: ~7 ms against ~28), and the
 * string V8 then parses is half the size.
 */
function asciiJson(text: string): string {
  return NON_ASCII.test(text)
    ? text.replace(NON_ASCII_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    : text;
}
const NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII_ALL = /[\u0080-\uffff]/g;

/**
 * The key of a run: `parts` (its command line, cwd and environment) with
 * poly's build and code stamp (lib/identity/code.ts). SHA-256 from the platform,
 * so a replay loads no hashing module.
 */
export async function replayKey(parts: unknown): Promise<string> {
  return await shortDigest(JSON.stringify([FORMAT, VERSION, BUILD_ID, CHANNEL, codeStamp(), parts]));
}

const NEWLINE = 0x0a;
const decoder = new TextDecoder();

/** The folder of kept runs. */
function replayDir(): string {
  return join(cacheHome(), "replay");
}

function pathOf(key: string): string {
  return join(replayDir(), `${key}.json`);
}

/**
 * The run kept under `key` when nothing it read has changed since; undefined
 * when there is none, it is damaged, or any of its reads changed. The report is
 * what a warm run would give: every file a cache hit, this process's pid.
 * A `poly lint` or `poly fmt --check` run whose only changes are the bytes of up
 * to {@link MAX_STALE} of its own files (still regular files, not links;
 * lib/fs/read_log.ts `file`) is given back {@link Replay.stale}: the caller checks
 * those files again and writes the rest of the report as kept.
 */
export function findReplay(key: string): Replay<KeptText> | undefined {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(pathOf(key));
  } catch {
    return undefined;
  }
  // Open until the replay's text has been read (the file is this one even if a newer run replaces it meanwhile).
  let kept = false;
  try {
    const found = readReplay(file, key);
    kept = found?.streamed !== undefined;
    return found;
  } catch {
    return undefined;
  } finally {
    if (!kept) file.close();
  }
}

/** {@link findReplay} on its open file: the first line parsed, the reads checked, the tail read; the text left to read. */
function readReplay(file: Deno.FsFile, key: string): Replay<KeptText> | undefined {
  const size = file.statSync().size;
  const buffer = new Uint8Array(Math.min(PIECE, size));
  const head: Uint8Array[] = [];
  let offset = 0;
  let end = -1;
  while (end < 0 && offset < size) {
    const n = file.readSync(buffer);
    if (n === null) break;
    end = buffer.subarray(0, n).indexOf(NEWLINE);
    head.push(buffer.slice(0, end < 0 ? n : end));
    offset += end < 0 ? n : end + 1;
  }
  const stored: Stored = JSON.parse(decoder.decode(concatBytes(head)));
  // After the first line (when there is one): the results' text, then the tail's two parts.
  const rest = end < 0 ? undefined : size - offset;
  if (stored?.format !== FORMAT || stored.key !== key || !Array.isArray(stored.lines)) return undefined;
  if (!Array.isArray(stored.results) || typeof stored.report !== "object" || typeof stored.command !== "object") {
    return undefined;
  }
  const count = stored.streamed;
  if (count !== undefined && (rest === undefined || !Number.isInteger(count))) return undefined;
  const [before, after] = stored.tail ?? [0, 0];
  const tailSize = before + after;
  if (stored.tail !== undefined && rest === undefined) return undefined;
  if (!Number.isInteger(tailSize) || before < 0 || after < 0 || tailSize > (rest ?? 0)) return undefined;
  const changed = changedFiles(stored);
  if (changed === undefined) return undefined;
  let tail: Uint8Array | undefined;
  if (stored.tail !== undefined) {
    const pid = new TextEncoder().encode(String(Deno.pid));
    const kept = new Uint8Array(tailSize);
    readAt(file, size - tailSize, kept);
    tail = new Uint8Array(tailSize + pid.length);
    tail.set(kept.subarray(0, before));
    tail.set(pid, before);
    tail.set(kept.subarray(before), before + pid.length);
  }
  const { command, results } = stored;
  const report = replayed(stored.report, Deno.pid);
  if (stored.skipsFromResults) report.skipped = skipsOf(results);
  return {
    command,
    results,
    report,
    ...(count !== undefined ? { streamed: { text: pieces(file, offset, size - tailSize, buffer), count } } : {}),
    ...(tail ? { tail } : {}),
    ...(stored.noWorkspaceJobs ? { noWorkspaceJobs: true } : {}),
    ...(changed.length > 0 ? { stale: { changed, lines: stored.lines, files: stored.files ?? [] } } : {}),
  };
}

/**
 * The kept run's own files whose lines changed (none: it replays as it is), or undefined when it cannot be brought up
 * to date: another of its reads changed, a file is no longer a regular file, more than {@link MAX_STALE} changed, or
 * it is neither a `poly lint` nor a `poly fmt --check` run of the whole (a shard, `poly fmt --diff`).
 */
function changedFiles(stored: Stored): string[] | undefined {
  const own = new Set(stored.files ?? []);
  const changed: string[] = [];
  const whole = broughtUpToDate(stored.command);
  for (let i = 0; i < stored.lines.length; i++) {
    const [path, line] = stored.lines[i];
    const now = sightOf(path).line;
    if (now === line) continue;
    if (!whole || !own.has(i) || !regularFileLine(line) || !regularFileLine(now) || changed.length === MAX_STALE) {
      return;
    }
    changed.push(path);
  }
  return changed;
}

/**
 * Whether a kept run of `command` can be brought up to date: a `poly lint` run, or a `poly fmt` check that writes its
 * report (not `--diff`, which prints the diffs alone), of the whole tree (not a shard).
 */
function broughtUpToDate(command: Replay["command"] | undefined): boolean {
  const value = command?.value as { shard?: string; m?: { mode?: string } } | undefined;
  if (value?.shard !== undefined) return false;
  return command?.kind === "lint" || (command?.kind === "fmt" && value?.m?.mode === "check");
}

/** Fills `into` from `file` at `at`; a file shorter than that is an error. */
function readAt(file: Deno.FsFile, at: number, into: Uint8Array): void {
  file.seekSync(at, Deno.SeekMode.Start);
  for (let filled = 0; filled < into.length;) {
    const n = file.readSync(into.subarray(filled));
    if (n === null) throw new Error("a kept run's file ended early");
    filled += n;
  }
}

/** The bytes of `file` from `from` to `to`, read through `buffer` (see {@link KeptText}). */
function pieces(file: Deno.FsFile, from: number, to: number, buffer: Uint8Array): KeptText {
  let open = true;
  const close = () => {
    if (open) file.close();
    open = false;
  };
  return {
    close,
    get closed() {
      return !open;
    },
    *[Symbol.iterator]() {
      try {
        for (let at = from; at < to;) {
          const piece = buffer.subarray(0, Math.min(buffer.length, to - at));
          readAt(file, at, piece);
          at += piece.length;
          yield piece;
        }
      } finally {
        close();
      }
    },
  };
}

/** A kept run's report as a replay by process `pid` gives it: every file a cache hit, `pid` the process. */
function replayed(report: Report, pid: number): Report {
  const cache = report.summary.cache;
  return {
    ...report,
    summary: { ...report.summary, ...(cache ? { cache: { hits: cache.hits + cache.misses, misses: 0 } } : {}) },
    poly: { ...report.poly, pid },
  };
}

/** The pid a kept {@link Replay.tail} is written with, where a replay puts its own. */
export const PID_MARK = 2_147_483_647;
const PID_TEXT = `"pid": ${PID_MARK}`;

/**
 * Keeps a finished run under `key` with what `log` saw it read, when it can be
 * replayed (see the module documentation). Returns why not, or undefined when
 * it was kept; a failure to write only costs the next run its work.
 */
export async function keepReplay(
  key: string,
  log: ReadLog,
  replay: Omit<Replay<string>, "tail" | "streamed"> & { streamed?: { text: KeepText; count: number } },
  tailOf?: (report: Report) => string | undefined,
): Promise<string | undefined> {
  if (replay.report.errors.length > 0 || replay.report.summary.errored > 0) return "the run had errors";
  const settled = log.settle();
  if ("refused" in settled) return settled.refused;
  const { streamed, ...rest } = replay;
  const skipsFromResults = !streamed && sameSkips(rest.report.skipped, rest.results);
  // The tail splits at the one place the pid is written (no string in JSON holds `"pid": ` unescaped).
  const tail = streamed ? tailOf?.(replayed(rest.report, PID_MARK)) : undefined;
  const at = tail?.indexOf(PID_TEXT) ?? -1;
  const parts = tail !== undefined && at >= 0 && tail.indexOf(PID_TEXT, at + 1) < 0
    ? [tail.slice(0, at + PID_TEXT.length - String(PID_MARK).length), tail.slice(at + PID_TEXT.length)]
    : undefined;
  const encoder = new TextEncoder();
  const tailBytes = parts?.map((part) => encoder.encode(part)) ?? [];
  // What a replay rebuilds (the skips, from the results) or never reads (what the tail writes) is left out.
  const report = parts
    ? { ...rest.report, skipped: [], configs: [] }
    : skipsFromResults
    ? { ...rest.report, skipped: [] }
    : rest.report;
  const head = asciiJson(JSON.stringify(
    {
      format: FORMAT,
      key,
      lines: settled.lines,
      ...(settled.files.length > 0 ? { files: settled.files } : {}),
      ...rest,
      report,
      ...(skipsFromResults ? { skipsFromResults } : {}),
      ...(streamed ? { streamed: streamed.count } : {}),
      ...(parts ? { tail: [tailBytes[0].length, tailBytes[1].length] as [number, number] } : {}),
    } satisfies Stored,
  ));
  const text = typeof streamed?.text === "string" ? [streamed.text] : streamed?.text ?? [];
  const chars = head.length + (streamed ? 1 + text.reduce((n, part) => n + part.length, 0) : 0) +
    (parts ? parts[0].length + parts[1].length : 0);
  if (chars > MAX_CHARS) return "the report is too large";
  // Written as the bytes of its parts: the tail's are already encoded (their lengths are in the head).
  const chunks = streamed
    ? [
      encoder.encode(`${head}\n`),
      ...text.map((part) => typeof part === "string" ? encoder.encode(part) : part),
      ...tailBytes,
    ]
    : [encoder.encode(head)];
  const bytes = concatBytes(chunks);
  const path = pathOf(key);
  try {
    await Deno.mkdir(replayDir(), { recursive: true, mode: 0o700 });
    await writeFileAtomic(path, bytes, { sync: false }); // a cache: lost after a power cut, it is a miss
  } catch (error) {
    return `the cache folder cannot be written: ${error instanceof Error ? error.message : String(error)}`;
  }
  // The newest runs stay: the one just kept and the KEEP - 1 most recently written others.
  await (await import("./build.ts")).pruneOtherBuilds(path, "", KEEP - 1);
  return undefined;
}

/** The runs kept in this cache home (every repository's): how many, and their bytes (`poly cache stats`). */
export function replayStats(): { runs: number; bytes: number } {
  const dir = replayDir();
  let runs = 0;
  let bytes = 0;
  try {
    for (const e of Deno.readDirSync(dir)) {
      if (!e.isFile || !e.name.endsWith(".json")) continue;
      runs++;
      bytes += Deno.statSync(join(dir, e.name)).size;
    }
  } catch {
    // none kept yet, or one removed while listed: what was counted stands
  }
  return { runs, bytes };
}

/** Removes every kept run (`poly cache clean`: a replay holds results of every namespace). */
export async function forgetReplays(): Promise<void> {
  await Deno.remove(replayDir(), { recursive: true }).catch(() => {});
}
