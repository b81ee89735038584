/**
 * `poly lint [PATHS...] [--fix] [--format F] [--exclude GLOB]... [--config PATH]
 * [--no-cache] [--jobs N] [--no-workspace]`
 *
 * @module
 */
import { command, merge, message, object, option } from "../_optique.ts";
import { defineCommand } from "../command.ts";
import { progressReporter, runOptions, type RunOptionValues, shardOption, useColor } from "./_run_options.ts";
import { lazy } from "../../lazy/mod.ts";

const parser = command(
  "lint",
  merge(
    runOptions("lint"),
    object({
      fix: option("--fix", { description: message`Apply safe fixes, then report what remains` }),
      noWorkspace: option("--no-workspace", {
        description: message`Skip the whole-project phase (cargo clippy, go vet, jobs)`,
      }),
    }),
  ),
  { description: message`Lint files with every engine configured for their language.` },
);

/** `poly lint`. */
export const lintCommand = defineCommand({
  parser,
  async run(value: RunOptionValues & { fix: boolean; noWorkspace: boolean }, io) {
    const { runLint } = await lazy.run();
    const [{ encodeReport }, { exitCodeFor }] = await Promise.all([lazy.reportEncode(), lazy.reportExit()]);
    const shard = await shardOption(value.shard);
    // The whole-project phase (cargo clippy, go vet, [workspace.jobs]) runs beside the per-file run (on shard 1).
    const phase = value.noWorkspace || (shard && shard.index !== 1)
      ? undefined
      : lazy.workspace().then((m) =>
        m.runWorkspacePhase({
          cwd: io.cwd,
          config: value.config,
          fix: value.fix,
          jobs: value.jobs,
          noCache: value.noCache,
        })
      );
    const report = await runLint({
      paths: [...value.paths],
      cwd: io.cwd,
      exclude: [...value.exclude],
      config: value.config,
      fix: value.fix,
      noCache: value.noCache,
      jobs: value.jobs,
      ...(shard ? { shard } : {}),
      onProgress: value.format === "human" ? progressReporter(io, "lint") : undefined,
      ...(io.memo ? { memo: io.memo } : {}),
    });
    const workspace = await phase;
    if (workspace && workspace.outcome.jobs.length > 0) {
      report.workspace = workspace.outcome;
      // Its pass/fail goes to stderr, so stdout stays one valid document.
      await io.stderr(workspace.summary);
    }
    const color = value.format === "human" && useColor(io.stdoutIsTerminal);
    await io.stdout(encodeReport(report, value.format, { color, cwd: io.cwd }));
    // Remote-cache uploads start once the report is out; a one-shot process waits for them (bounded).
    if (!io.memo) await (await lazy.cacheRemote()).settleRemoteWrites();
    return exitCodeFor(report);
  },
});
