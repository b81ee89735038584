/**
 * `poly fmt [PATHS...] [--check | --diff | --fix] [--format F] [--exclude GLOB]...
 * [--config PATH] [--no-cache] [--jobs N] [--color WHEN]` — check is the default. `--diff`
 * checks and prints only the unified diff of every file that would change (on
 * stdout; errors and the count on stderr), as `ruff format --diff` does.
 *
 * @module
 */
import { command, constant, merge, message, object, option, or, withDefault } from "../_optique.ts";
import { defineCommand } from "../command.ts";
import { runOptions } from "./_run_options.ts";
import { fmtRun, type FmtValue, withReplay } from "./_check_run.ts";

const mode = withDefault(
  or(
    object({
      mode: constant("check" as const),
      _check: option("--check", { description: message`Report drift without writing (default)` }),
    }),
    object({
      mode: constant("diff" as const),
      _diff: option("--diff", {
        description: message`Check, and print only the unified diff of each file that would change`,
      }),
    }),
    object({
      mode: constant("fix" as const),
      _fix: option("--fix", { description: message`Rewrite files in place, atomically` }),
    }),
  ),
  { mode: "check" as const, _check: false },
);

const parser = command("fmt", merge(runOptions("fmt"), object({ m: mode })), {
  description: message`Check or fix the formatting of files with each language's formatter.`,
});

/** `poly fmt`. */
export const fmtCommand = defineCommand({
  parser,
  run(value: FmtValue, io) {
    return withReplay(value.m.mode, value, io, (shard, replay) => fmtRun(value, io, shard, replay));
  },
});
