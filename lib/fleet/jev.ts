/**
 * Jev's internal calls (seed 003): the fan_out consensus gate and the shadow gate
 * (`POLY_JEV_SHADOW`). Each attempt is written to the `POLY_LOG` call log as the seed
 * records it: `tool: "decide"`, `engine: "jev"`, zero returned characters, and a
 * `decision` record with choice, confidence, acceptance, fallback, latency, cost and,
 * for the shadow, the requested level.
 *
 * The shadow gate asks Jev, in one call in parallel with a `delegate` worker, which level
 * the task needs and whether the prompt is clear (target named, done defined, a single
 * task). It never acts: the requested level is used whatever Jev says, and a pending
 * call adds at most {@link SHADOW_GRACE_MS} after the worker ends.
 *
 * @module
 */
import type { FleetContext } from "./context.ts";
import { decideCall, type Decision } from "./decide.ts";
import { appendLog } from "./ops/_call.ts";
import type { Level } from "./types.ts";

/** The most a pending shadow call may add after the worker ends (ms). */
export const SHADOW_GRACE_MS = 5000;

/** One Jev attempt as the call log records it. */
export interface JevDecisionRecord {
  /** Which gate: `fan_out_consensus` or `delegate_shadow`. */
  purpose: "fan_out_consensus" | "delegate_shadow";
  choice: string | null;
  confidence: number | null;
  /** Whether the gate's outcome was taken: consensus skipped the arbiter; the shadow suggested the requested level. */
  acceptance: boolean;
  /** Why there is no usable answer (timeout, error, invalid answer), else null. */
  fallback: string | null;
  latency_ms: number;
  /** USD, when OpenRouter reported it. */
  cost: number | null;
  /** The shadow's requested level. */
  requested_level?: number;
  /** The shadow's suggestion: the level Jev chose and whether the prompt is clear. */
  suggested_level?: number;
  clear?: boolean;
}

/** Appends a Jev attempt to `POLY_LOG` (a no-op without it). */
export async function logJev(ctx: FleetContext, decision: JevDecisionRecord): Promise<void> {
  await appendLog(ctx, {
    at: new Date().toISOString(),
    tool: "decide",
    engine: "jev",
    session: null,
    outChars: 0,
    rawChars: 0,
    ok: decision.fallback === null,
    decision,
  });
}

/** The shadow's labels: a level and whether the prompt is clear, in one choice. */
export const SHADOW_LABELS = ["1", "2", "3", "4", "5"].flatMap((l) => [`${l}-clear`, `${l}-unclear`]);

/** A running shadow call: {@link settle} waits at most {@link SHADOW_GRACE_MS} more, then logs what Jev said. */
export interface Shadow {
  settle(): Promise<JevDecisionRecord>;
}

/** Starts the shadow gate for a delegate call (only when `POLY_JEV_SHADOW` is on; undefined otherwise). */
export function startShadow(ctx: FleetContext, prompt: string, level: Level): Shadow | undefined {
  if (!ctx.settings.jevShadow) return undefined;
  const started = performance.now();
  const abort = new AbortController();
  const call = decideCall({ ...ctx, signal: ctx.signal ? AbortSignal.any([ctx.signal, abort.signal]) : abort.signal }, {
    question: "Which delegate level (1 cheapest … 5 most capable) does this task need, and is the prompt clear " +
      "(its target named, what done means defined, a single task)? Answer LEVEL-clear or LEVEL-unclear.",
    options: SHADOW_LABELS,
    context: prompt.slice(0, 8000),
    timeoutMs: ctx.settings.timeoutMs,
  }).then((r) => ({ ok: true as const, decision: r.decision }), (e) => ({ ok: false as const, error: e as Error }));
  return {
    async settle() {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), SHADOW_GRACE_MS)));
      const out = await Promise.race([call, late]);
      clearTimeout(timer);
      if (out === "late") abort.abort();
      const latency = Math.round(performance.now() - started);
      const decision: Decision | undefined = out !== "late" && out.ok ? out.decision : undefined;
      const [lvl, clarity] = decision ? decision.choice.split("-") : [];
      const record: JevDecisionRecord = {
        purpose: "delegate_shadow",
        choice: decision?.choice ?? null,
        confidence: decision?.confidence ?? null,
        acceptance: decision ? Number(lvl) === level : false,
        fallback: out === "late"
          ? `no answer within ${SHADOW_GRACE_MS} ms after the worker ended`
          : out.ok
          ? null
          : out.error.message,
        latency_ms: latency,
        cost: null,
        requested_level: level,
        ...(decision ? { suggested_level: Number(lvl), clear: clarity === "clear" } : {}),
      };
      await logJev(ctx, record);
      return record;
    },
  };
}
