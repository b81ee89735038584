/**
 * `follow_up` — continue a session on the engine that owns it.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "./_tool.ts";
import { runFleetTool, WorkerOutputSchema } from "./_fleet.ts";

/** The `follow_up` tool. */
export const followUpTool = defineTool({
  name: "follow_up",
  title: "Continue a worker session",
  description: 'Continue a prior session by its session_id ("engine:id" from a worker tool): the same engine resumes ' +
    "it in the same directory with the same access (a read-only explore stays read-only). A quota failure here is " +
    "reported without retrying elsewhere: start a new call on another engine instead.",
  level: "act",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  task: true,
  inputSchema: {
    session_id: z.string().min(3).describe('The handle "engine:id" a worker tool returned.'),
    prompt: z.string().min(1).describe("What to do next in that session."),
  },
  outputSchema: WorkerOutputSchema,
  async handler(args, ctx) {
    const { followUp } = await import("../lib/fleet/ops/followup.ts");
    return await runFleetTool(ctx, (fleet) => followUp(fleet, args));
  },
});
