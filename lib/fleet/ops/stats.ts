/**
 * `bridge_stats`: calls and characters returned to the caller per tool (against
 * the raw engine output they replaced), ratings per tool, and each engine's
 * recorded health; optionally exported as a Markdown report inside the working
 * directory.
 *
 * @module
 */
import { dirname } from "node:path";
import { writeFileAtomic } from "../../fs/atomic.ts";
import { healthOf } from "../availability.ts";
import { type FleetContext, workspaceDir } from "../context.ts";
import type { ToolStats } from "../store.ts";
import { ENGINES } from "../types.ts";
import { recorded } from "./_call.ts";
import { realInsideCwd, relToCwd } from "./_paths.ts";

/** One engine's health line. */
export interface EngineStatsLine {
  engine: string;
  runs: number;
  success_rate: number | null;
  median_latency_ms: number | null;
  quota_exhausted: boolean;
  unhealthy: boolean;
}

/** What bridge_stats returns. */
export interface StatsOutput {
  tools: ToolStats[];
  totals: { calls: number; out_chars: number; raw_chars: number; saved_chars: number; ratings: number };
  engines: EngineStatsLine[];
  /** Where the Markdown report was written, relative to cwd. */
  export_path?: string;
}

/** A bridge_stats call. */
export interface StatsInput {
  /** true: `research/bench/<YYYY-MM-DD>-ratings.md`; a string: that path (inside cwd). */
  export?: boolean | string;
  cwd?: string;
}

/** Collects the statistics. */
export function collectStats(ctx: FleetContext): StatsOutput {
  const tools = ctx.store.toolStats();
  const totals = tools.reduce(
    (t, s) => ({
      calls: t.calls + s.calls,
      out_chars: t.out_chars + s.out_chars,
      raw_chars: t.raw_chars + s.raw_chars,
      saved_chars: 0,
      ratings: t.ratings + s.ratings.count,
    }),
    { calls: 0, out_chars: 0, raw_chars: 0, saved_chars: 0, ratings: 0 },
  );
  totals.saved_chars = Math.max(0, totals.raw_chars - totals.out_chars);
  const engines = ENGINES.map((engine) => {
    const h = healthOf(ctx, engine);
    return {
      engine,
      runs: h.samples,
      success_rate: h.successRate === null ? null : Math.round(h.successRate * 1000) / 1000,
      median_latency_ms: h.medianLatencyMs,
      quota_exhausted: h.quotaExhausted,
      unhealthy: h.unhealthy,
    };
  }).filter((e) => e.runs > 0 || e.quota_exhausted);
  return { tools, totals, engines };
}

/** Renders the statistics as Markdown. */
export function statsMarkdown(s: StatsOutput, date: string): string {
  const lines = [
    `# poly fleet statistics — ${date}`,
    "",
    `${s.totals.calls} calls returned ${s.totals.out_chars} characters for ${s.totals.raw_chars} characters of raw engine output (${s.totals.saved_chars} kept out of context); ${s.totals.ratings} ratings.`,
    "",
    "| tool | calls | failures | chars returned | raw chars | ratings | mean | 1 | 2 | 3 | 4 | 5 |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...s.tools.map((t) => {
      const d = t.ratings.distribution;
      return `| ${t.tool} | ${t.calls} | ${t.failures} | ${t.out_chars} | ${t.raw_chars} | ${t.ratings.count} | ${
        t.ratings.mean ?? "–"
      } | ${d["1"]} | ${d["2"]} | ${d["3"]} | ${d["4"]} | ${d["5"]} |`;
    }),
    "",
    "| engine | runs (24 h) | success rate | median latency (ms) | quota exhausted | unhealthy |",
    "|---|---:|---:|---:|---|---|",
    ...s.engines.map((e) =>
      `| ${e.engine} | ${e.runs} | ${e.success_rate ?? "–"} | ${e.median_latency_ms ?? "–"} | ${
        e.quota_exhausted ? "yes" : "no"
      } | ${e.unhealthy ? "yes" : "no"} |`
    ),
    "",
  ];
  return lines.join("\n");
}

/** Runs `bridge_stats`. */
export function bridgeStats(ctx: FleetContext, input: StatsInput = {}): Promise<StatsOutput> {
  return recorded(ctx, "bridge_stats", async () => {
    const stats = collectStats(ctx);
    if (input.export) {
      const cwd = workspaceDir(ctx, input.cwd);
      const date = new Date().toISOString().slice(0, 10);
      const target = await realInsideCwd(
        cwd,
        typeof input.export === "string" ? input.export : `research/bench/${date}-ratings.md`,
      );
      await Deno.mkdir(dirname(target), { recursive: true });
      await writeFileAtomic(target, statsMarkdown(stats, date));
      stats.export_path = relToCwd(cwd, target);
    }
    return { output: stats, rawChars: 0 };
  });
}
