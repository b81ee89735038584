/**
 * Engine selection: the cascade reads recorded health (success rate, latency,
 * quota), pay-per-token candidates come last, and per-tool settings follow the
 * precedence call > POLY_<TOOL>_* > [fleet.tools.<tool>] > cascade.
 */
import assert from "node:assert/strict";
import { fastCandidates, orderCandidates, pickCandidate, resolveAux } from "../../lib/fleet/cascade.ts";
import type { EngineHealth } from "../../lib/fleet/store.ts";
import type { EngineName } from "../../lib/fleet/types.ts";
import { fleetContext, fleetError } from "./_helpers.ts";

function h(engine: EngineName, medianLatencyMs: number | null): EngineHealth {
  return {
    engine,
    samples: 5,
    successRate: 1,
    medianLatencyMs,
    quotaExhausted: false,
    quotaAtMs: null,
    unhealthy: false,
  };
}

Deno.test("orderCandidates() keeps the configured order until every subscription has a latency", () => {
  const c = [{ engine: "codex" as const }, { engine: "claude" as const }, { engine: "opencode" as const, paid: true }];
  const partial = new Map([["claude", h("claude", 100)]] as [EngineName, EngineHealth][]);
  assert.deepEqual(orderCandidates(c, partial).map((x) => x.engine), ["codex", "claude", "opencode"]);
  const all = new Map([["codex", h("codex", 9000)], ["claude", h("claude", 100)], ["opencode", h("opencode", 1)]] as [
    EngineName,
    EngineHealth,
  ][]);
  // Fastest subscription first; the paid candidate never jumps ahead, however fast.
  assert.deepEqual(orderCandidates(c, all).map((x) => x.engine), ["claude", "codex", "opencode"]);
});

Deno.test("the cascade picks the fastest healthy engine from recorded runs", async () => {
  const ctx = await fleetContext();
  for (let i = 0; i < 3; i++) {
    ctx.store.recordRun({ engine: "codex", tool: "fast_delegate", outcome: "ok", latencyMs: 40_000 });
    ctx.store.recordRun({ engine: "claude", tool: "fast_delegate", outcome: "ok", latencyMs: 4_000 });
  }
  const sel = await pickCandidate(ctx, "fast_delegate", fastCandidates(ctx), {});
  assert.equal(sel.tier.engine, "claude");
  assert.equal(sel.tier.model, "claude-haiku-5-5");
});

Deno.test("unhealthy, quota-exhausted and missing engines are skipped, with reasons", async () => {
  const ctx = await fleetContext({ env: { POLY_CLAUDE_BIN: "/nonexistent/claude" } });
  for (let i = 0; i < 4; i++) {
    ctx.store.recordRun({ engine: "codex", tool: "delegate", outcome: "error", latencyMs: 100 });
  }
  ctx.store.recordRun({ engine: "codex", tool: "delegate", outcome: "ok", latencyMs: 100 });
  const sel = await pickCandidate(ctx, "fast_delegate", fastCandidates(ctx), {});
  assert.equal(sel.tier.engine, "opencode"); // the paid fallback, only now
  assert.deepEqual(sel.skipped.map((s) => s.engine), ["codex", "claude"]);
  assert.match(sel.skipped[0].reason, /unhealthy \(20% of its last 5 runs succeeded\)/);
  assert.match(sel.skipped[1].reason, /not installed/);

  ctx.store.recordRun({ engine: "opencode", tool: "fast_delegate", outcome: "quota_exhausted", latencyMs: 10 });
  const e = await fleetError(pickCandidate(ctx, "fast_delegate", fastCandidates(ctx), {}), "engine_unavailable");
  assert.match(e.message, /opencode: quota exhausted/);
  assert.match(e.message, /POLY_ENABLE_CURSOR=1/);
});

Deno.test("a quota failure stops counting once the engine succeeds again or the cooldown passes", async () => {
  const ctx = await fleetContext();
  const opts = { threshold: 0.3, cooldownMs: 60_000 };
  ctx.store.recordRun({ engine: "codex", tool: "delegate", outcome: "quota_exhausted", latencyMs: 10 });
  assert.equal(ctx.store.health("codex", opts).quotaExhausted, true);
  assert.equal(ctx.store.health("codex", opts, Date.now() + 61_000).quotaExhausted, false);
  ctx.store.recordRun({ engine: "codex", tool: "delegate", outcome: "ok", latencyMs: 10 });
  assert.equal(ctx.store.health("codex", opts).quotaExhausted, false);
});

Deno.test("read tools default to codex with the explore model and effort", async () => {
  const ctx = await fleetContext({ env: { POLY_EXPLORE_MODEL: "luna-x", POLY_EXPLORE_EFFORT: "low" } });
  for (const tool of ["explore", "read_slice", "web_lookup"] as const) {
    const sel = await resolveAux(ctx, tool, {});
    assert.deepEqual(sel.tier, { engine: "codex", model: "luna-x", effort: "low" }, tool);
  }
  // run_filtered follows the fast cascade, not the explore model.
  assert.deepEqual((await resolveAux(ctx, "run_filtered", {})).tier, {
    engine: "codex",
    model: "gpt-6-luna",
    effort: "medium",
  });
});

