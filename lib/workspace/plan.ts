/**
 * Which whole-project jobs a run has: the built-in ones for every Cargo workspace
 * and Go module under the cwd, then the inline `[workspace.jobs.<name>]` jobs.
 * A built-in tool that is not installed, or switched off with
 * `[tools.<name>] enabled = false`, becomes a skipped job with the reason.
 *
 * | job | check mode | fix mode | needs |
 * |---|---|---|---|
 * | `clippy` | `cargo clippy --workspace --all-targets --message-format=json` | adds `--fix --allow-dirty --allow-staged` | cargo, cargo-clippy |
 * | `cargo-sort` | `cargo sort --workspace --check` | `cargo sort --workspace` | cargo-sort |
 * | `cargo-machete` | `cargo machete` | `cargo machete --fix` | cargo-machete |
 * | `cargo-deny` | `cargo deny --format json check` | same | cargo-deny |
 * | `go-vet` | `go vet -json ./...` (`GOTOOLCHAIN=local`) | same | go |
 *
 * Job names carry the project directory when it is not the cwd: `clippy:crates/core`.
 *
 * @module
 */
import { resolve } from "node:path";
import type { ResolvedConfig } from "../config/types.ts";
import type { WorkspaceOutcome } from "../report/schema.ts";
import { DEFAULT_JOB_TIMEOUT_S, type JobCommand, type WorkspaceJobTable } from "./config.ts";
import type { Project } from "./projects.ts";
import {
  clippyBuildSucceeded,
  displayPath,
  type JobDiagnostic,
  parseCargoDeny,
  parseCargoSort,
  parseClippy,
  parseGoVet,
  parseMachete,
} from "./_parse.ts";
import type { TreeResult } from "./_spawn.ts";
import { which } from "./which.ts";
import { goModCause } from "../engines/govet/mod.ts";
import { compareText } from "../report/sort.ts";

/** A built-in tool of the phase (also the `[tools.<name>]` that switches it off). */
export type BuiltinTool = "clippy" | "cargo-sort" | "cargo-machete" | "cargo-deny" | "go-vet";

/** The status of a job. */
export type JobStatus = WorkspaceOutcome["jobs"][number]["status"];

/** How a finished process is judged (`errored`: the tool could not check the project; never cached). */
export interface Verdict {
  status: "passed" | "failed" | "errored";
  diagnostics: JobDiagnostic[];
  reason?: string;
  /** Text worth showing a person (tail of the tool's output). */
  output?: string;
}

/** One job, ready to run (or already decided to be skipped). */
export interface PlannedJob {
  name: string;
  tool: BuiltinTool | "inline";
  /** Absolute working directory. */
  dir: string;
  /** `dir` relative to the phase's cwd. */
  rel: string;
  /** What runs; undefined when skipped. */
  argv?: string[];
  /** Why the job does not run. */
  skip?: string;
  timeoutMs: number;
  env?: Record<string, string>;
  /** Jobs with the same lock run one after another (one cargo build directory at a time). */
  lock: string;
  /** Whether a check-mode outcome may be reused for identical inputs. */
  cacheable: boolean;
  judge(result: TreeResult): Verdict;
}

/** Default timeout of the built-in jobs, in seconds. */
export const BUILTIN_TIMEOUT_S = 1800;

const OUTPUT_TAIL = 4000;

/** The last few thousand characters of `text`, trimmed. */
export function tail(text: string, max = OUTPUT_TAIL): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  return trimmed.length > max ? "…" + trimmed.slice(trimmed.length - max) : trimmed;
}

function exitReason(tool: string, result: TreeResult): string {
  return `${tool} exited with code ${result.code}`;
}

