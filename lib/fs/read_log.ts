/**
 * What this process read from the file system during a stretch of work: every
 * path a stat, a read, a directory listing, an open for reading or a link
 * resolution named, each with its stat line when first seen (before the read).
 * A run's result is a function of what it read (and of its arguments,
 * environment and code); a later process can prove that nothing it read changed
 * by taking the same lines again ({@link unchanged}), which is what lets `poly
 * lint` replay a run (lib/cache/replay.ts).
 *
 * The log is kept by wrapping `Deno`'s reading functions while at least one log
 * is open, so no reader anywhere in the program (configuration, ignore files,
 * discovery, plugins, host tools found on PATH) can be left out by omission.
 * What it cannot see is said where it is used: reads in workers and child
 * processes (the run's own files are stat-ed on the main thread before they are
 * read; a tool's own configuration is read by poly too).
 *
 * A line is the entry's inode, mode, size, mtime and ctime (`lstat`), followed
 * for a link by its target and the target's line; a path that cannot be stat-ed
 * has its error's name (`NotFound`) as its line, so creating it is a change.
 * A directory's line changes when an entry is created, removed or renamed in it.
 *
 * @example
 * ```ts
 * const log = ReadLog.open({ exclude: [cacheHome()] });
 * try {
 *   await work();
 * } finally {
 *   log.close();
 * }
 * const settled = log.settle(); // { lines } or { refused: why }
 * ```
 *
 * @module
 */
import { fileURLToPath, resolve, sep } from "../paths/path.ts";
import { statx, type StatxInfo } from "./statx.ts";

/** Deno's functions as they were before any log wrapped them (the log's own stats go through these). */
const ORIGINAL = {
  lstatSync: Deno.lstatSync,
  statSync: Deno.statSync,
  readLinkSync: Deno.readLinkSync,
};

/** The reading functions a log wraps: each takes the path first. */
const WRAPPED = [
  "stat",
  "statSync",
  "lstat",
  "lstatSync",
  "readFile",
  "readFileSync",
  "readTextFile",
  "readTextFileSync",
  "readDir",
  "readDirSync",
  "readLink",
  "readLinkSync",
  "realPath",
  "realPathSync",
  "open",
  "openSync",
] as const;

/**
 * How old a stamp must be when it is read (ms) to prove a later write moves it,
 * even on file systems with coarse (up to 2 s) timestamps: the "racy git"
 * problem. The result cache's stat index (lib/cache/db.ts) and {@link ReadLog.settle} use it.
 */
export const RACY_MS = 2_500;

/** The wrapped functions that read a path's stat line alone, which a stat line taken again proves the same. */
const STATS = new Set<string>(["stat", "statSync", "lstat", "lstatSync"]);

/** Whether the reads now are a run's reads of its own files' bytes ({@link asFileRead}). */
let fileRead = false;

/**
 * Runs `read` (synchronous) as the read of a run's own file's bytes: what the
 * file says goes into that file's result alone (the engines are given it), so a
 * change to it changes no other file's result. Any other read of a path a run
 * checks (a configuration that is also linted, a rule module) marks it as more
 * than a file of the run ({@link Settled}'s `files`).
 */
export function asFileRead<T>(read: () => T): T {
  if (fileRead) return read();
  fileRead = true;
  try {
    return read();
  } finally {
    fileRead = false;
  }
}

/**
 * The text of a run's own file at `path` as it is now, read as that file's bytes ({@link asFileRead}); empty when it
 * cannot be read (the file's own read reports why). For an engine's cache context, where a file the stat index knows
 * unchanged comes without its text.
 */
export function ownFileText(path: string): string {
  try {
    return asFileRead(() => Deno.readTextFileSync(path));
  } catch {
    return "";
  }
}

/** The functions that make poly's own temporary files and folders: what they return is never a read. */
const TEMPORARY = ["makeTempDir", "makeTempDirSync", "makeTempFile", "makeTempFileSync"] as const;

/** One path as first seen: its line, and when it last changed (ms; the later of mtime and ctime). */
interface Sighting {
  line: string;
  changedAt: number;
}

