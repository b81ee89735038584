/**
 * Every repository's result cache under the cache home, read-only: entries and
 * bytes per namespace, and the hit rate of the latest recorded runs.
 *
 * The cache keeps one folder per repository anchor, named by a digest of the
 * anchor (`lib/cache` `cacheDirFor`); the anchor itself is not stored in the
 * folder, so the dashboard names the folder of the repository it was started in
 * by that repository's anchor, any folder whose `meta` table records an
 * `anchor`, and the others by their folder name.
 *
 * The queries mirror `ResultCache.stats()` (lib/cache/db.ts), which needs the
 * anchor to open a cache; these open a folder's database directly, read-only.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { basename, dirname, join, resolve } from "node:path";
import { cacheDirFor } from "../../lib/cache/db.ts";
import { NAMESPACES } from "../../lib/cache/key.ts";
import type { CacheRun, CacheSnapshot, NamespaceLine, RepoCache } from "./types.ts";

/** How many recent runs the hit rate is computed over. */
export const RECENT_RUNS = 10;

/** A repository whose cache folder is known (the one the dashboard runs in). */
export interface KnownCache {
  anchor: string;
  /** Its cache folder. */
  dir: string;
}

/** Where to look. */
export interface CacheSources {
  /** The cache home (`$POLY_CACHE_HOME` or the platform cache dir). */
  home: string;
  /** Known repositories; a `[cache] dir` outside the home is read too. */
  known?: KnownCache[];
}

type Row = Record<string, unknown>;

function fileBytes(path: string): number {
  let total = 0;
  for (const suffix of ["", "-wal"]) {
    try {
      total += Deno.statSync(path + suffix).size;
    } catch { /* absent */ }
  }
  return total;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Cache folders under `home`: `<16 hex>/cache.db`. */
export function cacheFolders(home: string): string[] {
  const out: string[] = [];
  try {
    for (const e of Deno.readDirSync(home)) {
      if (e.isDirectory && /^[0-9a-f]{16}$/.test(e.name) && isFile(join(home, e.name, "cache.db"))) {
        out.push(join(home, e.name));
      }
    }
  } catch { /* no cache home yet */ }
  return out.sort();
}

/** Reads one cache database (read-only). */
export function readRepoCache(dir: string, known?: KnownCache): RepoCache {
  const path = join(dir, "cache.db");
  const base: RepoCache = {
    dir,
    path,
    label: known?.anchor ?? basename(dir),
    ...(known ? { anchor: known.anchor } : {}),
    current: known !== undefined,
    namespaces: NAMESPACES.map((namespace) => ({ namespace, entries: 0, bytes: 0, hits: 0, misses: 0, runs: 0 })),
    total: { entries: 0, bytes: 0 },
    fileBytes: fileBytes(path),
    recentRuns: [],
  };
  if (!isFile(path)) return base;
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path, { readOnly: true });
    db.exec("PRAGMA busy_timeout = 150");
    const d = db;
    const tables = new Set(
      (d.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Row[]).map((r) => String(r.name)),
    );
    if (!tables.has("entries") || !tables.has("runs") || !tables.has("meta")) {
      return { ...base, error: "not a poly cache database" };
    }
    const meta = d.prepare("SELECT value FROM meta WHERE key = 'anchor'").get() as Row | undefined;
    const indexed = tables.has("files")
      ? d.prepare("SELECT path FROM files WHERE path LIKE '/%' OR path LIKE '_:%' LIMIT 1").get() as Row | undefined
      : undefined;
    const anchor = known?.anchor ?? (meta ? String(meta.value) : undefined);
    const lines = new Map<string, NamespaceLine>(base.namespaces.map((n) => [n.namespace, n]));
    const line = (ns: string) => {
      let l = lines.get(ns);
      if (!l) lines.set(ns, l = { namespace: ns, entries: 0, bytes: 0, hits: 0, misses: 0, runs: 0 });
      return l;
    };
    d.exec("BEGIN");
    let runs: Row[];
    try {
      for (
        const r of d.prepare("SELECT ns, COUNT(*) AS n, COALESCE(SUM(bytes), 0) AS b FROM entries GROUP BY ns")
          .all() as Row[]
      ) {
        Object.assign(line(String(r.ns)), { entries: Number(r.n), bytes: Number(r.b) });
      }
      runs = d.prepare(
        `SELECT run, MIN(at) AS at, ns, SUM(hits) AS hits, SUM(misses) AS misses FROM runs
         WHERE run IN (SELECT run FROM runs GROUP BY run ORDER BY MAX(id) DESC LIMIT ?)
         GROUP BY run, ns ORDER BY MAX(id) DESC, ns`,
      ).all(RECENT_RUNS) as Row[];
    } finally {
      d.exec("COMMIT");
    }
    const recentRuns: CacheRun[] = runs.map((r) => ({
      at: String(r.at),
      namespace: String(r.ns),
      hits: Number(r.hits),
      misses: Number(r.misses),
    }));
    for (const r of recentRuns) {
      const l = line(r.namespace);
      l.hits += r.hits;
      l.misses += r.misses;
      l.runs += 1;
    }
    const namespaces = [...lines.values()];
    return {
      ...base,
      ...(anchor ? { anchor, label: anchor } : {}),
      ...(indexed ? { indexedPath: String(indexed.path) } : {}),
      namespaces,
      total: {
        entries: namespaces.reduce((a, n) => a + n.entries, 0),
        bytes: namespaces.reduce((a, n) => a + n.bytes, 0),
      },
      recentRuns,
    };
  } catch (e) {
    return { ...base, error: (e as Error).message };
  } finally {
    try {
      db?.close();
    } catch { /* already closed */ }
  }
}

