/**
 * Records every tool call: characters returned to the caller versus raw engine
 * output, success or the failure's kind, in the store (for bridge_stats) and,
 * when `POLY_LOG` is set, as a JSON line in that file.
 *
 * @module
 */
import type { FleetContext } from "../context.ts";
import { FleetError } from "../errors.ts";
import type { Skip } from "../cascade.ts";
import type { EngineResult } from "../run.ts";

/** The common output of a worker tool. */
export interface WorkerOutput {
  /** The worker's answer (scrubbed, cut to the answer limit). */
  answer: string;
  /** The session handle `engine:id` for follow_up and rate. */
  session_id?: string;
  engine: string;
  model?: string;
  effort?: string;
  level?: number;
  /** The answer was cut to the answer limit. */
  truncated?: boolean;
  /** Engines the cascade passed over, and why. */
  skipped?: Skip[];
  latency_ms: number;
}

/** Builds a {@link WorkerOutput} from an engine result. */
export function workerOutput(r: EngineResult, extra: { level?: number; skipped?: Skip[] } = {}): WorkerOutput {
  return {
    answer: r.text,
    ...(r.handle ? { session_id: r.handle } : {}),
    engine: r.engine,
    ...(r.model ? { model: r.model } : {}),
    ...(r.effort ? { effort: r.effort } : {}),
    ...(extra.level !== undefined ? { level: extra.level } : {}),
    ...(r.truncated ? { truncated: true } : {}),
    ...(extra.skipped?.length ? { skipped: extra.skipped } : {}),
    latency_ms: r.latencyMs,
  };
}

/** What an operation hands back to {@link recorded}. */
export interface CallResult<T> {
  output: T;
  rawChars: number;
  engine?: string;
  handle?: string;
}

/** Appends one JSON line to `POLY_LOG` (best effort; a no-op when it is not set). */
export async function appendLog(ctx: FleetContext, line: Record<string, unknown>): Promise<void> {
  const path = ctx.settings.logPath;
  if (!path) return;
  try {
    await Deno.writeTextFile(path, JSON.stringify(line) + "\n", { append: true, create: true, mode: 0o600 });
  } catch {
    // the log is best effort; the store has the record
  }
}

/** Runs `fn` as one recorded call of `tool`. */
export async function recorded<T>(ctx: FleetContext, tool: string, fn: () => Promise<CallResult<T>>): Promise<T> {
  const started = performance.now();
  try {
    const r = await fn();
    const outChars = JSON.stringify(r.output).length;
    const latencyMs = performance.now() - started;
    ctx.store.recordCall({
      tool,
      engine: r.engine,
      handle: r.handle,
      ok: true,
      outChars,
      rawChars: r.rawChars,
      latencyMs,
    });
    await appendLog(ctx, {
      at: new Date().toISOString(),
      tool,
      engine: r.engine ?? null,
      session: r.handle ?? null,
      outChars,
      rawChars: r.rawChars,
      ok: true,
    });
    return r.output;
  } catch (e) {
    const kind = e instanceof FleetError ? e.kind : "internal";
    const message = e instanceof Error ? e.message : String(e);
    const engine = e instanceof FleetError ? e.engine : undefined;
    ctx.store.recordCall({
      tool,
      engine,
      ok: false,
      errorKind: kind,
      outChars: message.length,
      rawChars: 0,
      latencyMs: performance.now() - started,
    });
    await appendLog(ctx, {
      at: new Date().toISOString(),
      tool,
      engine: engine ?? null,
      outChars: message.length,
      ok: false,
      error: kind,
    });
    throw e;
  }
}
