/**
 * `run_filtered` — run a command and get back only the relevant lines.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "./_tool.ts";
import { cwdParam, effortParam, engineParam, modelParam, runFleetTool, WorkerOutputSchema } from "./_fleet.ts";

/** The `run_filtered` tool. */
export const runFilteredTool = defineTool({
  name: "run_filtered",
  title: "Run a command, keep only the relevant output",
  description: "Run a shell command with full access in cwd and get back ONLY the output lines relevant to want " +
    "(plus the exit code) — semantic filtering of huge build/test/log output. Engine: the fast_delegate cascade " +
    "(codex GPT-6 Luna medium, then Claude Haiku, then OpenRouter mercury-2 only when both are unusable); " +
    "POLY_RUN_FILTERED_ENGINE, [fleet.tools.run_filtered] or engine pin one.",
  level: "act",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  task: true,
  inputSchema: {
    command: z.string().min(1).describe("The shell command to run in cwd."),
    want: z.string().min(1).describe("Which lines matter (e.g. failing tests and their assertion messages)."),
    engine: engineParam,
    model: modelParam,
    effort: effortParam,
    cwd: cwdParam,
  },
  outputSchema: WorkerOutputSchema,
  async handler(args, ctx) {
    const { runFiltered } = await import("../lib/fleet/ops/auxiliary.ts");
    return await runFleetTool(ctx, (fleet) => runFiltered(fleet, args));
  },
});
