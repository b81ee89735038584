/**
 * The whole-project phase: jobs that check a repository as a whole rather than
 * file by file — cargo clippy, cargo-sort, cargo-machete and cargo-deny for every
 * Cargo workspace, `go vet` for every Go module, and the inline
 * `[workspace.jobs.<name>]` jobs of poly.toml (see `config.ts` and `plan.ts`).
 *
 * `poly lint` runs it after the per-file run unless `--no-workspace` (its
 * pass/fail goes to stderr, see {@link describeWorkspaceOutcome}); the MCP tools
 * `workspace_lint` and `workspace_lint_fix` run it as Tasks.
 *
 * Jobs of one project run one after another (cargo locks its build directory);
 * projects run side by side up to `jobs` at a time; fix mode runs everything one
 * job at a time, since the jobs rewrite files. Each job has a timeout, and
 * cancelling stops its whole process tree.
 *
 * @example
 * ```ts
 * const outcome = await runWorkspace({ cwd: Deno.cwd() });
 * console.error(describeWorkspaceOutcome(outcome));
 * ```
 *
 * @module
 */
import { resolve } from "node:path";
import { openConfig } from "../config/load.ts";
import type { ResolvedConfig } from "../config/types.ts";
import { describeError } from "../errors/mod.ts";
import type { WorkspaceOutcome } from "../report/schema.ts";
import { type CachedJob, cacheGet, cachePut, jobKey, openWorkspaceCache, type WorkspaceCache } from "./_cache.ts";
import { findProjects } from "./projects.ts";
import { networkFailure } from "./_network.ts";
import { hostGoVersion } from "../engines/govet/mod.ts";
import { runTree, SpawnError } from "./_spawn.ts";
import { planJobs, type PlannedJob } from "./plan.ts";

export type { WorkspaceOutcome } from "../report/schema.ts";
export { describeWorkspaceOutcome, workspaceExitCode } from "./describe.ts";
export { workspaceReport, type WorkspaceReportOptions } from "./report.ts";
export { WorkspaceStatus } from "./progress.ts";

/** One job's outcome. */
export type JobOutcome = WorkspaceOutcome["jobs"][number];

/** Options for {@link runWorkspace}. */
export interface WorkspaceOptions {
  /** The repository (or part of it) to check; projects are found below it. */
  cwd: string;
  /** `--config PATH` (relative to `cwd`). */
  config?: string;
  /** Fix mode: clippy --fix, cargo sort, cargo machete --fix, inline `fix` commands. */
  fix?: boolean;
  /** How many projects run side by side (default: the CPU count; fix mode always 1). */
  jobs?: number;
  /** Do not reuse cached outcomes (they are still stored). */
  noCache?: boolean;
  /** Cancels the phase: running jobs' process trees are stopped, pending jobs are reported cancelled. */
  signal?: AbortSignal;
  /** Called as jobs finish: done of total, and a line about the job. */
  onProgress?: (done: number, total: number, message: string) => void;
  /** Called as each job starts and finishes (a terminal's status line, see `progress.ts`). */
  onJob?: (event: JobEvent) => void;
}

/** A job started or finished; `done` of `total` jobs are finished (skipped ones included). */
export interface JobEvent {
  name: string;
  state: "started" | "finished";
  done: number;
  total: number;
}

/** The phase's outcome together with the configuration that governed it. */
export interface WorkspaceRun {
  outcome: WorkspaceOutcome;
  config: ResolvedConfig;
}

/** Runs the whole-project phase. Throws ConfigError for an invalid poly.toml. */
export async function runWorkspace(options: WorkspaceOptions): Promise<WorkspaceOutcome> {
  return (await runWorkspaceWithConfig(options)).outcome;
}

/** {@link runWorkspace}, also returning the resolved configuration (for the report's `configs`). */
export async function runWorkspaceWithConfig(options: WorkspaceOptions): Promise<WorkspaceRun> {
  const cwd = resolve(options.cwd);
  const configs = await openConfig({ cwd, explicit: options.config });
  const config = await configs.forDir(cwd);
  const projects = await findProjects(cwd, config.excludes, options.signal);
  // A Go module's go vet job names the host Go's version when the module asks for a newer one.
  if (projects.some((p) => p.kind === "go")) await hostGoVersion();
  const plan = planJobs({ cwd, fix: options.fix ?? false, projects, config });
  const cache = config.data.cache.enabled
    ? await openWorkspaceCache(
      configs.anchor,
      config.data.cache.dir ? resolve(config.dir, config.data.cache.dir) : undefined,
    ).catch(() => undefined)
    : undefined;
  const outcome = await runPlan(plan, options, cache);
  return { outcome, config };
}

