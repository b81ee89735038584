/**
 * `fast_delegate` — like delegate, without a level: the fastest healthy engine
 * of the cascade does the work.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "./_tool.ts";
import { agentParam, cwdParam, effortParam, modelParam, runFleetTool, WorkerOutputSchema } from "./_fleet.ts";

/** The `fast_delegate` tool. */
export const fastDelegateTool = defineTool({
  name: "fast_delegate",
  title: "Delegate to the fastest healthy agent",
  description: "Same full read/edit/shell access as delegate, with no level to pick: routes to whichever engine is " +
    "currently the fastest and healthy (recorded success rate and latency). Prefer it for simple or urgent tasks. " +
    "Candidates: codex GPT-6 Luna medium, then Claude Haiku low (subscriptions), then pay-per-token OpenRouter " +
    "mercury-2 through opencode only when both are missing, out of quota or unhealthy ([fleet] fast overrides). " +
    "model and effort override the chosen engine's own (the cascade still picks the engine). " +
    "agent adds a persona. Returns the answer, the session_id, and which engines were skipped and why.",
  level: "act",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  task: true,
  inputSchema: {
    prompt: z.string().min(1).describe("The task, self-contained."),
    model: modelParam,
    effort: effortParam,
    agent: agentParam,
    cwd: cwdParam,
  },
  outputSchema: WorkerOutputSchema,
  async handler(args, ctx) {
    const { fastDelegate } = await import("../lib/fleet/ops/delegate.ts");
    return await runFleetTool(ctx, (fleet) => fastDelegate(fleet, args));
  },
});
