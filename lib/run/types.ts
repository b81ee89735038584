/**
 * The run API: what `poly lint`, `poly fmt` and the MCP tools `lint`, `lint_fix`,
 * `format_check`, `format_write` all call.
 *
 * @module
 */

/** One lint or format run. */
export interface RunRequest {
  /** Files or directories; empty means `cwd`. Relative paths resolve against `cwd`. */
  paths: string[];
  /** The directory reports are relative to (the CLI's cwd, the server's workspace root). */
  cwd: string;
  /** Extra gitignore-style excludes, merged with `[discovery] exclude`. */
  exclude?: string[];
  /** `--config PATH`. */
  config?: string;
  /** Fix mode: lint applies safe fixes, fmt rewrites files. Default: check. */
  fix?: boolean;
  /** Bypass the result cache. */
  noCache?: boolean;
  /** Worker count; default the CPU count. */
  jobs?: number;
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
