/**
 * The run API: what `poly lint`, `poly fmt` and the MCP tools `lint`, `lint_fix`,
 * `format_check`, `format_write` all call.
 *
 * @module
 */
import type { FileResult } from "../report/schema.ts";
import type { FileChange } from "../engines/types.ts";

/** One lint or format run. */
export interface RunRequest {
  /** Files or directories; empty means `cwd`. Relative paths resolve against `cwd`. */
  paths: string[];
  /** The directory reports are relative to (the CLI's cwd, the server's workspace root). */
  cwd: string;
  /**
   * With `fix`: the only directory files may be rewritten in, once links are
   * resolved (the MCP server's workspace root). Absent: `cwd`, and each named
   * path that lies outside `cwd` (see `writeRoots()` in lib/run/mod.ts).
   */
  root?: string;
  /** Extra gitignore-style excludes, merged with `[discovery] exclude`. */
  exclude?: string[];
  /** `--config PATH`. */
  config?: string;
  /** Fix mode: lint applies safe fixes, fmt rewrites files. Default: check. */
  fix?: boolean;
  /**
   * `--shard i/n`: only this shard's paths (lib/run/shard.ts); run-wide problems (rule files) go to shard 1.
   */
  shard?: { index: number; count: number };
  /** Bypass the result cache. */
  noCache?: boolean;
  /** Worker count; default the CPU count. */
  jobs?: number;
  /**
   * Nothing else runs in this process meanwhile (a one-shot command line): the main thread takes more of the
   * pool's files itself before workers start (lib/run/pool.ts `ONE_SHOT_WORKER_THRESHOLD`).
   */
  oneShot?: boolean;
  /**
   * Receives each file's result, in report order (by path), as soon as the
   * window of files it belongs to is done; the returned report's `results` are
   * then empty (its errors, skips and summary are whole). The run waits for a
   * returned promise before it goes on, so a slow writer holds the run, not
   * results in memory. Without it, the results are kept and returned.
   */
  onResult?: (result: FileResult) => void | Promise<void>;
  /**
   * How many files the run takes at a time (default `RUN_WINDOW`, 4096): what
   * it holds in memory (texts, engine results, outcomes) is bounded by this,
   * and each batch engine runs once per window. A resident process's memo run
   * takes all its files at once.
   */
  window?: number;
  /** Progress callback: files done of total. */
  onProgress?: (done: number, total: number) => void;
  /** Cancels the run; files not yet processed are reported as errored ("cancelled"). */
  signal?: AbortSignal;
  /**
   * With `fix`: compute the fixes (or formatted text) but write nothing; each file
   * that would change is passed to `onProposed` (the preview of an approval).
   */
  preview?: boolean;
  /** Receives each change a `preview` run would write. */
  onProposed?: (change: ProposedChange) => void;
  /**
   * What a resident process that watches the workspace (`poly daemon`) knows
   * from its earlier runs. Consulted by check runs only, never with `noCache`.
   */
  memo?: RunMemo;
  /**
   * The log of what a one-shot check run reads, kept so a later process can
   * replay the run (lib/cache/replay.ts). The run adds the files it hands to
   * workers (the log sees the main thread only) and refuses when a config turns
   * the result cache off.
   */
  reads?: RunReads;
}

/** What a run tells the log of its reads (lib/fs/read_log.ts `ReadLog`). */
export interface RunReads {
  note(path: string): void;
  refuse(reason: string): void;
  /** Names one of the run's own files whose bytes no other file's result depends on (lib/fs/read_log.ts `file`). */
  file?(path: string): void;
}

/**
 * Results of earlier runs in this process, valid while the files they came from
 * are unchanged (lib/daemon/live.ts keeps one per watched workspace). Positions
 * are points in the workspace's stream of file-system events: a record made at
 * position P holds until an event after P touches what it depends on.
 */
export interface RunMemo {
  /** The position a run starting now records its results at (every event before it has been seen). */
  position(): number;
  /** Whether results for a file under this absolute path can be kept (inside the watched tree, not via a link). */
  covers(path: string): boolean;
  /**
   * What an earlier run computed from the tree's shape (its discovery, its
   * config files) under the same key, unless the shape changed since: a file or
   * directory created, removed or renamed, an ignore or config file edited.
   */
  shaped<T>(key: string): T | undefined;
  rememberShaped<T>(key: string, value: T, at: number): void;
  /**
   * The outcome recorded for a file under the same signature, unless the file
   * (or, for `contexts`, a file its result depends on) changed since.
   */
  outcome<T>(path: string, signature: string): { outcome: T; steps: number } | undefined;
  /** Records an outcome computed from the file as it was at position `at`. */
  remember<T>(
    path: string,
    signature: string,
    entry: {
      outcome: T;
      steps: number;
      contexts: { id: string; files?: (path: string, change?: FileChange) => boolean }[];
    },
    at: number,
  ): void;
  /**
   * Config files a run used: an edit to one inside the watched tree changes the
   * shape; one outside it is checked by its stat before each run.
   */
  noteSources(paths: Iterable<string>): void;
  /** The languages of a run's files (a resident poly loads their engines' in-process paths when idle). */
  noteLanguages(languages: Iterable<string>): void;
}

/** A change a `preview` run would write to one file. */
export interface ProposedChange {
  /** Absolute path. */
  path: string;
  /** Path relative to the request's cwd, as in the report. */
  relPath: string;
  before: string;
  after: string;
}
