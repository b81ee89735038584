/**
 * `rate` (1–5 for a session) and the session list behind `poly sessions`.
 *
 * @module
 */
import type { FleetContext } from "../context.ts";
import { FleetError } from "../errors.ts";
import type { SessionRecord } from "../store.ts";
import { recorded } from "./_call.ts";

/** A rate call. */
export interface RateInput {
  session_id: string;
  score: number;
  note?: string;
}

/** What rate returns. */
export interface RateOutput {
  session_id: string;
  score: number;
  tool: string;
  engine: string;
  /** A previous score that this one replaced. */
  replaced?: number;
}

/** Runs `rate`. */
export function rate(ctx: FleetContext, input: RateInput): Promise<RateOutput> {
  return recorded(ctx, "rate", () => {
    if (!Number.isInteger(input.score) || input.score < 1 || input.score > 5) {
      throw new FleetError("invalid_request", `A rating is a whole number from 1 to 5, not ${input.score}`);
    }
    const rec = ctx.store.session(input.session_id);
    if (!rec) throw new FleetError("not_found", `Unknown session "${input.session_id}": poly has no record of it`);
    ctx.store.rate(rec.handle, input.score, input.note);
    const output: RateOutput = {
      session_id: rec.handle,
      score: input.score,
      tool: rec.tool,
      engine: rec.engine,
      ...(rec.rating !== null && rec.rating !== input.score ? { replaced: rec.rating } : {}),
    };
    return Promise.resolve({ output, rawChars: 0, handle: rec.handle });
  });
}

/** Recent sessions, newest first. */
export function listSessions(ctx: FleetContext, limit = 50): SessionRecord[] {
  return ctx.store.sessions(limit);
}
