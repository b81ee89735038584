/**
 * `poly lint [PATHS...] [--fix] [--format F] [--exclude GLOB]... [--config PATH]
 * [--no-cache] [--jobs N] [--color WHEN] [--no-workspace] [--statistics] [--max-diagnostics N]`
 *
 * @module
 */
import { command, integer, merge, message, object, option, optional } from "../_optique.ts";
import { defineCommand } from "../command.ts";
import { runOptions } from "./_run_options.ts";
import { lintRun, type LintValue, withReplay } from "./_check_run.ts";

const parser = command(
  "lint",
  merge(
    runOptions("lint"),
    object({
      fix: option("--fix", { description: message`Apply safe fixes, then report what remains` }),
      noWorkspace: option("--no-workspace", {
        description: message`Skip the whole-project phase (cargo clippy, go vet, jobs)`,
      }),
      statistics: option("--statistics", {
        description: message`Human report: count findings per rule instead of listing each`,
      }),
      maxDiagnostics: optional(
        option("--max-diagnostics", integer({ min: 0, metavar: "N" }), {
          description: message`Human report: list at most N findings; the rest are counted (default: all)`,
        }),
      ),
    }),
  ),
  { description: message`Lint files with every engine configured for their language.` },
);

/** `poly lint`. */
export const lintCommand = defineCommand({
  parser,
  run(value: LintValue, io) {
    return withReplay(value.fix ? "fix" : "check", value, io, (shard, replay) => lintRun(value, io, shard, replay));
  },
});
