/**
 * `delegate` — run a task with full read/edit/shell access in cwd on the engine
 * a difficulty level selects (1–5), inside poly's sandbox.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "./_tool.ts";
import {
  agentParam,
  cwdParam,
  effortParam,
  engineParam,
  modelParam,
  runFleetTool,
  WorkerOutputSchema,
} from "./_fleet.ts";

/** The `delegate` tool. */
export const delegateTool = defineTool({
  name: "delegate",
  title: "Delegate a task to a coding agent",
  description: "Run a task with full read/edit/shell access in cwd on a headless coding agent inside poly's sandbox; " +
    "its raw output never enters your context, only its answer. Required level: 1=GPT-6 Luna max (codex), " +
    "2=GPT-6 Sol high (codex), 3=GPT-6 Sol max (codex), 4=Claude Opus 5.5 high (claude), 5=Claude Opus 5.5 max " +
    "(claude); levels come from [fleet.levels] when configured. Levels 4 and 5 are expensive (5 costs ~3.3× level 4): " +
    "last resort only. engine overrides the level's engine (opencode needs a provider/model model); model and effort " +
    "override the tier. agent adds a persona. Returns the answer and a session_id for follow_up and rate. A quota " +
    "failure is never retried elsewhere: the error names the usable engines and how to switch.",
  level: "act",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  task: true,
  inputSchema: {
    prompt: z.string().min(1).describe("The task, self-contained: target, definition of done."),
    level: z.number().int().min(1).max(5).describe("Difficulty level 1–5 (see the description)."),
    engine: engineParam,
    model: modelParam,
    effort: effortParam,
    agent: agentParam,
    cwd: cwdParam,
  },
  outputSchema: WorkerOutputSchema,
  async handler(args, ctx) {
    const { delegate } = await import("../lib/fleet/ops/delegate.ts");
    return await runFleetTool(ctx, (fleet) => delegate(fleet, { ...args, level: args.level as 1 }));
  },
});
