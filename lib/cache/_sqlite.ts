/**
 * Low-level handling of the cache database file: opening in WAL mode with a busy
 * timeout, the schema, recognising a corrupt or foreign file, and moving such a
 * file aside so a fresh one can be built.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { basename, dirname, join } from "node:path";
import { CACHE_FORMAT } from "./key.ts";

/** A database file that is not a usable cache of this format. */
export class UnusableCacheError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnusableCacheError";
  }
}

/** Whether an error means the file is damaged or not a database at all. */
export function isCorruption(error: unknown): boolean {
  if (error instanceof UnusableCacheError) return true;
  const e = error as { errcode?: number; message?: string };
  const code = typeof e?.errcode === "number" ? e.errcode & 0xff : undefined;
  return code === 11 || code === 26 ||
    /not a database|malformed|corrupt|disk image|file is encrypted/i.test(e?.message ?? "");
}

/** Bytes of the database file read through a memory map. */
const MMAP_BYTES = 256 * 1024 * 1024;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
  ns TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (ns, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS files (
  path TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  mtime INTEGER NOT NULL,
  ctime INTEGER NOT NULL,
  ino INTEGER NOT NULL,
  digest TEXT NOT NULL,
  seen INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run TEXT NOT NULL,
  at TEXT NOT NULL,
  ns TEXT NOT NULL,
  hits INTEGER NOT NULL,
  misses INTEGER NOT NULL
);
`;

function retryBusy<T>(fn: () => T): T {
  for (let attempt = 0;; attempt++) {
    try {
      return fn();
    } catch (e) {
      if (attempt >= 20 || !/busy|locked/i.test((e as Error).message)) throw e;
      const until = Date.now() + 25 * (attempt + 1);
      while (Date.now() < until) { /* brief wait: node:sqlite is synchronous */ }
    }
  }
}

/**
 * Opens `path` as a cache database of format {@link CACHE_FORMAT}, creating it
 * when new. Throws {@link UnusableCacheError} (or a corruption error) when the
 * file is another program's database, another format version, or damaged.
 */
export function openDatabase(path: string): DatabaseSync {
  const db = new DatabaseSync(path);
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((
      r,
    ) => r.name);
    if (tables.length > 0 && !tables.includes("meta")) throw new UnusableCacheError("not a poly cache database");
    if (tables.includes("meta")) {
      const row = db.prepare("SELECT value FROM meta WHERE key = 'format_version'").get() as
        | { value: string }
        | undefined;
      if (row && row.value !== String(CACHE_FORMAT)) {
        throw new UnusableCacheError(`cache format ${row.value}, this poly uses ${CACHE_FORMAT}`);
      }
    }
    retryBusy(() => db.prepare("PRAGMA journal_mode = WAL").get());
    // No fsync: closing the last connection checkpoints the WAL, and with NORMAL that checkpoint syncs the database
    // file, 5–60 ms at the end of every run (most of a warm run's cache time). A power loss can then lose the last
    // runs' results or leave the file unusable, which costs a cold run: an unusable cache is moved aside and rebuilt.
    db.exec("PRAGMA synchronous = OFF");
    // Reads through a memory map rather than a read call per page: a warm run looks up tens of thousands
    // of keys at random (about half the time on the bench corpus). Only SQLite ever resizes the file.
    // The first write turns the map off for that connection (db.ts, flush).
    db.exec(`PRAGMA mmap_size = ${MMAP_BYTES}`);
    retryBusy(() => {
      db.exec("BEGIN IMMEDIATE");
      try {
        db.exec(SCHEMA);
        db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('format_version', ?)").run(String(CACHE_FORMAT));
        db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('created_at', ?)").run(new Date().toISOString());
        db.exec("COMMIT");
      } catch (e) {
        try {
          db.exec("ROLLBACK");
        } catch { /* no transaction */ }
        throw e;
      }
    });
    const row = db.prepare("SELECT value FROM meta WHERE key = 'format_version'").get() as { value: string };
    if (row.value !== String(CACHE_FORMAT)) {
      throw new UnusableCacheError(`cache format ${row.value}, this poly uses ${CACHE_FORMAT}`);
    }
    return db;
  } catch (e) {
    try {
      db.close();
    } catch { /* already closed */ }
    throw e;
  }
}

/**
 * Moves a damaged or foreign database (and its -wal/-shm files) aside as
 * `cache.db.broken-<time>` (keeping only the newest such copy) and returns that path.
 */
export function moveAside(path: string): string {
  const dir = dirname(path);
  const name = basename(path);
  try {
    for (const e of Deno.readDirSync(dir)) {
      if (e.name.startsWith(`${name}.broken-`)) Deno.removeSync(join(dir, e.name));
    }
  } catch { /* nothing to prune */ }
  const aside = `${path}.broken-${Date.now()}-${Deno.pid}`;
  try {
    Deno.renameSync(path, aside);
  } catch { /* another process moved it first */ }
  for (const suffix of ["-wal", "-shm"]) {
    try {
      Deno.removeSync(path + suffix);
    } catch { /* absent */ }
  }
  return aside;
}