/** A path's line now (see the module documentation), and when it last changed. */
export function sightOf(path: string): Sighting {
  const fast = statx(path);
  if (fast) return { line: lineOf(fast), changedAt: changedAt(fast) };
  try {
    const info = ORIGINAL.lstatSync(path);
    const fields = fieldsOf(info);
    const line = lineOf(fields);
    if (!info.isSymlink) return { line, changedAt: changedAt(fields) };
    // A link: what it names, and what that resolves to (through any further links; a loop is an error's name).
    const link = ORIGINAL.readLinkSync(path);
    try {
      const target = fieldsOf(ORIGINAL.statSync(path));
      return { line: `${line}>${link}>${lineOf(target)}`, changedAt: Math.max(changedAt(fields), changedAt(target)) };
    } catch (error) {
      return { line: `${line}>${link}>${nameOf(error)}`, changedAt: changedAt(fields) };
    }
  } catch (error) {
    return { line: nameOf(error), changedAt: 0 };
  }
}

/** A stat's fields as a line needs them: from `statx`, or from Deno's `FileInfo` ({@link fieldsOf}). */
type Fields = Omit<StatxInfo, "ino" | "mode" | "size"> & {
  ino?: bigint | number;
  mode?: number;
  size: bigint | number;
};

function fieldsOf(info: Deno.FileInfo): Fields {
  return {
    ...(info.ino !== null ? { ino: info.ino } : {}),
    ...(info.mode !== null ? { mode: info.mode } : {}),
    size: info.size,
    ...(info.mtime ? { mtime: info.mtime.getTime() } : {}),
    ...(info.ctime ? { ctime: info.ctime.getTime() } : {}),
  };
}

