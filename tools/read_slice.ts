/**
 * `read_slice` — only the lines of the given files that matter for `want`.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "./_tool.ts";
import { cwdParam, effortParam, engineParam, modelParam, runFleetTool, WorkerOutputSchema } from "./_fleet.ts";

/** The `read_slice` tool. */
export const readSliceTool = defineTool({
  name: "read_slice",
  title: "Read only the relevant slice of files",
  description: "Surgical read-only read: returns ONLY the code relevant to want (exact lines headed by file:line) " +
    "from the given files — the whole file never enters your context. Use instead of reading large files whole. " +
    "Read-only (workspace mounted read-only). Default: codex GPT-6 Luna, medium effort, then the fast cascade.",
  level: "read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  task: true,
  inputSchema: {
    files: z.array(z.string().min(1)).min(1).describe("Files to read, relative to cwd."),
    want: z.string().min(1).describe("What you need from them."),
    engine: engineParam,
    model: modelParam,
    effort: effortParam,
    cwd: cwdParam,
  },
  outputSchema: WorkerOutputSchema,
  async handler(args, ctx) {
    const { readSlice } = await import("../lib/fleet/ops/auxiliary.ts");
    return await runFleetTool(ctx, (fleet) => readSlice(fleet, args));
  },
});
