/**
 * Cleaning one namespace of one repository's cache from the dashboard, after the
 * person confirmed it. The same removal as `ResultCache.clean(ns)`
 * (lib/cache/db.ts) — entries and recorded runs of that namespace — on a cache
 * folder's database opened directly, in one immediate transaction with a busy
 * timeout, so a lint run writing to the same cache waits for it or it waits for
 * the run. Space is reused by later entries; `poly cache clean` also compacts.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";

/** What a clean removed. */
export interface CleanResult {
  namespace: string;
  removed: number;
  bytes: number;
}

/** Removes the entries and run records of `namespace` from the cache database at `path`. */
export function cleanNamespace(path: string, namespace: string): CleanResult {
  const db = new DatabaseSync(path);
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.exec("BEGIN IMMEDIATE");
    try {
      const row = db.prepare("SELECT COUNT(*) AS n, COALESCE(SUM(bytes), 0) AS b FROM entries WHERE ns = ?").get(
        namespace,
      ) as {
        n: number;
        b: number;
      };
      db.prepare("DELETE FROM entries WHERE ns = ?").run(namespace);
      db.prepare("DELETE FROM runs WHERE ns = ?").run(namespace);
      db.exec("COMMIT");
      return { namespace, removed: Number(row.n), bytes: Number(row.b) };
    } catch (e) {
      try {
        db.exec("ROLLBACK");
      } catch { /* none open */ }
      throw e;
    }
  } finally {
    db.close();
  }
}
