/**
 * Engine selection for the tools that pick their own engine: fast_delegate, the
 * four auxiliary tools, fan_out's workers. Candidates are tried in order,
 * skipping engines that are disabled, missing, incapable, out of quota or
 * unhealthy (from the runs recorded in the store). For fast_delegate, run_filtered
 * and fan_out, once every subscription candidate has enough recorded successes,
 * they are ordered by median latency: the fastest healthy engine goes first. The
 * read tools (explore, read_slice, web_lookup) keep their own list's order (their
 * documented default, codex with the explore model, first): health moves them along
 * it, latency never reorders it. Pay-per-token candidates always come after every
 * subscription.
 *
 * @module
 */
import { healthOf, incapability, locateBinary, type Needs } from "./availability.ts";
import type { FleetContext } from "./context.ts";
import { FleetError } from "./errors.ts";
import type { EngineHealth } from "./store.ts";
import { AUX_TOOLS, type AuxTool, type Candidate, type EngineName, type Tier } from "./types.ts";

/** Why a candidate was passed over. */
export interface Skip {
  engine: EngineName;
  reason: string;
}

/** The chosen engine and what was skipped on the way. */
export interface Selection {
  tier: Tier;
  skipped: Skip[];
  /** "call", an environment variable name, "poly.toml", or "cascade". */
  source: string;
}

/** What each auxiliary tool needs from its engine. */
export const AUX_NEEDS: Readonly<Record<AuxTool, Needs>> = {
  explore: { readOnly: true },
  read_slice: { readOnly: true },
  run_filtered: {},
  web_lookup: { readOnly: true, web: true },
};

/**
 * Orders candidates: subscriptions by median latency when every one of them has
 * one (else as configured), then pay-per-token ones as configured.
 */
export function orderCandidates(
  candidates: readonly Candidate[],
  health: ReadonlyMap<EngineName, EngineHealth>,
  o: { byLatency?: boolean } = {},
): Candidate[] {
  const subs = candidates.filter((c) => !c.paid);
  const paid = candidates.filter((c) => c.paid);
  const latency = (c: Candidate) => health.get(c.engine)?.medianLatencyMs ?? null;
  const allMeasured = (o.byLatency ?? true) && subs.length > 1 && subs.every((c) => latency(c) !== null);
  const ordered = allMeasured ? [...subs].sort((a, b) => latency(a)! - latency(b)!) : [...subs];
  return [...ordered, ...paid];
}

/** The cascade for fast_delegate and run_filtered (plus cursor-agent when enabled). */
export function fastCandidates(ctx: FleetContext): Candidate[] {
  const list = ctx.settings.fast.map((c) => ({ ...c }));
  if (ctx.settings.enableCursor && !list.some((c) => c.engine === "cursor")) {
    list.push({ engine: "cursor", model: ctx.settings.cursorModel });
  }
  return list;
}

/** Candidates that can serve now, in order, and those passed over. */
export async function usableCandidates(
  ctx: FleetContext,
  candidates: readonly Candidate[],
  needs: Needs,
  o: { byLatency?: boolean } = {},
): Promise<{ usable: Candidate[]; skipped: Skip[] }> {
  const health = new Map<EngineName, EngineHealth>();
  for (const c of candidates) if (!health.has(c.engine)) health.set(c.engine, healthOf(ctx, c.engine));
  const skipped: Skip[] = [];
  const usable: Candidate[] = [];
  for (const c of orderCandidates(candidates, health, o)) {
    const why = incapability(ctx, c.engine, needs);
    if (why) {
      skipped.push({ engine: c.engine, reason: why });
      continue;
    }
    if (!(await locateBinary(ctx, c.engine))) {
      skipped.push({ engine: c.engine, reason: `not installed ("${ctx.settings.bins[c.engine]}" not found)` });
      continue;
    }
    const h = health.get(c.engine)!;
    if (h.quotaExhausted) {
      skipped.push({ engine: c.engine, reason: `quota exhausted (recorded ${new Date(h.quotaAtMs!).toISOString()})` });
      continue;
    }
    if (h.unhealthy) {
      skipped.push({
        engine: c.engine,
        reason: `unhealthy (${Math.round((h.successRate ?? 0) * 100)}% of its last ${h.samples} runs succeeded)`,
      });
      continue;
    }
    usable.push(c);
  }
  return { usable, skipped };
}

