/**
 * The result cache: one SQLite database (`node:sqlite`) per repository anchor at
 * `<cache root>/<SHA-256(anchor), 16 hex>/cache.db` (folder mode 0700; a linked
 * worktree's is its main checkout's: {@link cacheDirFor}), with the
 * namespaces lint, fmt, rules and fix. Several processes and Deno Workers use one file
 * at once (WAL mode, a 5 s busy timeout, writes batched in immediate
 * transactions). A corrupt or foreign-version file is moved aside and rebuilt with
 * a warning on stderr; a cache problem never fails a run — at worst the cache is
 * bypassed for the rest of it.
 *
 * @example
 * ```ts
 * const cache = await openCache({ anchor: "/repo" });
 * const key = await cacheKey({ namespace: "lint", engine: "ruff", engineVersion, settings, path, content });
 * const hit = cache.get("lint", key);
 * if (hit === undefined) cache.set("lint", key, { diagnostics: [] });
 * cache.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { basename, dirname, join, resolve } from "node:path";
import { cacheHome } from "../paths/mod.ts";
import { CACHE_FORMAT, type Namespace, NAMESPACES } from "./key.ts";
import { digestOf } from "./digest.ts";
import { isCorruption, moveAside, openDatabase } from "./_sqlite.ts";
import type { CacheCleanDocument, CacheStatsDocument } from "./types.ts";
import { RACY_MS } from "../fs/read_log.ts";
import { mentionsAnchor } from "./relocate.ts";

/**
 * How a stored result that names its checkout's folder is kept (a message quoting an absolute path): with that
 * folder, so that another checkout sharing the cache (a worktree, a remote cache's other machines) takes it for a miss.
 */
const BOUND = '{"poly_bound":';

/** The folder `path` resolves to, or undefined when it cannot be resolved. */
function realPath(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

/** Options for {@link openCache}. */
export interface OpenCacheOptions {
  /** The repository anchor (nearest `.git`, else the top-most poly.toml). */
  anchor: string;
  /** `false` (from `--no-cache` or `[cache] enabled = false`): every lookup misses, nothing is written. */
  enabled?: boolean;
  /** `[cache] dir`: replaces the cache root (default: `$POLY_CACHE_HOME` or the platform cache dir). */
  root?: string;
  /** Groups the hit/miss counts of several openers (workers of one run) into one run. */
  runId?: string;
  /** Receives warnings (default: written to stderr). */
  warn?: (message: string) => void;
  /**
   * Pending writes are flushed when this many accumulate (default 2048: each transaction costs a few ms, so 4,000
   * results written 256 at a time took ~120 ms, 2,048 at a time ~45 ms).
   */
  batchSize?: number;
  /**
   * The build identity for keys made through this cache ({@link throughCache}); pass
   * the main thread's `buildIdentity()` to workers so each need not compute it.
   */
  build?: string;
}

/** Hits and misses counted by one opener. */
export interface CacheCounters {
  hits: number;
  misses: number;
}

/** What `stat` says about a file: enough to tell that it changed since it was read. */
export interface FileStamp {
  size: number;
  /** Modification time, ms since the epoch. */
  mtime: number;
  /** Status-change time, ms since the epoch (0 where the platform has none). */
  ctime: number;
  ino: number;
}

/** A file poly read, in the stat index: its stamp then, and SHA-256 of the bytes it read. */
export interface FileRecord extends FileStamp {
  path: string;
  digest: string;
}

/** A file's stamp must be older than {@link RACY_MS} when it is read for the stat index to remember it. */
export { RACY_MS };

/** The {@link FileStamp} of a `Deno.FileInfo`. */
export function stampOf(info: Deno.FileInfo): FileStamp {
  return {
    size: info.size,
    mtime: info.mtime?.getTime() ?? 0,
    ctime: info.ctime?.getTime() ?? 0,
    ino: info.ino ?? 0,
  };
}

/** Whether two stamps describe the same, unchanged file. */
export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtime === b.mtime && a.ctime === b.ctime && a.ino === b.ino;
}

