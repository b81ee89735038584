/**
 * The embedded state database (`node:sqlite`): sessions, ratings, call log, health,
 * tokens (hashes only), upstream servers, catalogs, grants, pending operations.
 *
 * Several `poly mcp` processes and the dashboard use it at once: WAL mode and a
 * busy timeout, and every migration runs inside an immediate transaction so two
 * processes starting together cannot apply one twice.
 *
 * Each concern registers its own named migrations (`lib/store/migrations/*.ts`,
 * listed in `migrations/mod.ts`); a migration is applied once, by name.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { stateHome } from "../paths/mod.ts";
import { MIGRATIONS } from "./migrations/mod.ts";

export type { DatabaseSync };

/** One schema change, applied once by name. */
export interface Migration {
  /** Unique and stable, e.g. "fleet-001-sessions". Never rename one that has shipped. */
  name: string;
  sql: string;
}

/** Options for {@link openStore}. */
export interface OpenStoreOptions {
  /** Database file; defaults to `<state home>/poly.db`. `:memory:` for tests. */
  path?: string;
}

/** Path of the state database. */
export function storePath(): string {
  return join(stateHome(), "poly.db");
}

/** Opens (creating if needed) the state database and applies pending migrations. */
export function openStore(options: OpenStoreOptions = {}): DatabaseSync {
  const path = options.path ?? storePath();
  if (path !== ":memory:") Deno.mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
  const db = new DatabaseSync(path);
  db.exec("PRAGMA busy_timeout = 5000");
  if (path !== ":memory:") db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA foreign_keys = ON");
  migrate(db, MIGRATIONS);
  return db;
}

/** Applies every migration not yet applied, each in its own immediate transaction. */
export function migrate(db: DatabaseSync, migrations: readonly Migration[]): void {
  db.exec("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
  const has = db.prepare("SELECT 1 FROM migrations WHERE name = ?");
  const mark = db.prepare("INSERT INTO migrations (name, applied_at) VALUES (?, ?)");
  for (const m of migrations) {
    if (has.get(m.name)) continue;
    db.exec("BEGIN IMMEDIATE");
    try {
      if (!has.get(m.name)) {
        db.exec(m.sql);
        mark.run(m.name, new Date().toISOString());
      }
      db.exec("COMMIT");
    } catch (e) {
      db.exec("ROLLBACK");
      throw e;
    }
  }
}
