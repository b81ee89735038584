/**
 * The exit-code contract of `poly lint` and `poly fmt`.
 *
 * @module
 */
import { ExitCode } from "../errors/mod.ts";
import type { Report } from "./schema.ts";

/** 0 clean, 1 findings, 2 the run verified less than it claims. */
export type ReportExitCode = 0 | 1 | 2;

/**
 * The exit code a report stands for. Precedence: 2 wins over 1, 1 over 0.
 *
 * - **2** — the run verified less than it claims: any run-level error or errored
 *   file; nothing checked at all (no file checked; for a workspace report, no job
 *   that passed or failed); a workspace job that errored or was cancelled.
 * - **1** — findings: an error-severity diagnostic remains (in a file or from a
 *   workspace job), a workspace job failed, or (fmt in check mode) a file's
 *   formatting differs.
 * - **0** — everything asked was verified and nothing is wrong. Warnings, infos,
 *   hints and skips do not change the code; files rewritten by `--fix` are not drift.
 */
export function exitCodeFor(report: Report): ReportExitCode {
  const jobs = report.workspace?.jobs ?? [];
  if (report.errors.length > 0 || report.summary.errored > 0) return ExitCode.Incomplete;
  if (report.results.some((r) => r.error !== undefined)) return ExitCode.Incomplete;
  if (jobs.some((j) => j.status === "errored" || j.status === "cancelled")) return ExitCode.Incomplete;
  const nothingChecked = report.kind === "workspace"
    ? !jobs.some((j) => j.status === "passed" || j.status === "failed")
    : report.summary.checked === 0;
  if (nothingChecked) return ExitCode.Incomplete;

  if (jobs.some((j) => j.status === "failed" || j.diagnostics?.some((d) => d.severity === "error"))) {
    return ExitCode.Findings;
  }
  if ((report.summary.diagnostics?.error ?? 0) > 0) return ExitCode.Findings;
  if (report.results.some((r) => r.diagnostics?.some((d) => d.severity === "error"))) return ExitCode.Findings;
  if (report.kind === "fmt" && report.mode === "check") {
    if ((report.summary.changed ?? 0) > 0 || report.results.some((r) => r.changed)) return ExitCode.Findings;
  }
  return ExitCode.Clean;
}
