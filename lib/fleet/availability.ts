/**
 * Which engines a call may use: enabled (cursor only when opted in), installed
 * (its binary found), capable of what the tool needs, and — for cascades —
 * healthy and not out of quota, from the runs recorded in the store.
 *
 * @module
 */
import { FleetError } from "./errors.ts";
import type { FleetContext } from "./context.ts";
import { adapter } from "./engines/mod.ts";
import { findExecutable } from "./sandbox.ts";
import type { EngineHealth } from "./store.ts";
import { type EngineName, ENGINES } from "./types.ts";

/** What a tool needs from an engine. */
export interface Needs {
  readOnly?: boolean;
  web?: boolean;
  image?: boolean;
}

/** Where an engine's binary is. */
export interface BinaryLocation {
  /** As found (PATH entry or the configured path). */
  path: string;
  /** With symlinks resolved. */
  real: string;
}

const located = new WeakMap<FleetContext, Map<EngineName, Promise<BinaryLocation | undefined>>>();

/** Finds the engine's binary (`POLY_<ENGINE>_BIN`, `[fleet.engines.<e>] bin`, else its name on PATH). */
export function locateBinary(ctx: FleetContext, engine: EngineName): Promise<BinaryLocation | undefined> {
  let cache = located.get(ctx);
  if (!cache) located.set(ctx, cache = new Map());
  let found = cache.get(engine);
  if (!found) {
    found = (async () => {
      const path = await findExecutable(ctx.settings.bins[engine], ctx.env("PATH"));
      if (!path) return undefined;
      let real = path;
      try {
        real = await Deno.realPath(path);
      } catch {
        // keep the path as found
      }
      return { path, real };
    })();
    cache.set(engine, found);
  }
  return found;
}

/** Why `engine` cannot serve a tool with `needs`, or undefined when it can (ignoring installation). */
export function incapability(ctx: FleetContext, engine: EngineName, needs: Needs): string | undefined {
  const caps = adapter(engine).capabilities;
  if (engine === "cursor" && !ctx.settings.enableCursor) return "disabled (set POLY_ENABLE_CURSOR=1 to enable it)";
  if (needs.web && !caps.web) return "has no web search";
  if (needs.image && !caps.image) return "has no image tool";
  if (needs.readOnly && !ctx.settings.sandbox && !caps.ownReadOnly) {
    return "cannot guarantee read-only access with the sandbox off (POLY_SANDBOX=off): only codex has its own read-only mode";
  }
  return undefined;
}

/** The health of `engine` from the store. */
export function healthOf(ctx: FleetContext, engine: EngineName): EngineHealth {
  return ctx.store.health(engine, {
    threshold: ctx.settings.healthThreshold,
    cooldownMs: ctx.settings.quotaCooldownMs,
  });
}

/** Throws `engine_unavailable` unless `engine` is enabled, capable and installed; returns its binary. */
export async function requireEngine(
  ctx: FleetContext,
  engine: EngineName,
  needs: Needs,
  tool: string,
): Promise<BinaryLocation> {
  const why = incapability(ctx, engine, needs);
  if (why) throw new FleetError("engine_unavailable", `${tool} cannot run on ${engine}: it ${why}`, { engine });
  const bin = await locateBinary(ctx, engine);
  if (!bin) {
    throw new FleetError(
      "engine_unavailable",
      `${tool} needs the ${engine} CLI ("${ctx.settings.bins[engine]}"), which is not installed or not on PATH: ` +
        `install it, set POLY_${engine.toUpperCase()}_BIN to its path, or pick another engine`,
      { engine },
    );
  }
  return bin;
}

/**
 * Engines still usable after `exhausted` failed: enabled, installed, capable of
 * `needs`, not themselves out of quota, and among `among` when given.
 */
export async function usableEngines(
  ctx: FleetContext,
  needs: Needs,
  exclude: EngineName[],
  among?: readonly EngineName[],
): Promise<EngineName[]> {
  const out: EngineName[] = [];
  for (const engine of among ?? ENGINES) {
    if (exclude.includes(engine) || out.includes(engine)) continue;
    if (incapability(ctx, engine, needs)) continue;
    if (!(await locateBinary(ctx, engine))) continue;
    if (healthOf(ctx, engine).quotaExhausted) continue;
    out.push(engine);
  }
  return out;
}
