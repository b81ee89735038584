/**
 * `bridge_stats`: calls and characters returned to the caller per tool (against
 * the raw engine output they replaced), ratings per tool, and each engine's
 * recorded health (read-only); and `bridge_stats_export`, which writes them as a
 * Markdown report inside the working directory (act-level: a new file, or an
 * existing one only with `overwrite`, never in `.git/` or poly's own config; see
 * lib/fs/write_target.ts).
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
import { resolveWriteTarget } from "../../fs/write_target.ts";

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
}

/** What bridge_stats_export returns: the statistics and where they were written. */
export interface StatsExportOutput extends StatsOutput {
  /** Where the Markdown report was written, relative to cwd. */
  export_path: string;
  /** An existing file was replaced (only with `overwrite`). */
  replaced: boolean;
}

/** A bridge_stats_export call. */
export interface StatsExportInput {
  /** Where to write, relative to cwd (default `research/bench/<YYYY-MM-DD>-ratings.md`). */
  path?: string;
  /** Replace an existing file (default: refuse it). */
  overwrite?: boolean;
  cwd?: string;
}

/** The default report path for `date` (YYYY-MM-DD), relative to cwd. */
export function defaultExportPath(date: string): string {
  return `research/bench/${date}-ratings.md`;
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

/** Runs `bridge_stats`: reads the store, writes nothing in the workspace. */
export function bridgeStats(ctx: FleetContext): Promise<StatsOutput> {
  return recorded(ctx, "bridge_stats", () => Promise.resolve({ output: collectStats(ctx), rawChars: 0 }));
}

/**
 * Runs `bridge_stats_export`: writes the Markdown report atomically to a new
 * file inside cwd (inside the workspace root after resolving links), replacing
 * an existing file only with `overwrite`, never in `.git/`, `.poly/` or poly's
 * config files.
 */
export function exportStats(ctx: FleetContext, input: StatsExportInput = {}): Promise<StatsExportOutput> {
  return recorded(ctx, "bridge_stats_export", async () => {
    const stats = collectStats(ctx);
    const cwd = workspaceDir(ctx, input.cwd);
    const date = new Date().toISOString().slice(0, 10);
    const target = await resolveWriteTarget({
      root: ctx.root,
      base: cwd,
      path: input.path ?? defaultExportPath(date),
      overwrite: input.overwrite,
    });
    await Deno.mkdir(dirname(target.path), { recursive: true });
    await writeFileAtomic(target.path, statsMarkdown(stats, date));
    return { output: { ...stats, export_path: target.relPath, replaced: target.exists }, rawChars: 0 };
  });
}
