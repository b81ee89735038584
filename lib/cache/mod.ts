/**
 * The result cache: keys ({@link cacheKey}), the per-anchor SQLite store
 * ({@link openCache}), the build identity in every key, and the library functions
 * behind `poly cache stats` / `poly cache clean` and the MCP tools `cache_stats` /
 * `cache_clean` (they return plain JSON documents).
 *
 * @example
 * ```ts
 * import { cacheKey, openCache } from "./mod.ts";
 * const cache = await openCache({ anchor: configs.anchor, enabled: !request.noCache && config.data.cache.enabled });
 * const key = await cacheKey({ namespace: "fmt", engine: "gofmt", engineVersion, settings, path: file.relPath, content: file.text });
 * const hit = cache.get<{ text: string }>("fmt", key);
 * ```
 *
 * @module
 */
import { resolve } from "node:path";
import { openCache } from "./db.ts";
import type { Namespace } from "./key.ts";
import type { CacheCleanDocument, CacheStatsDocument } from "./types.ts";

export { CACHE_FORMAT, cacheKey, type CacheKeyParts, type Namespace, NAMESPACES } from "./key.ts";
export { buildIdentity } from "./build.ts";
export {
  type CacheCounters,
  cacheDirFor,
  checkoutDirFor,
  type FileRecord,
  type FileStamp,
  openCache,
  type OpenCacheOptions,
  RACY_MS,
  type ResultCache,
  sameStamp,
  stampOf,
} from "./db.ts";
export {
  fromStored,
  resultKey,
  resultKeyNow,
  type StoredVerdict,
  throughCache,
  UNCACHEABLE,
  verdictOf,
} from "./engine.ts";
export type { CacheCleanDocument, CacheStatsDocument, NamespaceStats, RecentRun } from "./types.ts";

/** Options of {@link cacheStats} and {@link cacheClean}. */
export interface CacheCommandOptions {
  /** Where the command runs: the anchor and `[cache]` come from the configuration governing it. */
  cwd: string;
  /** `--config PATH`. */
  config?: string;
}

async function locate(options: CacheCommandOptions): Promise<{ anchor: string; root?: string }> {
  const { openConfig } = await import("../config/mod.ts");
  const configs = await openConfig({ cwd: options.cwd, explicit: options.config });
  const config = await configs.forDir(options.cwd);
  const dir = config.data.cache.dir;
  return { anchor: configs.anchor, ...(dir ? { root: resolve(config.dir, dir) } : {}) };
}

/** The cache statistics for the repository containing `cwd`. */
export async function cacheStats(options: CacheCommandOptions): Promise<CacheStatsDocument> {
  const where = await locate(options);
  const cache = await openCache({ anchor: where.anchor, root: where.root });
  try {
    const doc = cache.stats();
    const remote = doc.path ? await (await import("./remote/mod.ts")).readRemoteStats(doc.path) : undefined;
    const replays = (await import("./replay.ts")).replayStats();
    return { ...doc, ...(remote ? { remote } : {}), replays };
  } finally {
    cache.close();
  }
}

/**
 * Removes the cache entries of one namespace (or all) for the repository containing `cwd`, and every kept run
 * (lib/cache/replay.ts), so the next check runs for real.
 */
export async function cacheClean(
  options: CacheCommandOptions & { namespace?: Namespace },
): Promise<CacheCleanDocument> {
  await (await import("./replay.ts")).forgetReplays();
  const where = await locate(options);
  const cache = await openCache({ anchor: where.anchor, root: where.root });
  try {
    return cache.clean(options.namespace);
  } finally {
    cache.close();
  }
}