function lineOf(info: Fields): string {
  return `${info.ino ?? ""}:${info.mode ?? ""}:${info.size}:${info.mtime ?? ""}:${info.ctime ?? ""}`;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;

/** Whether a line ({@link sightOf}) is a regular file's own: no link's (`>` and its target), no error's name. */
export function regularFileLine(line: string): boolean {
  const fields = line.split(":");
  return fields.length === 5 && (Number(fields[1]) & S_IFMT) === S_IFREG;
}

function changedAt(info: Fields): number {
  return Math.max(info.mtime ?? 0, info.ctime ?? 0);
}

function nameOf(error: unknown): string {
  return error instanceof Error ? error.name : "Error";
}

/** Whether every path still has its line: nothing a logged run read has changed since. */
export function unchanged(lines: Iterable<readonly [string, string]>): boolean {
  for (const [path, line] of lines) if (sightOf(path).line !== line) return false;
  return true;
}

const open = new Set<ReadLog>();
let saved: Record<string, unknown> | undefined;

/**
 * Marks every open log as proving nothing ({@link ReadLog.refuse}): the work
 * depends on something no read shows (a program asked its version every run).
 */
export function refuseOpenLogs(reason: string): void {
  for (const log of open) log.refuse(reason);
}

/** Wraps Deno's reading functions so each open log notes the path (once per log). */
function install(): void {
  // deno-lint-ignore no-explicit-any
  const deno = Deno as any;
  saved = {};
  for (const name of WRAPPED) {
    const original = deno[name];
    saved[name] = original;
    const writing = name === "open" || name === "openSync";
    deno[name] = function (path: string | URL, ...rest: unknown[]) {
      // An open for writing is not a read (check runs write nothing in the tree).
      const options = rest[0] as Deno.OpenOptions | undefined;
      if (!writing || !(options?.write || options?.append || options?.create || options?.truncate)) {
        const more = !fileRead && !STATS.has(name);
        for (const log of open) log.note(path, more);
      }
      return original.call(Deno, path, ...rest);
    };
  }
  for (const name of TEMPORARY) {
    const original = deno[name];
    saved[name] = original;
    const own = (path: string) => {
      for (const log of open) log.own(path);
      return path;
    };
    deno[name] = name.endsWith("Sync")
      ? (...args: unknown[]) => own(original.call(Deno, ...args))
      : async (...args: unknown[]) => own(await original.call(Deno, ...args));
  }
}

function uninstall(): void {
  // deno-lint-ignore no-explicit-any
  const deno = Deno as any;
  for (const name of [...WRAPPED, ...TEMPORARY]) deno[name] = saved![name];
  saved = undefined;
}

/**
 * What {@link ReadLog.settle} found: every path read with its line, or why the log proves nothing. `files` are the
 * indexes (into `lines`) of the run's own files ({@link ReadLog.file}) that nothing read but as a file of the run.
 */
export type Settled =
  | { lines: [string, string][]; files: number[] }
  | { refused: string };

/** One open stretch of logging (see the module documentation). */
export class ReadLog {
  /** When the log was opened (ms since the epoch). */
  readonly openedAt = Date.now();
  readonly #seen = new Map<string, Sighting>();
  readonly #exclude: string[];
  readonly #owned = new Set<string>();
  /** Paths read as more than a file of the run (see {@link asFileRead}), and the run's own files. */
  readonly #more = new Set<string>();
  readonly #files = new Set<string>();
  #closed = false;
  #refused?: string;

  private constructor(exclude: readonly string[]) {
    this.#exclude = exclude.map((dir) => resolve(dir) + sep);
  }

  /** Starts logging every read of the process; paths under `exclude` (poly's own stores) are left out. */
  static open(options: { exclude?: readonly string[] } = {}): ReadLog {
    const log = new ReadLog(options.exclude ?? []);
    if (open.size === 0) install();
    open.add(log);
    return log;
  }

  /**
   * Notes a read of `path` (what the wrappers call; a caller may add paths it knows a worker reads); `more` when it
   * read more than a stat line, and not as the read of a run's own file ({@link asFileRead}).
   */
  note(path: string | URL, more = false): void {
    if (this.#closed) return;
    if (typeof path === "string" && this.#seen.has(path)) { // poly's paths are absolute
      if (more) this.#more.add(path);
      return;
    }
    let abs: string;
    try {
      abs = path instanceof URL ? fileURLToPath(path) : resolve(String(path));
    } catch {
      this.refuse(`a read of ${String(path)}, which is no file path`);
      return;
    }
    if (this.#owned.has(abs) || this.#excluded(abs)) return;
    if (more) this.#more.add(abs);
    if (!this.#seen.has(abs)) this.#seen.set(abs, sightOf(abs));
  }

  /**
   * Takes in the reads of a kept run this work brings up to date (lib/cache/replay.ts `stale`): each kept line of a
   * path this log has not seen, and the kept run's own files (`files`, indexes into `lines`). `changed` are the paths
   * this work read again because they changed (by their own paths: what else read them here was that, so they stay
   * the run's own files, as the kept run's tree and configuration are); any other path read here with another line
   * than the kept one changed since the kept run was looked up, and the log proves nothing.
   */
  adopt(lines: readonly (readonly [string, string])[], files: readonly number[], changed: ReadonlySet<string>): void {
    const own = new Set(files);
    lines.forEach(([path, line], i) => {
      const seen = this.#seen.get(path);
      if (seen === undefined) this.#seen.set(path, { line, changedAt: 0 });
      else if (seen.line !== line && !changed.has(path)) this.refuse(`${path} changed during the run`);
      if (own.has(i)) this.#files.add(path);
      if (changed.has(path)) this.#more.delete(path);
    });
  }

  /** Names `path` (absolute) as one of the run's own files: one whose bytes only its own result depends on. */
  file(path: string): void {
    if (!this.#closed) this.#files.add(path);
  }

  /** Whether `abs` is an excluded folder or under one. */
  #excluded(abs: string): boolean {
    const below = abs + sep;
    return this.#exclude.some((dir) => below.startsWith(dir));
  }

  /** Marks the logged work as not a function of what it read (the first reason is kept). */
  refuse(reason: string): void {
    this.#refused ??= reason;
  }

  /** Leaves out `path` and everything under it: a temporary file or folder the work made for itself. */
  own(path: string): void {
    const abs = resolve(path);
    this.#exclude.push(abs + sep);
    this.#owned.add(abs);
    for (const seen of this.#seen.keys()) if (seen === abs || seen.startsWith(abs + sep)) this.#seen.delete(seen);
  }

  /** Stops logging (idempotent). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    open.delete(this);
    if (open.size === 0) uninstall();
  }

  /**
   * Every path read, with its line when first read, sorted by path; or why not:
   * a {@link refuse}d log, or a path that changed less than `margin` ms before
   * it was first read (a change within a file system's timestamp granularity
   * keeps the line: see {@link RACY_MS}). A path that changes after it was first
   * read keeps its earlier line here, so the next {@link unchanged} sees the
   * change: the line was taken before the read, as the result cache's stat index
   * takes its stamps, and no clock is trusted for it.
   */
  settle(margin = RACY_MS): Settled {
    if (this.#refused) return { refused: this.#refused };
    const lines: [string, string][] = [];
    for (const [path, first] of this.#seen) {
      if (first.changedAt >= this.openedAt - margin) {
        return { refused: `${path} changed just before or during the run` };
      }
      lines.push([path, first.line]);
    }
    lines.sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
    const files: number[] = [];
    lines.forEach(([path], i) => this.#files.has(path) && !this.#more.has(path) && files.push(i));
    return { lines, files };
  }
}
