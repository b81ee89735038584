/**
 * `explore` — read-only exploration: locate things in the project and answer
 * with file:line references.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "./_tool.ts";
import { cwdParam, effortParam, engineParam, modelParam, runFleetTool, WorkerOutputSchema } from "./_fleet.ts";

/** The `explore` tool. */
export const exploreTool = defineTool({
  name: "explore",
  title: "Explore the project (read-only)",
  description:
    "Read-only exploration by a worker (the workspace is mounted read-only in the sandbox). question alone → " +
    "broad search returning file:line refs; question + files → answer about those files; neither → a project map. " +
    'breadth: "thorough" sweeps wider. Locates, does not review. Default: codex GPT-6 Luna, medium effort ' +
    "(POLY_EXPLORE_MODEL / POLY_EXPLORE_EFFORT), falling through the fast cascade when codex is missing, unhealthy " +
    "or out of quota; POLY_EXPLORE_ENGINE, [fleet.tools.explore] or engine pin one.",
  level: "read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  task: true,
  inputSchema: {
    question: z.string().min(1).optional().describe("What to find or answer."),
    files: z.array(z.string().min(1)).optional().describe("Files to focus on, relative to cwd."),
    breadth: z.enum(["normal", "thorough"]).optional().describe('"thorough" sweeps wider (slower).'),
    engine: engineParam,
    model: modelParam,
    effort: effortParam,
    cwd: cwdParam,
  },
  outputSchema: WorkerOutputSchema,
  async handler(args, ctx) {
    const { explore } = await import("../lib/fleet/ops/auxiliary.ts");
    return await runFleetTool(ctx, (fleet) => explore(fleet, args));
  },
});