/** The result cache API. Values are JSON. */
export interface ResultCache {
  readonly enabled: boolean;
  /** The repository anchor the cache is for (keys name paths below it relative to it). */
  readonly anchor: string;
  /** The database file (undefined when disabled). */
  readonly path?: string;
  /** The build identity given to {@link openCache}, if any. */
  readonly build?: string;
  /** The run this opener belongs to ({@link OpenCacheOptions.runId}), if any. */
  readonly runId?: string;
  get<T = unknown>(ns: Namespace, key: string): T | undefined;
  /** {@link ResultCache.get} for many keys at once (one query per few hundred keys), in order. */
  getMany<T = unknown>(ns: Namespace, keys: readonly string[]): (T | undefined)[];
  set(ns: Namespace, key: string, value: unknown): void;
  /** Whether `ns` holds any entry at all (true when that cannot be told). */
  hasEntries(ns: Namespace): boolean;
  /** Whether the stat index holds any file at all (true when that cannot be told). */
  hasFiles(): boolean;
  /**
   * The stat index: the last record of each of `paths` (absolute), for a check
   * run to skip reading a file whose stamp has not moved since.
   */
  files(paths: readonly string[]): Map<string, FileRecord>;
  /** Remembers files just read (written with the next flush); racy stamps (see {@link RACY_MS}) are left out. */
  recordFiles(records: readonly FileRecord[]): void;
  /** Writes pending entries now. */
  flush(): void;
  stats(): CacheStatsDocument;
  clean(ns?: Namespace): CacheCleanDocument;
  /** Hits and misses of this opener, per namespace. */
  counters(): Record<Namespace, CacheCounters>;
  /** Flushes, records this opener's hits and misses as a run, and closes. */
  close(): void;
}

const SELECT_VALUE = "SELECT value FROM entries WHERE ns = ? AND key = ?";
/**
 * Keys per query of {@link ResultCache.getMany} and `files` (SQLite allows 32,766
 * parameters): large enough that a warm run over 20,000 files makes a handful of
 * queries, which looks keys up ~30% faster than chunks of 500.
 */
const MANY_CHUNK = 4000;

function defaultWarn(message: string): void {
  try {
    Deno.stderr.writeSync(new TextEncoder().encode(`poly: warning: ${message}\n`));
  } catch { /* no stderr */ }
}

/**
 * Folder of the result cache for `anchor` under `root`: one per repository, which a linked worktree
 * (`git worktree add`) shares with its main checkout — each checkout's keys name its paths relative to
 * it (relocate.ts), and a result bound to one checkout's path is only that checkout's (see `set`).
 */
export function cacheDirFor(anchor: string, root = cacheHome()): string {
  return checkoutDirFor(mainCheckout(anchor), root);
}

/** Folder kept for the checkout at `anchor` itself under `root` (what is not shared with other worktrees). */
export function checkoutDirFor(anchor: string, root = cacheHome()): string {
  return join(root, digestOf(resolve(anchor)).slice(0, 16));
}

const mainCheckouts = new Map<string, string>();

/**
 * The main checkout of the linked git worktree at `anchor` (the folder of the repository's common `.git`; a bare
 * repository's folder itself), or `anchor` when it is none. A worktree is taken at its word only when git's own
 * record of it names it back (`<gitdir>/gitdir` is this `.git` file), as `git worktree list` checks.
 */
export function mainCheckout(anchor: string): string {
  const known = mainCheckouts.get(anchor);
  if (known !== undefined) return known;
  let main = anchor;
  try {
    const dotGit = join(anchor, ".git");
    if (Deno.lstatSync(dotGit).isFile) {
      const gitdir = /^gitdir:\s*(.+?)\s*$/m.exec(Deno.readTextFileSync(dotGit))?.[1];
      if (gitdir) {
        const dir = resolve(anchor, gitdir);
        const back = resolve(dir, Deno.readTextFileSync(join(dir, "gitdir")).trim());
        if (Deno.realPathSync(back) === Deno.realPathSync(dotGit)) {
          const common = resolve(dir, Deno.readTextFileSync(join(dir, "commondir")).trim());
          main = basename(common) === ".git" ? dirname(common) : common;
        }
      }
    }
  } catch {
    main = anchor; // no .git, a submodule's (no `commondir`), or a record that does not say so: its own folder
  }
  mainCheckouts.set(anchor, main);
  return main;
}

