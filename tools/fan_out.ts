/**
 * `fan_out` — several independent read-only workers, then an arbiter merges.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "./_tool.ts";
import { cwdParam, ErrorSchema, runFleetTool } from "./_fleet.ts";

/** The `fan_out` tool. */
export const fanOutTool = defineTool({
  name: "fan_out",
  title: "Fan out to several workers and merge",
  description: "Get independent opinions, compare approaches, cross-check a risky verdict, or split broad research: " +
    "runs 1–5 read-only workers in parallel (distinct healthy engines first), then a codex arbiter merges their " +
    "answers. tasks gives each worker its own part. With consensus (or POLY_JEV_FANOUT), decide first checks whether " +
    "the answers agree; high agreement skips the arbiter, uncertainty or a decide failure keeps it. Costs several " +
    "times one delegate: avoid for simple lookups, single-file edits and tightly coupled sequential work.",
  level: "act",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  task: true,
  inputSchema: {
    prompt: z.string().min(1).describe("The task (or the shared framing when tasks split it)."),
    tasks: z.array(z.string().min(1)).min(1).max(5).optional().describe("One part per worker."),
    workers: z.number().int().min(1).max(5).optional().describe("Workers when tasks is not given (default 2)."),
    consensus: z.boolean().optional().describe("Ask decide whether the workers agree before running the arbiter."),
    cwd: cwdParam,
  },
  outputSchema: z.object({
    answer: z.string().optional(),
    session_id: z.string().optional(),
    workers: z.array(z.object({
      engine: z.string(),
      model: z.string().optional(),
      session_id: z.string().optional(),
      ok: z.boolean(),
      chars: z.number().optional(),
      error: z.string().optional(),
    })).optional(),
    arbiter: z.object({
      engine: z.string(),
      model: z.string().optional(),
      session_id: z.string().optional(),
      skipped: z.boolean(),
      error: z.string().optional(),
    }).optional(),
    consensus: z.object({
      agreement: z.number().nullable(),
      threshold: z.number(),
      skipped_arbiter: z.boolean(),
      error: z.string().optional(),
    }).optional(),
    latency_ms: z.number().optional(),
    error: ErrorSchema.optional(),
  }),
  async handler(args, ctx) {
    const { fanOut } = await import("../lib/fleet/ops/fanout.ts");
    return await runFleetTool(ctx, (fleet) => fanOut(fleet, args));
  },
});
