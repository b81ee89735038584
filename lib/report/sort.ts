/**
 * Deterministic order for reports: every list a person or a program compares
 * is sorted the same way on every machine (code-unit order, never locale order).
 *
 * @module
 */
import type { Diagnostic, FileResult, Report, RunError, RunSkip, WorkspaceOutcome } from "./schema.ts";

/** Code-unit string order. */
export function compareText(a: string | undefined, b: string | undefined): number {
  const x = a ?? "", y = b ?? "";
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Diagnostic order: by position (diagnostics without a span first), then code,
 * engine, severity and title, so equal inputs always print identically.
 */
export function compareDiagnostics(a: Diagnostic & { path?: string }, b: Diagnostic & { path?: string }): number {
  return compareText(a.path, b.path) ||
    (a.span?.start_line ?? 0) - (b.span?.start_line ?? 0) ||
    (a.span?.start_col ?? 0) - (b.span?.start_col ?? 0) ||
    (a.span?.end_line ?? 0) - (b.span?.end_line ?? 0) ||
    (a.span?.end_col ?? 0) - (b.span?.end_col ?? 0) ||
    compareText(a.code, b.code) ||
    compareText(a.engine, b.engine) ||
    compareText(a.severity, b.severity) ||
    compareText(a.title, b.title);
}

/** A copy of one file's result with its diagnostics in {@link compareDiagnostics} order. */
export function sortResult(result: FileResult): FileResult {
  return result.diagnostics ? { ...result, diagnostics: [...result.diagnostics].sort(compareDiagnostics) } : result;
}

function sortWorkspace(workspace: WorkspaceOutcome): WorkspaceOutcome {
  return {
    ...workspace,
    jobs: workspace.jobs.map((job) =>
      job.diagnostics ? { ...job, diagnostics: [...job.diagnostics].sort(compareDiagnostics) } : job
    ),
  };
}

/**
 * A copy of `report` with results, run-level errors and skips sorted by path,
 * and diagnostics by position. `configs` keep their order (results index them);
 * workspace jobs keep theirs (the order they were declared).
 */
export function sortReport(report: Report): Report {
  return {
    ...report,
    results: report.results.map(sortResult).sort((a, b) => compareText(a.path, b.path)),
    errors: [...report.errors].sort((a: RunError, b: RunError) =>
      compareText(a.path, b.path) || compareText(a.message, b.message)
    ),
    skipped: [...report.skipped].sort((a: RunSkip, b: RunSkip) =>
      compareText(a.path, b.path) || compareText(a.reason, b.reason)
    ),
    ...(report.workspace ? { workspace: sortWorkspace(report.workspace) } : {}),
  };
}
