/**
 * `cache_clean` — removes this repository's result-cache entries (every
 * namespace). The document of `poly cache clean --format json`.
 *
 * @module
 */
import { z } from "zod";
import { Identity } from "../lib/report/schema.ts";
import { formatParam } from "./_run.ts";
import { defineTool, MUTATING } from "./_tool.ts";

/** The document `cache_clean` returns. */
export const CacheCleanDocument = z.object({
  anchor: z.string(),
  path: z.string().optional(),
  namespaces: z.array(z.string()),
  /** Entries removed. */
  removed: z.number().int(),
  /** Bytes of the removed entries. */
  bytes: z.number().int(),
  poly: Identity,
});

/** The `cache_clean` tool. */
export const cacheCleanTool = defineTool({
  name: "cache_clean",
  title: "Clear the result cache",
  description:
    "Remove this repository's result-cache entries in every namespace (lint, fmt, rules); the next run recomputes everything. Changes poly's cache, not the source tree: use when asked, or when results look stale. Mirrors `poly cache clean --format json`.",
  level: "act",
  annotations: MUTATING,
  inputSchema: { format: formatParam },
  outputSchema: CacheCleanDocument,
  async handler(args, ctx) {
    const { cacheClean } = await import("../lib/cache/mod.ts");
    const { identity } = await import("../lib/identity/mod.ts");
    const doc = await cacheClean({ cwd: ctx.root, config: ctx.defaultConfig });
    return { structured: { ...doc, poly: await identity() }, format: args.format ?? "json" };
  },
});
