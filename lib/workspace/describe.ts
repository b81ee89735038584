/**
 * The phase's outcome for a person (stderr of `poly lint`) and as an exit code.
 *
 * @module
 */
import { ExitCode } from "../errors/mod.ts";
import type { WorkspaceOutcome } from "../report/schema.ts";

/**
 * Renders the outcome in a few lines: a verdict line, then one line per job.
 *
 * ```text
 * workspace: failed (1 passed, 1 failed, 1 skipped)
 *   passed   clippy (2.1 s, 2 warnings)
 *   failed   go-vet:svc (0.8 s, 1 error)
 *   skipped  cargo-deny: cargo-deny not found on PATH
 * ```
 */
export function describeWorkspaceOutcome(outcome: WorkspaceOutcome): string {
  if (outcome.jobs.length === 0) return "workspace: nothing to run (no Cargo workspace, Go module or [workspace.jobs])";
  const counts = new Map<string, number>();
  for (const job of outcome.jobs) counts.set(job.status, (counts.get(job.status) ?? 0) + 1);
  const order = ["passed", "failed", "errored", "cancelled", "skipped"];
  const tally = order.filter((s) => counts.get(s)).map((s) => `${counts.get(s)} ${s}`).join(", ");
  const verdict = counts.get("errored") || counts.get("cancelled")
    ? "incomplete"
    : counts.get("failed")
    ? "failed"
    : counts.get("passed")
    ? "passed"
    : "nothing ran";
  const lines = [`workspace: ${verdict} (${tally})`];
  for (const job of outcome.jobs) {
    const facts: string[] = [];
    if (job.duration_ms !== undefined) facts.push(`${(job.duration_ms / 1000).toFixed(1)} s`);
    if (job.cached) facts.push("cached");
    const bySeverity = new Map<string, number>();
    for (const d of job.diagnostics ?? []) bySeverity.set(d.severity, (bySeverity.get(d.severity) ?? 0) + 1);
    for (const [severity, n] of bySeverity) facts.push(`${n} ${severity}${n === 1 ? "" : "s"}`);
    const detail = facts.length > 0 ? ` (${facts.join(", ")})` : "";
    const reason = job.reason ? `: ${job.reason}` : "";
    lines.push(`  ${job.status.padEnd(9)}${job.name}${detail}${reason}`);
  }
  return lines.join("\n");
}

/** 0 when every job passed or was skipped; 1 when a job failed; 2 when a job errored or was cancelled. */
export function workspaceExitCode(outcome: WorkspaceOutcome): number {
  if (outcome.jobs.some((j) => j.status === "errored" || j.status === "cancelled")) return ExitCode.Incomplete;
  if (outcome.jobs.some((j) => j.status === "failed")) return ExitCode.Findings;
  return ExitCode.Clean;
}