Deno.test("read tools keep their documented default (codex luna medium) once latency history favours another engine", async () => {
  const ctx = await fleetContext();
  for (let i = 0; i < 3; i++) {
    ctx.store.recordRun({ engine: "codex", tool: "explore", outcome: "ok", latencyMs: 40_000 });
    ctx.store.recordRun({ engine: "claude", tool: "explore", outcome: "ok", latencyMs: 4_000 });
  }
  for (const tool of ["explore", "read_slice", "web_lookup"] as const) {
    const sel = await resolveAux(ctx, tool, {});
    assert.deepEqual(sel.tier, { engine: "codex", model: "gpt-6-luna", effort: "medium" }, tool);
  }
  // Health still moves it along its own list: an unhealthy codex gives way to the next engine.
  for (let i = 0; i < 12; i++) {
    ctx.store.recordRun({ engine: "codex", tool: "explore", outcome: "error", latencyMs: 1 });
  }
  const next = await resolveAux(ctx, "explore", {});
  assert.equal(next.tier.engine, "claude");
  assert.match(next.skipped[0].reason, /unhealthy/);
  // fast_delegate's cascade is the one that follows latency (seed: the fastest healthy engine).
  const fast = await fleetContext();
  for (let i = 0; i < 3; i++) {
    fast.store.recordRun({ engine: "codex", tool: "fast_delegate", outcome: "ok", latencyMs: 40_000 });
    fast.store.recordRun({ engine: "claude", tool: "fast_delegate", outcome: "ok", latencyMs: 4_000 });
  }
  assert.equal((await resolveAux(fast, "explore", {})).tier.engine, "codex");
  assert.equal((await pickCandidate(fast, "fast_delegate", fastCandidates(fast), {})).tier.engine, "claude");
});

Deno.test("per-tool engine and model: call > POLY_<TOOL>_* > [fleet.tools.<tool>]", async () => {
  const ctx = await fleetContext({
    env: { POLY_READ_SLICE_ENGINE: "claude", POLY_READ_SLICE_MODEL: "env-model" },
    section: {
      tools: { read_slice: { engine: "grok", model: "toml-model" }, explore: { engine: "grok", model: "toml-model" } },
    },
  });
  const sel = await resolveAux(ctx, "read_slice", {});
  assert.deepEqual(sel.tier, { engine: "claude", model: "env-model", effort: undefined });
  assert.equal(sel.source, "POLY_READ_SLICE_ENGINE");
  assert.deepEqual((await resolveAux(ctx, "read_slice", { engine: "codex", model: "call-model" })).tier, {
    engine: "codex",
    model: "call-model",
    effort: "medium",
  });
  assert.deepEqual((await resolveAux(ctx, "explore", {})).tier, {
    engine: "grok",
    model: "toml-model",
    effort: undefined,
  });
  assert.equal((await resolveAux(ctx, "explore", {})).source, "[fleet.tools.explore] in poly.toml");
  // A non-codex engine with no model anywhere uses the engine's own default.
  const bare = await fleetContext({ env: { POLY_RUN_FILTERED_ENGINE: "grok" } });
  assert.deepEqual((await resolveAux(bare, "run_filtered", {})).tier, {
    engine: "grok",
    model: undefined,
    effort: undefined,
  });
});

Deno.test("web_lookup runs only on engines that can search the web", async () => {
  const ctx = await fleetContext({ env: { POLY_WEB_LOOKUP_ENGINE: "grok" } });
  const e = await fleetError(resolveAux(ctx, "web_lookup", {}), "engine_unavailable");
  assert.match(e.message, /web_lookup refuses engine "grok" \(from POLY_WEB_LOOKUP_ENGINE\): it has no web search/);
  assert.equal((await resolveAux(ctx, "web_lookup", { engine: "claude" })).tier.engine, "claude");
  // The cascade falls back to claude (native web search) when codex is out of quota, never to opencode.
  const cas = await fleetContext();
  cas.store.recordRun({ engine: "codex", tool: "web_lookup", outcome: "quota_exhausted", latencyMs: 1 });
  const sel = await resolveAux(cas, "web_lookup", {});
  assert.equal(sel.tier.engine, "claude");
  cas.store.recordRun({ engine: "claude", tool: "web_lookup", outcome: "quota_exhausted", latencyMs: 1 });
  const none = await fleetError(resolveAux(cas, "web_lookup", {}), "engine_unavailable");
  assert.match(none.message, /opencode: has no web search/);
});

Deno.test("an invalid engine name in POLY_<TOOL>_ENGINE is an error naming the variable", async () => {
  await assert.rejects(
    fleetContext({ env: { POLY_EXPLORE_ENGINE: "gemini" } }),
    /Invalid engine "gemini" in POLY_EXPLORE_ENGINE/,
  );
});

Deno.test("a per-tool model never follows the cascade onto another engine", async () => {
  const ctx = await fleetContext({ env: { POLY_READ_SLICE_MODEL: "codex-only", POLY_EXPLORE_ENGINE: "claude" } });
  ctx.store.recordRun({ engine: "codex", tool: "read_slice", outcome: "quota_exhausted", latencyMs: 1 });
  assert.deepEqual((await resolveAux(ctx, "read_slice", {})).tier, {
    engine: "claude",
    model: "claude-haiku-5-5",
    effort: "low",
  });
  assert.equal((await resolveAux(ctx, "read_slice", { engine: "codex" })).tier.model, "codex-only");
  assert.equal((await resolveAux(ctx, "read_slice", { engine: "grok" })).tier.model, undefined);
  // POLY_EXPLORE_MODEL is the read tools' codex model, not a model for explore's fixed claude.
  assert.deepEqual((await resolveAux(ctx, "explore", {})).tier, {
    engine: "claude",
    model: undefined,
    effort: undefined,
  });
});