/** Runs planned jobs (exported for tests that plan their own). */
export async function runPlan(
  plan: PlannedJob[],
  options: WorkspaceOptions,
  cache?: WorkspaceCache,
): Promise<WorkspaceOutcome> {
  const results: JobOutcome[] = new Array(plan.length);
  const total = plan.length;
  let done = 0;
  const finish = (index: number, outcome: JobOutcome) => {
    results[index] = outcome;
    done++;
    options.onProgress?.(done, total, progressLine(outcome));
    options.onJob?.({ name: outcome.name, state: "finished", done, total });
  };
  options.onProgress?.(0, total, `${total} job${total === 1 ? "" : "s"} planned`);
  // Group by lock, keeping plan order inside a group.
  const groups = new Map<string, number[]>();
  plan.forEach((job, index) => {
    if (job.skip || !job.argv) {
      finish(index, { name: job.name, status: "skipped", reason: job.skip ?? "nothing to run", cwd: job.rel });
      return;
    }
    const list = groups.get(job.lock) ?? [];
    list.push(index);
    groups.set(job.lock, list);
  });
  const queue = [...groups.values()];
  const width = options.fix
    ? 1
    : Math.max(1, Math.min(options.jobs ?? navigator.hardwareConcurrency ?? 2, queue.length));
  const worker = async () => {
    for (let group = queue.shift(); group; group = queue.shift()) {
      for (const index of group) {
        options.onJob?.({ name: plan[index].name, state: "started", done, total });
        finish(index, await runJob(plan[index], options, cache));
      }
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return { jobs: results };
}

/**
 * Why a job's program could not be started, told by the shell's exit code: 127
 * (command not found) or 126 (found but not executable). Every job runs under a
 * `sh` wrapper, so a missing program is an exit code, not a spawn error.
 */
function startFailure(result: { code: number | null; stderr: string }): string | undefined {
  if (result.code !== 127 && result.code !== 126) return undefined;
  const said = result.stderr.trim().split("\n").at(-1)?.trim();
  const what = result.code === 127 ? "command not found" : "not executable";
  return `could not start its program (exit ${result.code}: ${what})${said ? `: ${said}` : ""}`;
}

async function runJob(job: PlannedJob, options: WorkspaceOptions, cache?: WorkspaceCache): Promise<JobOutcome> {
  const base = { name: job.name, cwd: job.rel, command: job.argv };
  if (options.signal?.aborted) return { ...base, status: "cancelled", reason: "cancelled before it started" };
  const key = options.fix || !cache ? undefined : await jobKey(job, cache).catch(() => undefined);
  if (key && cache && !options.noCache) {
    const hit = await cacheGet(cache, key);
    if (hit) return { ...hit, cached: true };
  }
  let result;
  try {
    result = await runTree(job.argv!, { cwd: job.dir, timeoutMs: job.timeoutMs, signal: options.signal, env: job.env });
  } catch (error) {
    const reason = error instanceof SpawnError ? error.message : `could not run: ${describeError(error)}`;
    return { ...base, status: "errored", reason };
  }
  const duration_ms = result.durationMs;
  if (result.timedOut) {
    return {
      ...base,
      status: "errored",
      reason: `timed out after ${Number((job.timeoutMs / 1000).toFixed(1))} s; its processes were stopped`,
      duration_ms,
    };
  }
  if (result.cancelled) {
    return { ...base, status: "cancelled", reason: "cancelled; its processes were stopped", duration_ms };
  }
  if (result.code === null) {
    return { ...base, status: "errored", reason: "killed by a signal", duration_ms };
  }
  const notStarted = startFailure(result);
  if (notStarted) return { ...base, status: "errored", reason: notStarted, duration_ms };
  const verdict = job.judge(result);
  // A tool that could not download what it needs checked nothing: an error of the run, never its cached result.
  const offline = verdict.status === "failed" && !verdict.diagnostics.some((d) => d.severity === "error")
    ? networkFailure(`${result.stderr}\n${result.stdout}`)
    : undefined;
  if (offline) {
    return {
      ...base,
      status: "errored",
      reason: `could not download what it needs (no network?): ${offline}`,
      duration_ms,
      ...(verdict.output ? { output: verdict.output } : {}),
    };
  }
  const outcome: JobOutcome = {
    ...base,
    status: verdict.status,
    ...(verdict.reason ? { reason: verdict.reason } : {}),
    duration_ms,
    ...(verdict.diagnostics.length > 0 ? { diagnostics: verdict.diagnostics } : {}),
    ...(verdict.output ? { output: verdict.output } : {}),
  };
  if (key && cache && verdict.status !== "errored") {
    const { duration_ms: _d, ...stored } = outcome;
    await cachePut(cache, key, stored as CachedJob);
  }
  return outcome;
}

function progressLine(outcome: JobOutcome): string {
  const count = outcome.diagnostics?.length ?? 0;
  const findings = count > 0 ? ` (${count} finding${count === 1 ? "" : "s"})` : "";
  return `${outcome.name}: ${outcome.status}${findings}${
    outcome.reason && outcome.status !== "failed" ? `: ${outcome.reason}` : ""
  }`;
}

/** Options for {@link runWorkspacePhase}. */
export type WorkspacePhaseOptions = WorkspaceOptions;

/** What the CLI gets: the outcome to attach to the report, its exit code, and the stderr text. */
export interface WorkspacePhase {
  outcome: WorkspaceOutcome;
  /** 0 when every job passed or was skipped, 1 when one failed, 2 when one errored or was cancelled. */
  exitCode: number;
  /** Lines for stderr (see {@link describeWorkspaceOutcome}); ends with a newline. */
  summary: string;
}

/**
 * The phase as `poly lint` runs it: never throws for a job's failure; a
 * configuration error becomes one errored job named "workspace".
 *
 * ```ts
 * const phase = await runWorkspacePhase({ cwd, config, fix, jobs, noCache, signal });
 * await io.stderr(phase.summary);            // stdout stays one document
 * report.workspace = phase.outcome;
 * code = Math.max(code, phase.exitCode);
 * ```
 */
export async function runWorkspacePhase(options: WorkspacePhaseOptions): Promise<WorkspacePhase> {
  const { describeWorkspaceOutcome, workspaceExitCode } = await import("./describe.ts");
  let outcome: WorkspaceOutcome;
  try {
    outcome = await runWorkspace(options);
  } catch (error) {
    outcome = { jobs: [{ name: "workspace", status: "errored", reason: describeError(error) }] };
  }
  return { outcome, exitCode: workspaceExitCode(outcome), summary: describeWorkspaceOutcome(outcome) + "\n" };
}
