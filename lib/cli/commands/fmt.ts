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
import {
  progressReporter,
  runOptions,
  type RunOptionValues,
  type RunReplay,
  runRequestOf,
  settleRemote,
  useColor,
  withReplay,
} from "./_run_options.ts";
import type { FileResult, Report } from "../../report/schema.ts";
import type { CommandIO } from "../command.ts";
import type { RunRequest } from "../../run/types.ts";

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

type FmtValue = RunOptionValues & { m: { mode: "check" | "diff" | "fix" } };

/** `poly fmt`. */
export const fmtCommand = defineCommand({
  parser,
  run(value: FmtValue, io) {
    return withReplay("fmt", value.m.mode, value, io, (shard, replay) => fmtRun(value, io, shard, replay));
  },
});

/** The command once its shard and replay are known (see `withReplay`). */
async function fmtRun(
  value: FmtValue,
  io: CommandIO,
  shard: RunRequest["shard"],
  replay: RunReplay | undefined,
): Promise<number> {
  const hit = replay?.hit;
  const [run, { reportWriter }, { exitCodeFor }] = await Promise.all([
    hit ? undefined : import("../../run/mod.ts"),
    import("../../report/encode.ts"),
    import("../../report/exit.ts"),
  ]);
  const reads = hit ? undefined : await replay?.start();
  const color = value.format === "human" && useColor(value.color, io.stdoutIsTerminal);
  // The report is written as the files are done (not with --diff, which prints the diffs alone).
  const writer = value.m.mode === "diff" ? undefined : reportWriter(
    value.format,
    { color, cwd: io.cwd },
    { kind: "fmt", mode: value.m.mode === "fix" ? "fix" : "check" },
    (text) => io.stdout(text),
  );
  let report: Report;
  if (hit) {
    if (writer) { for (const result of hit.results) await writer.result(result); }
    report = hit.report;
  } else {
    report = await run!.runFmt(runRequestOf(value, io, shard, {
      fix: value.m.mode === "fix",
      onProgress: value.format === "human" && value.m.mode !== "diff" ? progressReporter(io, "fmt") : undefined,
      ...(writer
        ? {
          onResult: (result: FileResult) => {
            replay?.result(result);
            return writer.result(result);
          },
        }
        : {}),
      ...(reads ? { reads } : {}),
    }));
    await replay?.keep(report, false);
  }
  if (value.m.mode === "diff") {
    await io.stdout(report.results.filter((r) => r.changed && r.diff).map((r) => r.diff).join(""));
    for (const e of report.errors) await io.stderr(`${e.path}: error: ${e.message}\n`);
    const changed = report.summary.changed ?? 0;
    await io.stderr(`${changed} file${changed === 1 ? "" : "s"} would be reformatted\n`);
  } else await writer!.finish(report);
  // Remote-cache uploads start once the report is out.
  if (!hit) await settleRemote(io);
  return exitCodeFor(report);
}
