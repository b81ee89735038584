/**
 * `bridge_stats_export` — writes the `bridge_stats` report as Markdown in the
 * workspace.
 *
 * It is a tool of its own, at act level, rather than an argument of the
 * read-level `bridge_stats`: a tool's level is one static property that the
 * HTTP guard checks before the handler runs (tools/serve/http_access.ts), that
 * `tools/list` annotations (readOnlyHint) and `[serve] require_approval` are
 * keyed on, and that `whoami` reports. A per-argument level would be a second
 * permission system hidden in one handler; a separate tool keeps "a read-level
 * call never writes in the workspace" true by construction.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "./_tool.ts";
import { StatsFields } from "./bridge_stats.ts";
import { cwdParam, runFleetTool } from "./_fleet.ts";

/** The `bridge_stats_export` tool. */
export const bridgeStatsExportTool = defineTool({
  name: "bridge_stats_export",
  title: "Write the fleet statistics report",
  description: "Write the bridge_stats report (calls, characters returned per tool, ratings, engine health) as " +
    "Markdown to research/bench/<YYYY-MM-DD>-ratings.md inside cwd, or to path. Creates a new file: an existing " +
    "file is replaced only with overwrite: true. Never writes outside the workspace root (after resolving links), " +
    "inside .git/ or .poly/, or to poly.toml, poly.local.toml or poly-config.lock.",
  level: "act",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  inputSchema: {
    path: z.string().min(1).optional().describe(
      "Where to write, relative to cwd (default research/bench/<YYYY-MM-DD>-ratings.md).",
    ),
    overwrite: z.boolean().optional().describe("Replace the file if it exists (default false: refuse)."),
    cwd: cwdParam,
  },
  outputSchema: z.object({
    ...StatsFields,
    export_path: z.string().optional().describe("Where the report was written, relative to cwd."),
    replaced: z.boolean().optional().describe("An existing file was replaced."),
  }),
  async handler(args, ctx) {
    const { exportStats } = await import("../lib/fleet/ops/stats.ts");
    return await runFleetTool(ctx, (fleet) => exportStats(fleet, args));
  },
});