function emptyCounters(): Record<Namespace, CacheCounters> {
  return {
    lint: { hits: 0, misses: 0 },
    fmt: { hits: 0, misses: 0 },
    rules: { hits: 0, misses: 0 },
    fix: { hits: 0, misses: 0 },
  };
}

class SqliteCache implements ResultCache {
  readonly enabled = true;
  readonly build?: string;
  readonly runId?: string;
  #db: DatabaseSync | undefined;
  #pending = new Map<string, { ns: Namespace; key: string; value: string }>();
  /** Per namespace: whether it held no entry when {@link getMany} first looked (see there). */
  readonly #emptyAtFirstLook = new Map<Namespace, boolean>();
  #pendingFiles: FileRecord[] = [];
  #counts = emptyCounters();
  #broken = false;
  /** The handle whose memory map was turned off for writing (see {@link SqliteCache.flush}). */
  #unmapped?: DatabaseSync;
  /** The folder the anchor resolves to (a value naming it is bound too). */
  #realAnchor?: string;
  /** The lookup statement, prepared once per database handle (a rebuild makes a new handle). */
  #select?: { db: DatabaseSync; stmt: StatementSync };

  constructor(readonly path: string, readonly anchor: string, private readonly options: OpenCacheOptions) {
    this.build = options.build;
    this.runId = options.runId;
    this.#db = this.#open();
  }

