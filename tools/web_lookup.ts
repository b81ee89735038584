/**
 * `web_lookup` — a web or documentation lookup by an engine with web search.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "./_tool.ts";
import { cwdParam, effortParam, engineParam, modelParam, runFleetTool, WorkerOutputSchema } from "./_fleet.ts";

/** The `web_lookup` tool. */
export const webLookupTool = defineTool({
  name: "web_lookup",
  title: "Look something up on the web",
  description: "Web/docs lookup with real web search and a read-only filesystem, answered concisely with source " +
    "URLs. Runs only on engines that can search the web (codex, claude): codex GPT-6 Luna medium by default, " +
    "falling back to Claude Haiku when codex is missing, unhealthy or out of quota. Another engine is refused.",
  level: "read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  task: true,
  inputSchema: {
    query: z.string().min(1).describe("What to look up."),
    engine: engineParam,
    model: modelParam,
    effort: effortParam,
    cwd: cwdParam,
  },
  outputSchema: WorkerOutputSchema,
  async handler(args, ctx) {
    const { webLookup } = await import("../lib/fleet/ops/auxiliary.ts");
    return await runFleetTool(ctx, (fleet) => webLookup(fleet, args));
  },
});
