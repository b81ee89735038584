/**
 * `decide` as a recorded tool call.
 *
 * @module
 */
import type { FleetContext } from "../context.ts";
import { decideCall, type DecideRequest, type Decision } from "../decide.ts";
import { recorded } from "./_call.ts";

/** Runs `decide`. */
export function decide(ctx: FleetContext, input: DecideRequest): Promise<Decision> {
  return recorded(ctx, "decide", async () => {
    const { decision, rawChars } = await decideCall(ctx, input);
    return { output: decision, rawChars, engine: "openrouter" };
  });
}