  #warn(message: string) {
    (this.options.warn ?? defaultWarn)(message);
  }

  #open(): DatabaseSync | undefined {
    try {
      return openDatabase(this.path);
    } catch (e) {
      if (!isCorruption(e)) {
        this.#warn(`the result cache at ${this.path} cannot be opened (${(e as Error).message}); running without it`);
        return undefined;
      }
      return this.#rebuild(e);
    }
  }

  #rebuild(cause: unknown): DatabaseSync | undefined {
    try {
      this.#db?.close();
    } catch { /* already closed */ }
    this.#db = undefined;
    const aside = moveAside(this.path);
    this.#warn(
      `the result cache at ${this.path} was unusable (${
        (cause as Error).message
      }); moved it to ${aside} and started a new one`,
    );
    try {
      return openDatabase(this.path);
    } catch (e) {
      this.#warn(`the result cache could not be rebuilt (${(e as Error).message}); running without it`);
      this.#broken = true;
      return undefined;
    }
  }

  /** Runs `fn` on the database; on corruption rebuilds once, on other errors bypasses the cache. */
  #with<T>(fallback: T, fn: (db: DatabaseSync) => T): T {
    if (this.#broken || !this.#db) return fallback;
    try {
      return fn(this.#db);
    } catch (e) {
      if (isCorruption(e)) {
        this.#db = this.#rebuild(e);
        if (!this.#db) return fallback;
        try {
          return fn(this.#db);
        } catch { /* give up below */ }
      } else if (/busy|locked/i.test((e as Error).message)) {
        this.#warn(`the result cache is busy (${(e as Error).message}); some results were not cached`);
        return fallback;
      }
      this.#warn(`the result cache failed (${(e as Error).message}); running without it`);
      this.#broken = true;
      return fallback;
    }
  }

  get<T = unknown>(ns: Namespace, key: string): T | undefined {
    const pending = this.#pending.get(ns + "\0" + key);
    const raw = pending?.value ??
      this.#with(undefined, (db) => {
        if (this.#select?.db !== db) this.#select = { db, stmt: db.prepare(SELECT_VALUE) };
        return (this.#select.stmt.get(ns, key) as { value: string } | undefined)?.value;
      });
    return this.#counted<T>(ns, raw);
  }

  hasEntries(ns: Namespace): boolean {
    for (const p of this.#pending.values()) if (p.ns === ns) return true;
    return this.#with(true, (db) => db.prepare("SELECT 1 FROM entries WHERE ns = ? LIMIT 1").get(ns) !== undefined);
  }

  hasFiles(): boolean {
    if (this.#pendingFiles.length > 0) return true;
    return this.#with(true, (db) => db.prepare("SELECT 1 FROM files LIMIT 1").get() !== undefined);
  }

  getMany<T = unknown>(ns: Namespace, keys: readonly string[]): (T | undefined)[] {
    const found = new Map<string, string>();
    // A namespace that held nothing when this opener first looked (a cold run) is not queried
    // key by key: thousands of misses for nothing. What this opener wrote since is in #pending.
    let empty = this.#emptyAtFirstLook.get(ns);
    if (empty === undefined) this.#emptyAtFirstLook.set(ns, empty = !this.hasEntries(ns));
    const rows = empty ? [] : this.#selectIn<{ key: string; value: string }>(
      (list) => `SELECT key, value FROM entries WHERE ns = ? AND key IN (${list})`,
      [ns],
      [...new Set(keys)],
    );
    for (const row of rows) found.set(row.key, row.value);
    return keys.map((key) => this.#counted<T>(ns, this.#pending.get(ns + "\0" + key)?.value ?? found.get(key)));
  }

  /** A looked-up value counted as a hit or a miss, parsed; one bound to another checkout's folder is a miss. */
  #counted<T>(ns: Namespace, raw: string | undefined): T | undefined {
    let value: unknown = raw === undefined ? undefined : JSON.parse(raw);
    if (raw?.startsWith(BOUND)) {
      const bound = value as { poly_bound: string; value: unknown };
      value = bound.poly_bound === this.anchor ? bound.value : undefined;
    }
    if (value === undefined) {
      this.#counts[ns].misses++;
      return undefined;
    }
    this.#counts[ns].hits++;
    return value as T;
  }

  /**
   * Rows of `sql(list)` for every value, {@link MANY_CHUNK} values per query
   * (`list` is that many `?` placeholders; `args` come before them).
   */
  #selectIn<R>(sql: (list: string) => string, args: readonly string[], values: readonly string[]): R[] {
    const out: R[] = [];
    for (let i = 0; i < values.length; i += MANY_CHUNK) {
      const chunk = values.slice(i, i + MANY_CHUNK);
      const rows = this.#with(
        [] as R[],
        (db) => db.prepare(sql(chunk.map(() => "?").join(","))).all(...args, ...chunk) as unknown as R[],
      );
      out.push(...rows);
    }
    return out;
  }

  files(paths: readonly string[]): Map<string, FileRecord> {
    const out = new Map<string, FileRecord>();
    const rows = this.#selectIn<FileRecord>(
      (list) => `SELECT path, size, mtime, ctime, ino, digest FROM files WHERE path IN (${list})`,
      [],
      paths,
    );
    for (const row of rows) {
      out.set(row.path, {
        path: row.path,
        size: Number(row.size),
        mtime: Number(row.mtime),
        ctime: Number(row.ctime),
        ino: Number(row.ino),
        digest: row.digest,
      });
    }
    return out;
  }

  recordFiles(records: readonly FileRecord[]): void {
    const now = Date.now();
    for (const r of records) if (r.mtime < now - RACY_MS && r.ctime < now - RACY_MS) this.#pendingFiles.push(r);
    if (this.#pendingFiles.length >= 4096) this.flush();
  }

  set(ns: Namespace, key: string, value: unknown): void {
    let json = JSON.stringify(value);
    this.#realAnchor ??= realPath(this.anchor) ?? this.anchor;
    if (mentionsAnchor(json, this.anchor, this.#realAnchor)) {
      json = `${BOUND}${JSON.stringify(this.anchor)},"value":${json}}`;
    }
    this.#pending.set(ns + "\0" + key, { ns, key, value: json });
    if (this.#pending.size >= (this.options.batchSize ?? 2048)) this.flush();
  }

  flush(): void {
    if (this.#pending.size === 0 && this.#pendingFiles.length === 0) return;
    const rows = [...this.#pending.values()];
    const files = this.#pendingFiles;
    this.#pending.clear();
    this.#pendingFiles = [];
    this.#with(undefined, (db) => {
      // Writes go without the memory map (`_sqlite.ts`): mapped pages count as the process's memory, and a
      // cold run's thousands of inserts would touch most of the file; reads after a write are few.
      if (this.#unmapped !== db) {
        this.#unmapped = db;
        db.exec("PRAGMA mmap_size = 0");
      }
      const insert = db.prepare(
        "INSERT OR REPLACE INTO entries (ns, key, value, bytes, created_at) VALUES (?, ?, ?, ?, ?)",
      );
      const record = db.prepare(
        "INSERT OR REPLACE INTO files (path, size, mtime, ctime, ino, digest, seen) VALUES (?, ?, ?, ?, ?, ?, ?)",
      );
      const now = Date.now();
      db.exec("BEGIN IMMEDIATE");
      try {
        for (const r of rows) insert.run(r.ns, r.key, r.value, r.key.length + r.value.length, now);
        for (const f of files) record.run(f.path, f.size, f.mtime, f.ctime, f.ino, f.digest, now);
        db.exec("COMMIT");
      } catch (e) {
        try {
          db.exec("ROLLBACK");
        } catch { /* none open */ }
        throw e;
      }
    });
  }

  counters(): Record<Namespace, CacheCounters> {
    return structuredClone(this.#counts);
  }

  stats(): CacheStatsDocument {
    this.flush();
    const fallback: CacheStatsDocument = statsShell(this.path, this.anchor, true);
    return this.#with(fallback, (db) => {
      const doc = statsShell(this.path, this.anchor, true);
      const rows = db.prepare("SELECT ns, COUNT(*) AS n, COALESCE(SUM(bytes), 0) AS b FROM entries GROUP BY ns")
        .all() as {
          ns: string;
          n: number;
          b: number;
        }[];
      for (const ns of doc.namespaces) {
        const row = rows.find((r) => r.ns === ns.namespace);
        ns.entries = Number(row?.n ?? 0);
        ns.bytes = Number(row?.b ?? 0);
      }
      doc.total = {
        entries: doc.namespaces.reduce((a, n) => a + n.entries, 0),
        bytes: doc.namespaces.reduce((a, n) => a + n.bytes, 0),
      };
      doc.file_bytes = fileBytes(this.path);
      const runs = db.prepare(
        `SELECT run, MIN(at) AS at, ns, SUM(hits) AS hits, SUM(misses) AS misses FROM runs
         WHERE run IN (SELECT run FROM runs GROUP BY run ORDER BY MAX(id) DESC LIMIT 10)
         GROUP BY run, ns ORDER BY MAX(id) DESC, ns`,
      ).all() as { run: string; at: string; ns: string; hits: number; misses: number }[];
      doc.recent_runs = runs.map((r) => ({
        at: r.at,
        namespace: r.ns as Namespace,
        hits: Number(r.hits),
        misses: Number(r.misses),
      }));
      return doc;
    });
  }

  clean(ns?: Namespace): CacheCleanDocument {
    this.#pending.clear();
    this.#pendingFiles = [];
    const doc: CacheCleanDocument = {
      path: this.path,
      anchor: this.anchor,
      namespaces: ns ? [ns] : [...NAMESPACES],
      removed: 0,
      bytes: 0,
    };
    return this.#with(doc, (db) => {
      const where = ns ? " WHERE ns = ?" : "";
      const args = ns ? [ns] : [];
      const row = db.prepare(`SELECT COUNT(*) AS n, COALESCE(SUM(bytes), 0) AS b FROM entries${where}`).get(
        ...args,
      ) as { n: number; b: number };
      db.prepare(`DELETE FROM entries${where}`).run(...args);
      if (!ns) db.exec("DELETE FROM runs; DELETE FROM files");
      else db.prepare("DELETE FROM runs WHERE ns = ?").run(ns);
      try {
        db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        db.exec("VACUUM");
      } catch { /* another process is reading: space is reused later */ }
      return { ...doc, removed: Number(row.n), bytes: Number(row.b) };
    });
  }

  close(): void {
    this.flush();
    const active = NAMESPACES.filter((ns) => this.#counts[ns].hits + this.#counts[ns].misses > 0);
    if (active.length > 0) {
      this.#with(undefined, (db) => {
        const run = this.options.runId ?? crypto.randomUUID();
        const at = new Date().toISOString();
        const insert = db.prepare("INSERT INTO runs (run, at, ns, hits, misses) VALUES (?, ?, ?, ?, ?)");
        for (const ns of active) insert.run(run, at, ns, this.#counts[ns].hits, this.#counts[ns].misses);
        db.exec("DELETE FROM runs WHERE id <= (SELECT MAX(id) FROM runs) - 300");
      });
    }
    try {
      this.#db?.close();
    } catch { /* already closed */ }
    this.#db = undefined;
    this.#broken = true;
  }
}