/** The error when no candidate can serve. */
export function noCandidate(
  ctx: FleetContext,
  tool: string,
  candidates: readonly Candidate[],
  skipped: Skip[],
): FleetError {
  const detail = skipped.map((s) => `${s.engine}: ${s.reason}`).join("; ");
  return new FleetError(
    "engine_unavailable",
    `${tool} found no usable engine among ${[...new Set(candidates.map((c) => c.engine))].join(", ")} (${detail})` +
      (ctx.settings.enableCursor ? "" : ". Set POLY_ENABLE_CURSOR=1 to add cursor-agent as a last resort"),
  );
}

/** Picks the first usable candidate; throws `engine_unavailable` naming why each was skipped. */
export async function pickCandidate(
  ctx: FleetContext,
  tool: string,
  candidates: readonly Candidate[],
  needs: Needs,
  o: { byLatency?: boolean } = {},
): Promise<Selection> {
  const { usable, skipped } = await usableCandidates(ctx, candidates, needs, o);
  const first = usable[0];
  if (!first) throw noCandidate(ctx, tool, candidates, skipped);
  // Report only what was passed over before the chosen one.
  const order = orderCandidates(candidates, new Map(candidates.map((c) => [c.engine, healthOf(ctx, c.engine)])), o);
  const before = new Set(order.slice(0, order.indexOf(first)).map((c) => c.engine));
  return {
    tier: { engine: first.engine, model: first.model, effort: first.effort },
    skipped: skipped.filter((s) => before.has(s.engine)),
    source: "cascade",
  };
}

/** A call's own choice. */
export interface CallChoice {
  engine?: EngineName;
  model?: string;
  effort?: string;
}

/**
 * Resolves an auxiliary tool's engine, model and effort. Precedence: the call's
 * parameter, then `POLY_<TOOL>_ENGINE`/`_MODEL`/`_EFFORT`, then
 * `[fleet.tools.<tool>]`, then the cascade. A fixed engine that lacks what the
 * tool needs is refused, naming why.
 */
export async function resolveAux(ctx: FleetContext, tool: AuxTool, call: CallChoice): Promise<Selection> {
  if (!AUX_TOOLS.includes(tool)) throw new Error(`not an auxiliary tool: ${tool}`);
  const needs = AUX_NEEDS[tool];
  const configured = ctx.settings.tools[tool];
  const readTool = tool !== "run_filtered";
  const codexFast = ctx.settings.fast.find((c) => c.engine === "codex");
  const codexDefault: Tier = readTool
    ? { engine: "codex", model: ctx.settings.exploreModel, effort: ctx.settings.exploreEffort }
    : { engine: "codex", model: codexFast?.model, effort: codexFast?.effort };
  const fixed = call.engine ?? configured.engine;
  if (fixed) {
    const source = call.engine ? "call" : configured.engineSource ?? "poly.toml";
    const why = incapability(ctx, fixed, needs);
    if (why) {
      throw new FleetError("engine_unavailable", `${tool} refuses engine "${fixed}" (from ${source}): it ${why}`, {
        engine: fixed,
      });
    }
    // The tool's configured model/effort belong to its configured engine (codex when none is configured).
    const own = fixed === (configured.engine ?? "codex") ? configured : {};
    const base: Tier = fixed === "codex" ? codexDefault : { engine: fixed };
    return {
      tier: {
        engine: fixed,
        model: call.model ?? own.model ?? base.model,
        effort: call.effort ?? own.effort ?? base.effort,
      },
      skipped: [],
      source,
    };
  }
  // No fixed engine: the tool's configured model/effort are codex's (its default engine); other
  // candidates keep their own, so a fallback never receives another engine's model.
  const codexTier: Tier = {
    engine: "codex",
    model: configured.model ?? codexDefault.model,
    effort: configured.effort ?? codexDefault.effort,
  };
  const candidates = fastCandidates(ctx).map((c) => (c.engine === "codex" ? { ...codexTier, paid: c.paid } : c));
  // The read tools' documented default (codex with the explore model) stays first: latency never reorders their list.
  const picked = await pickCandidate(ctx, tool, candidates, needs, { byLatency: !readTool });
  return {
    ...picked,
    tier: { ...picked.tier, model: call.model ?? picked.tier.model, effort: call.effort ?? picked.tier.effort },
  };
}
