/**
 * `rate` — grade a reviewed result 1–5 by its session_id.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "./_tool.ts";
import { ErrorSchema, runFleetTool } from "./_fleet.ts";

/** The `rate` tool. */
export const rateTool = defineTool({
  name: "rate",
  title: "Rate a worker's result",
  description: "Grade a reviewed result from 1 (useless) to 5 (excellent) by its session_id; rating again replaces " +
    "the score. Ratings stay local (the state database) and feed bridge_stats.",
  level: "act",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  inputSchema: {
    session_id: z.string().min(3).describe('The handle "engine:id" of the session.'),
    score: z.number().int().min(1).max(5).describe("1–5."),
    note: z.string().max(2000).optional().describe("Why, for later review."),
  },
  outputSchema: z.object({
    session_id: z.string().optional(),
    score: z.number().int().optional(),
    tool: z.string().optional(),
    engine: z.string().optional(),
    replaced: z.number().int().optional().describe("The earlier score this one replaced."),
    error: ErrorSchema.optional(),
  }),
  async handler(args, ctx) {
    const { rate } = await import("../lib/fleet/ops/sessions.ts");
    return await runFleetTool(ctx, (fleet) => rate(fleet, args));
  },
});
