/**
 * `generate_image` — create or edit an image with codex's (or grok's) image
 * tool and save it inside cwd.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "./_tool.ts";
import { cwdParam, ErrorSchema, runFleetTool } from "./_fleet.ts";

/** The `generate_image` tool. */
export const generateImageTool = defineTool({
  name: "generate_image",
  title: "Generate or edit an image",
  description: "Generate an image (or edit the given input images) through codex's built-in image tool (or grok's) " +
    "and save it inside cwd. output is a path relative to cwd (default images/image-<timestamp>.png); a path " +
    "outside cwd is refused, and an existing file needs overwrite: true. Returns the saved path and its size.",
  level: "act",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  task: true,
  inputSchema: {
    prompt: z.string().min(1).describe("What the image should show (or how to edit the inputs)."),
    output: z.string().min(1).optional().describe("Where to save it, relative to cwd."),
    inputs: z.array(z.string().min(1)).optional().describe("Images to edit, relative to cwd."),
    engine: z.enum(["codex", "grok"]).optional().describe("codex (default) or grok."),
    model: z.string().min(1).optional().describe("Model override (default POLY_IMAGE_MODEL on codex)."),
    overwrite: z.boolean().optional().describe("Replace an existing file at output."),
    cwd: cwdParam,
  },
  outputSchema: z.object({
    path: z.string().optional().describe("The saved image, relative to cwd."),
    bytes: z.number().int().optional(),
    engine: z.string().optional(),
    model: z.string().optional(),
    session_id: z.string().optional(),
    answer: z.string().optional(),
    latency_ms: z.number().optional(),
    error: ErrorSchema.optional(),
  }),
  async handler(args, ctx) {
    const { generateImage } = await import("../lib/fleet/ops/image.ts");
    return await runFleetTool(ctx, (fleet) => generateImage(fleet, args));
  },
});
