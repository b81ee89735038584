/**
 * `poly lint [PATHS...] [--fix] [--format F] [--exclude GLOB]... [--config PATH]
 * [--no-cache] [--jobs N] [--color WHEN] [--no-workspace] [--statistics] [--max-diagnostics N]`
 *
 * @module
 */
import { command, integer, merge, message, object, option, optional } from "../_optique.ts";
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
import { span } from "../../debug/timing.ts";
import type { Report } from "../../report/schema.ts";
import type { CommandIO } from "../command.ts";
import type { RunRequest } from "../../run/types.ts";

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

type LintValue = RunOptionValues & { fix: boolean; noWorkspace: boolean; statistics: boolean; maxDiagnostics?: number };

/** `poly lint`. */
export const lintCommand = defineCommand({
  parser,
  run(value: LintValue, io) {
    return withReplay(
      "lint",
      value.fix ? "fix" : "check",
      value,
      io,
      (shard, replay) => lintRun(value, io, shard, replay),
    );
  },
});

/** The command once its shard and replay are known (see `withReplay`). */
async function lintRun(
  value: LintValue,
  io: CommandIO,
  shard: RunRequest["shard"],
  replay: RunReplay | undefined,
): Promise<number> {
  const hit = replay?.hit;
  const loaded = span("load run modules");
  const [run, { reportWriter }, { exitCodeFor }] = await Promise.all([
    hit ? undefined : import("../../run/mod.ts"),
    import("../../report/encode.ts"),
    import("../../report/exit.ts"),
  ]);
  loaded();
  const reads = hit ? undefined : await replay?.start();
  // The whole-project phase (cargo clippy, go vet, [workspace.jobs]) runs beside the per-file run (on shard 1),
  // unless a replayed run's phase had no job.
  const phased = !value.noWorkspace && (!shard || shard.index === 1) && !hit?.noWorkspaceJobs;
  const status = phased && value.format === "human" && io.stderrIsTerminal
    ? import("../../workspace/mod.ts").then((m) => new m.WorkspaceStatus())
    : undefined;
  const phase = phased
    ? import("../../workspace/mod.ts").then(async (m) =>
      m.runWorkspacePhase({
        cwd: io.cwd,
        config: value.config,
        fix: value.fix,
        jobs: value.jobs,
        noCache: value.noCache,
        ...(status ? { onJob: (await status).onJob } : {}),
      })
    )
    : undefined;
  const color = value.format === "human" && useColor(value.color, io.stdoutIsTerminal);
  // The report is written as the files are done (JSON and annotations stream; see lib/report/stream.ts).
  const writer = reportWriter(
    value.format,
    {
      color,
      cwd: io.cwd,
      statistics: value.statistics,
      maxDiagnostics: value.maxDiagnostics,
    },
    { kind: "lint", mode: value.fix ? "fix" : "check" },
    (text) => io.stdout(text),
  );
  const ran = span("run");
  let report: Report;
  if (hit) {
    for (const result of hit.results) await writer.result(result);
    report = hit.report;
  } else {
    report = await run!.runLint(runRequestOf(value, io, shard, {
      fix: value.fix,
      onProgress: value.format === "human" ? progressReporter(io, "lint") : undefined,
      onResult: (result) => {
        replay?.result(result);
        return writer.result(result);
      },
      ...(reads ? { reads } : {}),
    }));
  }
  ran();
  // Once the files are done, a phase still running says what it runs, on a terminal.
  const stop = phase && status ? (await status).show((text) => io.stderr(text)) : undefined;
  const workspace = await phase;
  await stop?.();
  if (!hit) await replay?.keep(report, workspace?.outcome.jobs.length === 0);
  if (workspace && workspace.outcome.jobs.length > 0) {
    report.workspace = workspace.outcome;
    // Its pass/fail goes to stderr, so stdout stays one valid document.
    await io.stderr(workspace.summary);
  }
  const reported = span("report");
  await writer.finish(report);
  reported();
  // Remote-cache uploads start once the report is out.
  if (!hit) await settleRemote(io);
  return exitCodeFor(report);
}
