/**
 * `poly fmt [PATHS...] [--check | --fix] [--format F] [--exclude GLOB]...
 * [--config PATH] [--no-cache] [--jobs N] [--color WHEN]` — check is the default.
 *
 * @module
 */
import { command, constant, merge, message, object, option, or, withDefault } from "../_optique.ts";
import { defineCommand } from "../command.ts";
import { progressReporter, runOptions, type RunOptionValues, useColor } from "./_run_options.ts";
import { lazy } from "../../lazy/mod.ts";

const mode = withDefault(
  or(
    object({
      mode: constant("check" as const),
      _check: option("--check", { description: message`Report drift without writing (default)` }),
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
  async run(value: RunOptionValues & { m: { mode: "check" | "fix" } }, io) {
    const { runFmt } = await lazy.run();
    const [{ encodeReport }, { exitCodeFor }] = await Promise.all([lazy.reportEncode(), lazy.reportExit()]);
    const report = await runFmt({
      paths: [...value.paths],
      cwd: io.cwd,
      exclude: [...value.exclude],
      config: value.config,
      fix: value.m.mode === "fix",
      noCache: value.noCache,
      jobs: value.jobs,
      onProgress: value.format === "human" ? progressReporter(io, "fmt") : undefined,
      ...(io.memo ? { memo: io.memo } : {}),
    });
    const color = value.format === "human" && useColor(value.color, io.stdoutIsTerminal);
    await io.stdout(encodeReport(report, value.format, { color, cwd: io.cwd }));
    return exitCodeFor(report);
  },
});
