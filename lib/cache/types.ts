/**
 * The plain JSON documents `poly cache stats` and `poly cache clean` print and the
 * MCP tools `cache_stats` and `cache_clean` return.
 *
 * @module
 */
import type { RemoteStats } from "./remote/mod.ts";

/** The namespaces of the cache. */
export const NAMESPACES = ["lint", "fmt", "rules", "fix"] as const;

/**
 * One namespace: `lint` (diagnostics), `fmt` (formatted text or "unchanged"), `rules` (structural-rule findings), `fix`
 * (an engine's fixes: the fixed text, or none).
 */
export type Namespace = typeof NAMESPACES[number];

/** Entries and bytes of one namespace. */
export interface NamespaceStats {
  namespace: Namespace;
  entries: number;
  /** Bytes of keys and stored values. */
  bytes: number;
}

/** Hits and misses of one recent run in one namespace. */
export interface RecentRun {
  at: string;
  namespace: Namespace;
  hits: number;
  misses: number;
}

/** `poly cache stats`. */
export interface CacheStatsDocument {
  enabled: boolean;
  anchor: string;
  path?: string;
  format_version: number;
  namespaces: NamespaceStats[];
  total: { entries: number; bytes: number };
  /** Size of the database file and its write-ahead log. */
  file_bytes: number;
  /** Up to the 10 latest runs, newest first. */
  recent_runs: RecentRun[];
  /** The shared remote cache's cumulative counters on this machine (lib/cache/remote), once one was used. */
  remote?: RemoteStats;
  /** Check runs kept whole for replay (lib/cache/replay.ts), every repository's in this cache home. */
  replays?: { runs: number; bytes: number };
}

/** `poly cache clean`. */
export interface CacheCleanDocument {
  anchor: string;
  path?: string;
  namespaces: Namespace[];
  /** Entries removed. */
  removed: number;
  /** Bytes of the removed entries. */
  bytes: number;
}
