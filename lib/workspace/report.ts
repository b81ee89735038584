/**
 * The whole-project phase as a report document (`kind: "workspace"`): what the
 * MCP tools `workspace_lint` and `workspace_lint_fix` return. Findings that name
 * a file become per-file records; errored and cancelled jobs become run-level
 * `errors` (so `isError` is set); skipped jobs become run-level `skipped`.
 *
 * @module
 */
import type { ResolvedConfig } from "../config/types.ts";
import type { FileResult, Identity, Report, RunError, RunSkip, Summary, WorkspaceOutcome } from "../report/schema.ts";

/** Options for {@link workspaceReport}. */
export interface WorkspaceReportOptions {
  mode: "check" | "fix";
  /** The configuration that governed the run, when it could be loaded. */
  config?: Pick<ResolvedConfig, "hash" | "sources">;
  poly: Identity;
}

/** Builds the report document of a workspace run. */
export function workspaceReport(outcome: WorkspaceOutcome, options: WorkspaceReportOptions): Report {
  const byPath = new Map<string, FileResult>();
  const errors: RunError[] = [];
  const skipped: RunSkip[] = [];
  const diagnostics = { error: 0, warning: 0, info: 0, hint: 0 };
  let checked = 0;
  for (const job of outcome.jobs) {
    const where = job.cwd ?? ".";
    if (job.status === "errored" || job.status === "cancelled") {
      errors.push({ path: where, message: `${job.name}: ${job.reason ?? job.status}` });
    } else if (job.status === "skipped") {
      skipped.push({ path: where, reason: `${job.name}: ${job.reason ?? "skipped"}` });
    } else {
      checked++;
    }
    for (const d of job.diagnostics ?? []) {
      diagnostics[d.severity]++;
      if (!d.path) continue;
      const { path, ...diagnostic } = d;
      const record = byPath.get(path) ?? { path, diagnostics: [] };
      record.diagnostics!.push(diagnostic);
      byPath.set(path, record);
    }
  }
  const summary: Summary = { checked, skipped: skipped.length, errored: errors.length, diagnostics };
  return {
    kind: "workspace",
    mode: options.mode,
    results: [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    errors,
    skipped,
    summary,
    configs: options.config ? [{ hash: options.config.hash, sources: options.config.sources }] : [],
    workspace: outcome,
    poly: options.poly,
  };
}