function hasErrors(diagnostics: JobDiagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/** Options for {@link planJobs}. */
export interface PlanOptions {
  cwd: string;
  fix: boolean;
  projects: Project[];
  config: ResolvedConfig;
  /** Looks a program up on PATH (tests pass their own). */
  which?: (name: string) => string | undefined;
}

/** Plans every job of the phase, in a stable order: built-in jobs by project, then inline jobs by name. */
export function planJobs(options: PlanOptions): PlannedJob[] {
  const find = options.which ?? which;
  const { cwd, fix, config } = options;
  const switches = config.data.tools ?? {};
  const off = (tool: BuiltinTool) =>
    switches[tool]?.enabled === false ? `switched off by [tools.${tool}] enabled = false` : undefined;
  const missing = (...programs: string[]) => {
    const absent = programs.find((p) => !find(p));
    return absent ? `${absent} not found on PATH` : undefined;
  };
  const jobs: PlannedJob[] = [];
  for (const project of options.projects) {
    const suffix = project.rel === "." ? "" : `:${project.rel}`;
    const base = { dir: project.dir, rel: project.rel, timeoutMs: BUILTIN_TIMEOUT_S * 1000, lock: project.dir };
    if (project.kind === "cargo") {
      const env = { CARGO_TERM_COLOR: "never" };
      jobs.push({
        ...base,
        name: `clippy${suffix}`,
        tool: "clippy",
        env,
        skip: off("clippy") ?? missing("cargo", "cargo-clippy"),
        argv: [
          "cargo",
          "clippy",
          ...(fix ? ["--fix", "--allow-dirty", "--allow-staged"] : []),
          "--workspace",
          "--all-targets",
          "--message-format=json",
        ],
        cacheable: !fix,
        judge: (result) => {
          const diagnostics = parseClippy(result.stdout, project.dir, cwd);
          const built = clippyBuildSucceeded(result.stdout);
          if (result.code === 0 && built !== false && !hasErrors(diagnostics)) return { status: "passed", diagnostics };
          return {
            status: "failed",
            diagnostics,
            reason: hasErrors(diagnostics) ? undefined : exitReason("cargo clippy", result),
            output: tail(result.stderr),
          };
        },
      });
      jobs.push({
        ...base,
        name: `cargo-sort${suffix}`,
        tool: "cargo-sort",
        env,
        skip: off("cargo-sort") ?? missing("cargo", "cargo-sort"),
        argv: ["cargo", "sort", "--workspace", ...(fix ? [] : ["--check"])],
        cacheable: !fix,
        judge: (result) => {
          if (result.code === 0) return { status: "passed", diagnostics: [] };
          const text = `${result.stdout}\n${result.stderr}`;
          return {
            status: "failed",
            diagnostics: parseCargoSort(text),
            reason: exitReason("cargo sort", result),
            output: tail(text),
          };
        },
      });
      jobs.push({
        ...base,
        name: `cargo-machete${suffix}`,
        tool: "cargo-machete",
        env,
        skip: off("cargo-machete") ?? missing("cargo", "cargo-machete"),
        argv: ["cargo", "machete", ...(fix ? ["--fix"] : [])],
        cacheable: !fix,
        judge: (result) => {
          const diagnostics = parseMachete(result.stdout, project.dir, cwd);
          if (result.code === 0 && (fix || diagnostics.length === 0)) return { status: "passed", diagnostics };
          return {
            status: "failed",
            diagnostics,
            reason: exitReason("cargo machete", result),
            output: tail(`${result.stdout}\n${result.stderr}`),
          };
        },
      });
      jobs.push({
        ...base,
        name: `cargo-deny${suffix}`,
        tool: "cargo-deny",
        env,
        skip: off("cargo-deny") ?? missing("cargo", "cargo-deny"),
        argv: ["cargo", "deny", "--format", "json", "check"],
        // Advisories come from the network: never reuse an outcome.
        cacheable: false,
        judge: (result) => {
          const diagnostics = parseCargoDeny(result.stderr, project.dir, cwd);
          if (result.code === 0) return { status: "passed", diagnostics };
          return {
            status: "failed",
            diagnostics,
            reason: exitReason("cargo deny", result),
            output: diagnostics.length > 0 ? undefined : tail(result.stderr),
          };
        },
      });
    } else {
      jobs.push({
        ...base,
        name: `go-vet${suffix}`,
        tool: "go-vet",
        // The host Go, never one downloaded because go.mod asks for a newer version.
        env: { GOTOOLCHAIN: "local" },
        skip: off("go-vet") ?? missing("go"),
        argv: ["go", "vet", "-json", "./..."],
        cacheable: !fix,
        judge: (result) => {
          const diagnostics = parseGoVet(result.stderr, project.dir, cwd);
          if (result.code === 0 && diagnostics.length === 0) return { status: "passed", diagnostics };
          // The host Go cannot read this module's go.mod: nothing was checked; say why and what to do.
          const cause = diagnostics.length === 0 ? goModCause(result.stderr, project.dir) : undefined;
          if (cause) return { status: "errored", diagnostics, reason: cause };
          return {
            status: "failed",
            diagnostics,
            reason: result.code === 0 ? undefined : exitReason("go vet", result),
            output: result.code === 0 ? undefined : tail(result.stderr),
          };
        },
      });
    }
  }
  const inline = Object.entries(config.data.workspace.jobs as Record<string, WorkspaceJobTable>)
    .sort(([a], [b]) => compareText(a, b));
  for (const [name, table] of inline) {
    const dir = resolve(config.dir, table.cwd ?? ".");
    const command = fix && table.fix ? table.fix : table.command;
    jobs.push({
      name,
      tool: "inline",
      dir,
      rel: displayPath(cwd, dir, "."),
      argv: commandArgv(command),
      skip: table.enabled === false ? `switched off by [workspace.jobs.${name}] enabled = false` : undefined,
      timeoutMs: (table.timeout ?? DEFAULT_JOB_TIMEOUT_S) * 1000,
      lock: `inline:${name}`,
      cacheable: false,
      judge: (result) => {
        const output = tail(`${result.stdout}\n${result.stderr}`);
        if (result.code === 0) return { status: "passed", diagnostics: [] };
        return { status: "failed", diagnostics: [], reason: exitReason(name, result), output };
      },
    });
  }
  return jobs;
}

/** A job's command as an argv: a string runs through `sh -c`. */
export function commandArgv(command: JobCommand): string[] {
  return typeof command === "string" ? ["sh", "-c", command] : [...command];
}
