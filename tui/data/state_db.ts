/**
 * Read-only access to the state database while `poly mcp` servers write to it.
 *
 * The dashboard opens the file with `readOnly: true` (it never takes a write lock
 * and never creates or migrates the database), waits at most a moment when the
 * file is busy, and reports {@link StoreBusyError} instead of blocking: the caller
 * keeps showing the last good data. A database that does not exist yet is simply
 * absent; it is picked up on a later refresh once a server creates it.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";

/** The database stayed busy or locked for longer than the dashboard waits. */
export class StoreBusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreBusyError";
  }
}

/** Whether `error` is SQLite's "busy" or "locked". */
export function isBusy(error: unknown): boolean {
  const e = error as { errcode?: number; message?: string };
  const code = typeof e?.errcode === "number" ? e.errcode & 0xff : undefined;
  return code === 5 || code === 6 || /database is (locked|busy)|SQLITE_BUSY|SQLITE_LOCKED/i.test(e?.message ?? "");
}

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Options of {@link StateReader}. */
export interface StateReaderOptions {
  /** SQLite busy timeout of each statement, in milliseconds (default 150). */
  busyTimeoutMs?: number;
  /** Attempts before giving up on a busy database (default 3). */
  attempts?: number;
}

/** A read-only connection to one SQLite file, opened when the file appears. */
export class StateReader {
  #db: DatabaseSync | undefined;

  constructor(readonly path: string, private readonly options: StateReaderOptions = {}) {}

  /** Whether the database file exists. */
  get exists(): boolean {
    return this.#db !== undefined || exists(this.path);
  }

  /** The connection, or undefined while the file does not exist. */
  #open(): DatabaseSync | undefined {
    if (this.#db) return this.#db;
    if (!exists(this.path)) return undefined;
    const db = new DatabaseSync(this.path, { readOnly: true });
    try {
      db.exec(`PRAGMA busy_timeout = ${this.options.busyTimeoutMs ?? 150}`);
    } catch (e) {
      db.close();
      throw e;
    }
    this.#db = db;
    return db;
  }

  /** Names of the tables present (re-read on every call: migrations may add some while we run). */
  tables(): Set<string> {
    return this.read((db) =>
      new Set(
        (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) =>
          r.name
        ),
      )
    ) ??
      new Set();
  }

  /**
   * Runs `fn` on the connection; undefined when the database does not exist.
   * A busy database is retried briefly, then {@link StoreBusyError} is thrown.
   */
  read<T>(fn: (db: DatabaseSync) => T): T | undefined {
    const attempts = this.options.attempts ?? 3;
    for (let attempt = 1;; attempt++) {
      try {
        const db = this.#open();
        if (!db) return undefined;
        return fn(db);
      } catch (e) {
        if (!isBusy(e)) throw e;
        if (attempt >= attempts) {
          throw new StoreBusyError(`the state database is busy (${(e as Error).message})`);
        }
      }
    }
  }

  /** Closes the connection (it is reopened on the next read). */
  close(): void {
    try {
      this.#db?.close();
    } catch { /* already closed */ }
    this.#db = undefined;
  }
}
