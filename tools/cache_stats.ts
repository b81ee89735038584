/**
 * `cache_stats` — the result cache's footprint for this repository: entries and
 * bytes per namespace, format version, recent hit rates. The document of `poly
 * cache stats --format json`.
 *
 * @module
 */
import { z } from "zod";
import { Identity } from "../lib/report/schema.ts";
import { formatParam } from "./_run.ts";
import { defineTool, READ_ONLY } from "./_tool.ts";

/** The document `cache_stats` returns. */
export const CacheStatsDocument = z.object({
  enabled: z.boolean(),
  /** The repository anchor the cache belongs to. */
  anchor: z.string(),
  path: z.string().optional(),
  format_version: z.number().int(),
  namespaces: z.array(z.object({ namespace: z.string(), entries: z.number().int(), bytes: z.number().int() })),
  total: z.object({ entries: z.number().int(), bytes: z.number().int() }),
  file_bytes: z.number().int(),
  recent_runs: z.array(z.object({
    at: z.string(),
    namespace: z.string(),
    hits: z.number().int(),
    misses: z.number().int(),
  })),
  /** The shared remote cache's cumulative counters on this machine, once one was used (docs/cache.md). */
  remote: z.object({
    url: z.string(),
    hits: z.number().int(),
    misses: z.number().int(),
    refusals: z.number().int(),
    failures: z.number().int(),
    rows_in: z.number().int(),
    rows_out: z.number().int(),
    bytes_in: z.number().int(),
    bytes_out: z.number().int(),
    last_warning: z.string().optional(),
  }).optional(),
  /** Check runs kept whole for replay, every repository's in this cache home (docs/cache.md "Replayed runs"). */
  replays: z.object({ runs: z.number().int(), bytes: z.number().int() }).optional(),
  poly: Identity,
});

/** The `cache_stats` tool. */
export const cacheStatsTool = defineTool({
  name: "cache_stats",
  title: "Result-cache statistics",
  description:
    "The result cache's footprint for this repository: entries and bytes per namespace (lint, fmt, rules), the cache format version, file size, recent runs' hits and misses, and the check runs kept for replay. Read-only. Mirrors `poly cache stats --format json`.",
  level: "read",
  annotations: READ_ONLY,
  inputSchema: { format: formatParam },
  outputSchema: CacheStatsDocument,
  async handler(args, ctx) {
    const { cacheStats } = await import("../lib/cache/mod.ts");
    const { identity } = await import("../lib/identity/mod.ts");
    const doc = await cacheStats({ cwd: ctx.root, config: ctx.defaultConfig });
    return { structured: { ...doc, poly: await identity() }, format: args.format ?? "json" };
  },
});
