/**
 * `decide` — a typed choice with calibrated probabilities from an OpenRouter model.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "./_tool.ts";
import { ErrorSchema, runFleetTool } from "./_fleet.ts";

/** The `decide` tool. */
export const decideTool = defineTool({
  name: "decide",
  title: "Decide with calibrated probabilities",
  description: "Ask a decision model (TypeSafe's Jev on OpenRouter by default; POLY_DECIDE_MODEL) for a typed choice " +
    "among options with a probability for each — for risky-call gates, classification, and verifying worker claims. " +
    'options default to ["yes", "no"]. Pay-per-token (OPENROUTER_API_KEY). question, options and context pass the ' +
    "credential scrubber before they are sent.",
  level: "act",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  inputSchema: {
    question: z.string().min(1).describe("The question to decide."),
    options: z.array(z.string().min(1)).min(2).max(20).optional().describe(
      'Labels to choose from (default ["yes","no"]).',
    ),
    context: z.string().optional().describe("Material the decision is about (cut to 24 000 characters)."),
    model: z.string().min(1).optional().describe("OpenRouter model id (default POLY_DECIDE_MODEL or typesafe/jev)."),
  },
  outputSchema: z.object({
    choice: z.string().optional().describe("The most probable label."),
    confidence: z.number().optional().describe("The probability of choice."),
    probabilities: z.array(z.object({ label: z.string(), probability: z.number() })).optional(),
    rationale: z.string().optional(),
    model: z.string().optional(),
    error: ErrorSchema.optional(),
  }),
  async handler(args, ctx) {
    const { decide } = await import("../lib/fleet/ops/decide.ts");
    return await runFleetTool(ctx, (fleet) => decide(fleet, args));
  },
});
