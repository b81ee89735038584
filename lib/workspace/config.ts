/**
 * The `[workspace.jobs.<name>]` tables of poly.toml: inline whole-project jobs a
 * repository adds to the built-in ones (cargo clippy, cargo-sort, cargo-machete,
 * cargo-deny, go vet).
 *
 * ```toml
 * [workspace.jobs.typecheck]
 * command = "npx tsc --noEmit"         # a shell command line (run with `sh -c`) ...
 * cwd = "web"                          # relative to the directory of the poly.toml
 * timeout = 300                        # seconds (default 600)
 *
 * [workspace.jobs.sort-imports]
 * command = ["isort", "--check", "."]  # ... or an argv list (no shell parsing)
 * fix = ["isort", "."]                 # what `poly lint --fix` / workspace_lint_fix runs instead
 * ```
 *
 * A job passes when its command exits 0. The commands come from the repository's
 * own poly.toml and run with the user's privileges, like a Makefile target.
 *
 * @module
 */
import { z } from "zod";

/** A command: one shell command line (run with `sh -c`), or an argv list run without a shell. */
export const JobCommand = z.union([
  z.string().trim().min(1, "a command must not be empty"),
  z.array(z.string()).min(1, "an argv list needs at least the program"),
]);

/** A command as written: a shell line or an argv list. */
export type JobCommand = z.infer<typeof JobCommand>;

/** One `[workspace.jobs.<name>]` table. */
export const WorkspaceJobTable = z.strictObject({
  /** What the job runs in check mode. */
  command: JobCommand,
  /** Working directory, relative to the directory of the poly.toml (default: that directory). */
  cwd: z.string().min(1).optional(),
  /** What the job runs in fix mode; without it, fix mode runs `command`. */
  fix: JobCommand.optional(),
  /** Seconds before the job's process tree is killed and the job reported errored (default 600). */
  timeout: z.number().positive().max(86_400).optional(),
  /** `false` switches off a job an outer config or an extends base declared. */
  enabled: z.boolean().default(true),
});

/** One validated `[workspace.jobs.<name>]` table. */
export type WorkspaceJobTable = z.infer<typeof WorkspaceJobTable>;

/** Job names: letters, digits, `-`, `_` and `.` (they appear in reports and on stderr). */
export const JOB_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** `[workspace] jobs`: name → job. */
export const WorkspaceJobs = z.record(
  z.string().regex(JOB_NAME, "a job name uses letters, digits, '-', '_' and '.'"),
  WorkspaceJobTable,
);

/** Default timeout of an inline job, in seconds. */
export const DEFAULT_JOB_TIMEOUT_S = 600;