/** Every cache under the home, plus known ones kept elsewhere; the current repository first. */
export function readCaches(sources: CacheSources): CacheSnapshot {
  const known = new Map((sources.known ?? []).map((k) => [resolve(k.dir), k]));
  const dirs = new Set(cacheFolders(sources.home).map((d) => resolve(d)));
  for (const dir of known.keys()) if (isFile(join(dir, "cache.db"))) dirs.add(dir);
  const repos = [...dirs].map((dir) => readRepoCache(dir, known.get(dir)));
  repos.sort((a, b) => Number(b.current) - Number(a.current) || a.label.localeCompare(b.label));
  const roots = [
    sources.home,
    ...[...known.keys()].map((d) => join(d, "..")).filter((r) => resolve(r) !== resolve(sources.home)),
  ];
  return { roots: [...new Set(roots)], repos };
}

/**
 * The repository of a cache folder not named by a known one: the folder of a file its stat index records whose
 * digest names the folder — the digest `poly cache stats` and every run use to find a repository's cache
 * (`cacheDirFor`). Undefined when no recorded file leads to it (a cache only `poly fmt` has used records none).
 */
export async function findAnchor(repo: RepoCache): Promise<string | undefined> {
  if (!repo.indexedPath) return undefined;
  const name = basename(repo.dir);
  for (let dir = dirname(repo.indexedPath);; dir = dirname(dir)) {
    if (basename(await cacheDirFor(dir, "/")) === name) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * {@link readCaches}, each cache named by its repository where {@link findAnchor} finds it (remembered in `found`:
 * a folder's repository never changes).
 */
export async function readNamedCaches(sources: CacheSources, found: Map<string, string>): Promise<CacheSnapshot> {
  const snapshot = readCaches(sources);
  for (const [i, repo] of snapshot.repos.entries()) {
    if (repo.anchor || repo.error) continue;
    const anchor = found.get(repo.dir) ?? await findAnchor(repo);
    if (!anchor) continue;
    found.set(repo.dir, anchor);
    snapshot.repos[i] = { ...repo, anchor, label: anchor };
  }
  snapshot.repos.sort((a, b) => Number(b.current) - Number(a.current) || a.label.localeCompare(b.label));
  return snapshot;
}
