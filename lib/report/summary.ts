/**
 * The closing line of a human report: coverage first, then what was found or done.
 * It never says "no issues" about a run that rewrote files or checked nothing.
 *
 * @module
 */
import type { FileResult, Report, Severity, Summary } from "./schema.ts";

const SEVERITIES: readonly Severity[] = ["error", "warning", "info", "hint"];
const NOUNS: Record<Severity, [string, string]> = {
  error: ["error", "errors"],
  warning: ["warning", "warnings"],
  info: ["info", "infos"],
  hint: ["hint", "hints"],
};

/** `1 file`, `2 files`. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The diagnostics of `results`, counted by severity. */
export function countDiagnostics(results: readonly FileResult[]): Record<Severity, number> {
  const counts = { error: 0, warning: 0, info: 0, hint: 0 };
  for (const r of results) for (const d of r.diagnostics ?? []) counts[d.severity]++;
  return counts;
}

/**
 * A run's summary as one run writes it (lib/run/mod.ts), in that key order — a report merged from shards
 * (lib/report/merge.ts) and a kept run brought up to date (lib/cli/commands/_check_run.ts) give the same: a lint run's
 * diagnostics always, and its fixes under `--fix`; a formatting run's files changed, and its diagnostics only when a
 * file a formatter could not parse carries its syntax error as one; the result cache's counts last.
 */
export function runSummary(
  kind: Report["kind"],
  fix: boolean,
  counts: Pick<Summary, "checked" | "skipped" | "errored"> & { fixed: number; changed: number },
  diagnostics: Record<Severity, number>,
  cache?: Summary["cache"],
): Summary {
  const summary: Summary = { checked: counts.checked, skipped: counts.skipped, errored: counts.errored };
  if (kind === "lint") {
    summary.diagnostics = { ...diagnostics };
    if (fix) summary.fixed = counts.fixed;
  } else if (kind === "fmt") {
    summary.changed = counts.changed;
    if (Object.values(diagnostics).some((n) => n > 0)) summary.diagnostics = { ...diagnostics };
  }
  if (cache) summary.cache = cache;
  return summary;
}

/** Diagnostic counts of a report: the summary's when present, else counted from the results. */
export function diagnosticCounts(report: Report): Record<Severity, number> {
  return report.summary.diagnostics ?? countDiagnostics(report.results);
}

/** `3 errors, 1 warning` (non-zero counts only), or "" when there are none. */
export function describeCounts(counts: Record<Severity, number>): string {
  return SEVERITIES.filter((s) => counts[s] > 0).map((s) => count(counts[s], ...NOUNS[s])).join(", ");
}

function coverage(report: Report): string {
  const s = report.summary;
  return `${count(s.checked, "file")} checked, ${s.skipped} skipped, ${s.errored} errored`;
}

function nothingFound(report: Report, clean: string): string {
  if (report.summary.checked === 0) return "nothing was checked";
  if (report.summary.errored > 0 || report.errors.length > 0) {
    return `${clean} in the files checked, but not every file could be`;
  }
  return clean;
}

/**
 * What the closing summary counts from the results themselves: a report written
 * while the run went (lib/report/stream.ts) tallies them as they pass.
 */
export interface ResultTally {
  /** Issues fixed, over the files' own counts. */
  fixed: number;
  /** Files with at least one issue fixed. */
  fixedFiles: number;
  /** Files whose formatting changed (or would). */
  changed: number;
  /** Files with an error-severity diagnostic (for fmt: a syntax error kept the formatter off). */
  unparsed: number;
}

/** Adds `results` to `into` (a new tally by default). */
export function tallyResults(
  results: readonly FileResult[],
  into: ResultTally = { fixed: 0, fixedFiles: 0, changed: 0, unparsed: 0 },
): ResultTally {
  for (const r of results) {
    into.fixed += r.fixed ?? 0;
    if ((r.fixed ?? 0) > 0) into.fixedFiles++;
    if (r.changed) into.changed++;
    if (r.diagnostics?.some((d) => d.severity === "error")) into.unparsed++;
  }
  return into;
}

function lintOutcome(report: Report, tally: ResultTally): string {
  const counts = diagnosticCounts(report);
  const remaining = SEVERITIES.reduce((n, s) => n + counts[s], 0);
  const found = describeCounts(counts);
  if (report.mode === "check") return remaining > 0 ? found : nothingFound(report, "no issues found");
  const fixed = Math.max(report.summary.fixed ?? 0, tally.fixed);
  const files = tally.fixedFiles;
  if (fixed > 0) {
    const where = files > 0 ? ` in ${count(files, "file")}` : "";
    return `fixed ${count(fixed, "issue")}${where}; ${
      remaining > 0 ? `${remaining} remaining (${found})` : "none remaining"
    }`;
  }
  return remaining > 0
    ? `no fixes applied; ${remaining} remaining (${found})`
    : nothingFound(report, "no issues found");
}

function fmtOutcome(report: Report, tally: ResultTally): string {
  const changed = Math.max(report.summary.changed ?? 0, tally.changed);
  // Files whose syntax error kept the formatter from formatting them.
  const unparsed = tally.unparsed;
  const unparsedText = unparsed > 0 ? `${count(unparsed, "file")} with syntax errors` : "";
  const unchanged = Math.max(0, report.summary.checked - changed - unparsed);
  if (changed === 0) {
    if (!unparsedText) return nothingFound(report, "all files already formatted");
    return unchanged > 0 ? `${unparsedText}, ${unchanged} already formatted` : unparsedText;
  }
  const verb = report.mode === "check" ? "would be reformatted" : "reformatted";
  return `${count(changed, "file")} ${verb}, ${unchanged} already formatted${unparsedText ? `, ${unparsedText}` : ""}`;
}

/** `workspace: 1 failed, 2 passed, 1 skipped`, or "" without a workspace phase. */
export function workspaceOutcome(report: Report): string {
  const jobs = report.workspace?.jobs ?? [];
  if (jobs.length === 0) return "";
  const order = ["failed", "errored", "cancelled", "passed", "skipped"] as const;
  const parts = order.map((status) => [status, jobs.filter((j) => j.status === status).length] as const)
    .filter(([, n]) => n > 0).map(([status, n]) => `${n} ${status}`);
  return `workspace: ${count(jobs.length, "job")}, ${parts.join(", ")}`;
}

/**
 * The closing summary, e.g. `12 files checked, 1 skipped, 0 errored: 3 errors, 2 warnings`
 * or `4 files checked, 0 skipped, 0 errored: fixed 4 issues in 2 files; 1 remaining (1 error)`.
 */
export function summaryLine(report: Report, tally: ResultTally = tallyResults(report.results)): string {
  const workspace = workspaceOutcome(report);
  if (report.kind === "workspace") return workspace || "workspace: no jobs ran";
  const outcome = report.kind === "lint" ? lintOutcome(report, tally) : fmtOutcome(report, tally);
  return `${coverage(report)}: ${outcome}${workspace ? `; ${workspace}` : ""}`;
}
