/**
 * `bridge_stats` — calls and characters returned per tool, ratings, engine health.
 * Read-level, so it writes nothing in the workspace: the Markdown report is
 * `bridge_stats_export` (act-level), see tools/bridge_stats_export.ts.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "./_tool.ts";
import { ErrorSchema, runFleetTool } from "./_fleet.ts";

const Distribution = z.object({ "1": z.number(), "2": z.number(), "3": z.number(), "4": z.number(), "5": z.number() });

/** The statistics document (shared with `bridge_stats_export`). */
export const StatsFields = {
  tools: z.array(z.object({
    tool: z.string(),
    calls: z.number(),
    failures: z.number(),
    out_chars: z.number(),
    raw_chars: z.number(),
    ratings: z.object({ count: z.number(), mean: z.number().nullable(), distribution: Distribution }),
  })).optional(),
  totals: z.object({
    calls: z.number(),
    out_chars: z.number(),
    raw_chars: z.number(),
    saved_chars: z.number(),
    ratings: z.number(),
  }).optional(),
  engines: z.array(z.object({
    engine: z.string(),
    runs: z.number(),
    success_rate: z.number().nullable(),
    median_latency_ms: z.number().nullable(),
    quota_exhausted: z.boolean(),
    unhealthy: z.boolean(),
  })).optional(),
  error: ErrorSchema.optional(),
};

/** The `bridge_stats` tool. */
export const bridgeStatsTool = defineTool({
  name: "bridge_stats",
  title: "Fleet statistics and ratings",
  description: "Report calls and characters returned to context per fleet tool (against the raw engine output they " +
    "replaced), ratings per tool, and each engine's recorded health (success rate, median latency, quota). " +
    "Writes nothing: to save the report as Markdown in the workspace, call bridge_stats_export (act level).",
  level: "read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  inputSchema: {},
  outputSchema: z.object(StatsFields),
  async handler(_args, ctx) {
    const { bridgeStats } = await import("../lib/fleet/ops/stats.ts");
    return await runFleetTool(ctx, (fleet) => bridgeStats(fleet));
  },
});
