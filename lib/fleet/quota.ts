/**
 * Turning a recognised engine failure into an actionable error. A quota failure
 * is never retried on another engine automatically — spending the next
 * subscription is the caller's decision — so the error names the engines still
 * usable and how to switch, in the shape the tool accepts. A rate limit asks the
 * caller to wait: switching would not help.
 *
 * @module
 */
import { type Needs, usableEngines } from "./availability.ts";
import type { FleetContext } from "./context.ts";
import { FleetError } from "./errors.ts";
import { type EngineName, LEVELS } from "./types.ts";

/** The tool surfaces that shape the quota message. */
export type QuotaSurface =
  | "delegate"
  | "aux"
  | "fast_delegate"
  | "fan_out"
  | "follow_up"
  | "generate_image";

/** The quota message for `engine` on `surface`, given the engines still usable. */
export function quotaMessage(
  tool: string,
  surface: QuotaSurface,
  engine: EngineName,
  usable: EngineName[],
  levels: Record<number, { engine: EngineName }>,
  engineMessage: string,
): string {
  const own = engineMessage ? ` (${engine} said: ${engineMessage})` : "";
  const head = `${engine} quota exhausted${own}. poly does not retry on another engine by itself`;
  if (surface === "follow_up") {
    return `${head}: follow_up is pinned to the engine that owns the session; start a new call on another engine` +
      (usable.length ? ` (usable: ${usable.join(", ")})` : "") + " instead";
  }
  if (usable.length === 0) {
    return `${head}, and no other engine is usable for ${tool} (installed, enabled and capable of what it needs): ` +
      `wait for ${engine}'s quota to reset, top it up, or install another engine`;
  }
  const list = `usable engines: ${usable.join(", ")}`;
  switch (surface) {
    case "delegate": {
      const level = LEVELS.find((l) => usable.includes(levels[l].engine));
      const options = [
        ...(level !== undefined ? [`level: ${level} (the lowest level whose engine is usable)`] : []),
        `engine: "${usable[0]}"`,
      ];
      return `${head}; ${list}. Switch with ${options.join(" or ")}`;
    }
    case "aux":
      return `${head}; ${list}. Switch with engine: "${usable[0]}"`;
    case "generate_image":
      return `${head}; ${list} (only codex and grok have an image tool). Switch with engine: "${usable[0]}"`;
    case "fast_delegate":
    case "fan_out":
      return `${head}; ${list}. ${tool} picks its engine itself and skips ${engine} while its quota is exhausted`;
  }
}

/** Builds the quota error for a failed run. */
export async function quotaError(
  ctx: FleetContext,
  o: {
    tool: string;
    surface: QuotaSurface;
    engine: EngineName;
    needs: Needs;
    among?: readonly EngineName[];
    engineMessage: string;
  },
): Promise<FleetError> {
  const usable = await usableEngines(ctx, o.needs, [o.engine], o.among);
  const message = quotaMessage(o.tool, o.surface, o.engine, usable, ctx.settings.levels, o.engineMessage);
  return new FleetError("quota_exhausted", message, { engine: o.engine, usableEngines: usable });
}

/** Builds the rate-limit error: wait and retry the same engine. */
export function rateLimitError(engine: EngineName, engineMessage: string): FleetError {
  return new FleetError(
    "rate_limited",
    `${engine} is rate limited: a transient throttle, not an exhausted quota. Wait and retry the same call; ` +
      `switching engines would not help` + (engineMessage ? ` (${engine} said: ${engineMessage})` : ""),
    { engine },
  );
}
