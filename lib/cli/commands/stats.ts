/**
 * `poly stats [--format table|json|toon|markdown] [--export [--output PATH] [--overwrite]]`:
 * the CLI mirror of `bridge_stats`, and with `--export` of `bridge_stats_export`
 * (the same checks: a new file unless `--overwrite`, never in `.git/`, `.poly/`
 * or poly's config files, never outside the folder after resolving links).
 *
 * @module
 */
import { command, message, object, option, optional } from "../_optique.ts";
import { UsageError } from "../../errors/mod.ts";
import { pathValue } from "../_path.ts";
import { defineCommand } from "../command.ts";
import type { StatsExportOutput, StatsOutput } from "../../fleet/ops/stats.ts";
import { formatOption, writeDocument } from "../output.ts";

const FORMATS = ["table", "json", "toon", "markdown"] as const;

const parser = command(
  "stats",
  object({
    format: formatOption(FORMATS),
    export: option("--export", {
      description: message`Also write the Markdown report (research/bench/<date>-ratings.md)`,
    }),
    output: optional(
      option("--output", pathValue("PATH"), {
        description: message`Where --export writes (inside this directory)`,
      }),
    ),
    overwrite: option("--overwrite", {
      description: message`Let --export replace an existing file (default: refuse it)`,
    }),
  }),
  { brief: message`Fleet calls, characters returned per tool, ratings and engine health.` },
);

/** Renders the statistics as a table. */
export function renderStatsTable(s: StatsOutput & Partial<StatsExportOutput>): string {
  const out: string[] = [];
  if (!s.tools.length) out.push("no fleet calls recorded yet");
  else {
    const head = ["TOOL", "CALLS", "FAILED", "CHARS OUT", "RAW CHARS", "RATINGS", "MEAN"];
    const rows = s.tools.map((t) => [
      t.tool,
      String(t.calls),
      String(t.failures),
      String(t.out_chars),
      String(t.raw_chars),
      String(t.ratings.count),
      t.ratings.mean === null ? "-" : String(t.ratings.mean),
    ]);
    const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const fmt = (c: string[]) => c.map((x, i) => (i === 0 ? x.padEnd(w[i]) : x.padStart(w[i]))).join("  ");
    out.push(fmt(head), ...rows.map(fmt));
    out.push(
      "",
      `total: ${s.totals.calls} calls, ${s.totals.out_chars} chars returned for ${s.totals.raw_chars} raw (${s.totals.saved_chars} kept out of context)`,
    );
  }
  if (s.engines.length) {
    out.push("", "engines (last 24 h):");
    for (const e of s.engines) {
      const rate = e.success_rate === null ? "-" : `${Math.round(e.success_rate * 100)}%`;
      const flags = [e.quota_exhausted ? "quota exhausted" : "", e.unhealthy ? "unhealthy" : ""].filter(Boolean).join(
        ", ",
      );
      out.push(
        `  ${e.engine.padEnd(9)} ${String(e.runs).padStart(4)} runs  ${rate.padStart(4)} ok  median ${
          e.median_latency_ms ?? "-"
        } ms${flags ? `  (${flags})` : ""}`,
      );
    }
  }
  if (s.export_path) out.push("", `report ${s.replaced ? "replaced" : "written"}: ${s.export_path}`);
  return out.join("\n") + "\n";
}

/** `poly stats`. */
export const statsCommand = defineCommand<
  { format: typeof FORMATS[number]; export: boolean; output?: string; overwrite: boolean }
>({
  parser,
  async run(v, io) {
    if (!v.export && (v.output !== undefined || v.overwrite)) {
      throw new UsageError(`${v.output !== undefined ? "--output" : "--overwrite"} needs --export`);
    }
    const { openFleet } = await import("../../fleet/context.ts");
    const { bridgeStats, exportStats, statsMarkdown } = await import("../../fleet/ops/stats.ts");
    const ctx = await openFleet({ root: io.cwd });
    const s: StatsOutput & Partial<StatsExportOutput> = v.export
      ? await exportStats(ctx, { path: v.output, overwrite: v.overwrite })
      : await bridgeStats(ctx);
    if (v.format === "json" || v.format === "toon") await writeDocument(io, s, v.format);
    else if (v.format === "markdown") await io.stdout(statsMarkdown(s, new Date().toISOString().slice(0, 10)));
    else await io.stdout(renderStatsTable(s));
    return 0;
  },
});