function fileBytes(path: string): number {
  let total = 0;
  for (const suffix of ["", "-wal"]) {
    try {
      total += Deno.statSync(path + suffix).size;
    } catch { /* absent */ }
  }
  return total;
}

function statsShell(path: string | undefined, anchor: string, enabled: boolean): CacheStatsDocument {
  return {
    enabled,
    anchor,
    ...(path ? { path } : {}),
    format_version: CACHE_FORMAT,
    namespaces: NAMESPACES.map((namespace) => ({ namespace, entries: 0, bytes: 0 })),
    total: { entries: 0, bytes: 0 },
    file_bytes: 0,
    recent_runs: [],
  };
}

class DisabledCache implements ResultCache {
  readonly enabled = false;
  readonly path = undefined;
  #counts = emptyCounters();
  constructor(readonly anchor: string) {}
  get<T>(ns: Namespace): T | undefined {
    this.#counts[ns].misses++;
    return undefined;
  }
  getMany<T>(ns: Namespace, keys: readonly string[]): (T | undefined)[] {
    this.#counts[ns].misses += keys.length;
    return keys.map(() => undefined);
  }
  hasEntries(): boolean {
    return false;
  }
  hasFiles(): boolean {
    return false;
  }
  files(): Map<string, FileRecord> {
    return new Map();
  }
  recordFiles(): void {}
  set(): void {}
  flush(): void {}
  stats(): CacheStatsDocument {
    return statsShell(undefined, this.anchor, false);
  }
  clean(ns?: Namespace): CacheCleanDocument {
    return { anchor: this.anchor, namespaces: ns ? [ns] : [...NAMESPACES], removed: 0, bytes: 0 };
  }
  counters(): Record<Namespace, CacheCounters> {
    return structuredClone(this.#counts);
  }
  close(): void {}
}

/** Opens the result cache for a repository anchor (a disabled one when `enabled` is false). */
export async function openCache(options: OpenCacheOptions): Promise<ResultCache> {
  if (options.enabled === false) return new DisabledCache(options.anchor);
  const dir = cacheDirFor(options.anchor, options.root);
  try {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    if (Deno.build.os !== "windows") await Deno.chmod(dir, 0o700);
  } catch (e) {
    (options.warn ?? defaultWarn)(
      `the result cache folder ${dir} cannot be created (${(e as Error).message}); running without it`,
    );
    return new DisabledCache(options.anchor);
  }
  return new SqliteCache(join(dir, "cache.db"), options.anchor, options);
}
