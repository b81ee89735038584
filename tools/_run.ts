/**
 * What the report tools share: their parameters, the workspace-root checks of
 * path arguments, and turning a run (or a refusal) into a report document.
 *
 * A refused or failed call still returns a report: the reason is a run-level
 * error (and an errored record for a refused path), so `isError` is set exactly
 * when `errors` is non-empty and `structuredContent` always fits the schema.
 *
 * @module
 */
import { z } from "zod";
import { describeError, PolyError } from "../lib/errors/mod.ts";
import type { Report } from "../lib/report/schema.ts";
import { insideRoots } from "../lib/fs/roots.ts";
import type { ToolContext, ToolOutput } from "./_tool.ts";

/** `format`: the encoding of the text block (structuredContent is always JSON). */
export const formatParam = z.enum(["json", "toon"]).optional().describe(
  'Encoding of the text block: "json" (default, the CLI\'s --format json) or "toon" (compact). structuredContent is always JSON.',
);

/** `config`: a poly.toml to use instead of the cascade. */
export const configParam = z.string().min(1).optional().describe(
  "Path to a poly.toml to use instead of the cascade (relative to the workspace root, must be inside it).",
);

/** Parameters of lint, format_check, lint_fix and format_write. */
export const RUN_INPUT = {
  paths: z.array(z.string().min(1)).optional().describe(
    "Files or directories, relative to the workspace root; empty or omitted means the whole root.",
  ),
  exclude: z.array(z.string().min(1)).optional().describe(
    "Gitignore-style globs merged with [discovery] exclude; a leading / anchors to the root, unanchored globs match at any depth.",
  ),
  config: configParam,
  format: formatParam,
};

/** Parameters of the check tools (lint, format_check): {@link RUN_INPUT} and `shard`. */
export const CHECK_INPUT = {
  ...RUN_INPUT,
  shard: z.string().regex(/^\s*\d+\s*\/\s*\d+\s*$/).optional().describe(
    'Only this shard of the paths, "i/n" (1 <= i <= n): the same deterministic, size-balanced partition as `poly lint --shard`. Run-wide problems go to shard 1.',
  ),
};

/** Parsed parameters of a run tool. */
export interface RunArgs {
  /** `i/n` (check tools only). */
  shard?: string;
  paths?: string[];
  exclude?: string[];
  config?: string;
  format?: "json" | "toon";
}

/** The config a call uses: its own `config` (checked against the root) or the server's `--config`. */
export async function configFor(ctx: ToolContext, config: string | undefined): Promise<string | undefined> {
  if (config === undefined) return ctx.defaultConfig;
  return (await insideRoots(ctx.roots ?? [ctx.root], config)).real;
}

/** A report that carries only failures: used when a call is refused or cannot run. */
export async function failureReport(
  kind: Report["kind"],
  mode: Report["mode"],
  failures: { path: string; message: string; file?: boolean }[],
): Promise<Report> {
  const { identity } = await import("../lib/identity/mod.ts");
  return {
    kind,
    mode,
    results: failures.filter((f) => f.file).map((f) => ({ path: f.path, error: f.message })),
    errors: failures.map(({ path, message }) => ({ path, message })),
    skipped: [],
    summary: { checked: 0, skipped: 0, errored: failures.filter((f) => f.file).length },
    configs: [],
    poly: await identity(),
  };
}

/** Where a thrown error points (a config error names its file). */
function errorPath(error: unknown): string {
  const position = (error as { position?: { file?: string } }).position;
  return position?.file ?? ".";
}

/** The tool output for a report: `isError` exactly when `errors` is non-empty. */
export function reportOutput(report: Report, format: "json" | "toon" | undefined): ToolOutput<Report> {
  return { structured: report, format: format ?? "json", isError: report.errors.length > 0 };
}

/** Runs lint or fmt for a tool call: paths checked against the root, then the same run the CLI does. */
export async function runReportTool(
  kind: "lint" | "fmt",
  fix: boolean,
  args: RunArgs,
  ctx: ToolContext,
): Promise<ToolOutput<Report>> {
  const mode = fix ? "fix" : "check";
  const refused: { path: string; message: string; file: boolean }[] = [];
  // With several roots, the run happens in the root holding the paths (relative ones: the first).
  let root: string | undefined;
  for (const path of args.paths ?? []) {
    try {
      const inside = await insideRoots(ctx.roots ?? [ctx.root], path);
      if (root !== undefined && inside.root !== root) {
        refused.push({
          path,
          message:
            `Path "${path}" is in workspace root "${inside.root}", the call's other paths in "${root}": call once per root`,
          file: true,
        });
      }
      root ??= inside.root;
    } catch (error) {
      refused.push({ path, message: describeError(error), file: true });
    }
  }
  root ??= ctx.root;
  let config: string | undefined;
  try {
    config = await configFor(ctx, args.config);
  } catch (error) {
    refused.push({ path: args.config!, message: describeError(error), file: false });
  }
  let shard: { index: number; count: number } | undefined;
  if (args.shard !== undefined) {
    try {
      shard = (await import("../lib/run/shard.ts")).parseShard(args.shard);
    } catch (error) {
      refused.push({ path: ".", message: (error as Error).message, file: false });
    }
  }
  if (refused.length > 0) return reportOutput(await failureReport(kind, mode, refused), args.format);

  const { runFmt, runLint } = await import("../lib/run/mod.ts");
  const { canonicalReport } = await import("../lib/report/json.ts");
  // A check remembers, per file, what it found while the watched file is unchanged (lib/daemon/live.ts).
  const memo = fix ? undefined : await (await import("../lib/daemon/live.ts")).sharedWorkspace(root);
  try {
    await memo?.sync();
    const report = await (kind === "lint" ? runLint : runFmt)({
      ...(memo ? { memo } : {}),
      paths: args.paths ?? [],
      cwd: root,
      // A fix writes inside the call's workspace root only, after links are resolved.
      root,
      exclude: args.exclude ?? [],
      config,
      fix,
      ...(shard ? { shard } : {}),
      signal: ctx.signal,
      onProgress: throttle(ctx),
    });
    return reportOutput(canonicalReport(report), args.format);
  } catch (error) {
    if (!(error instanceof PolyError)) throw error;
    return reportOutput(
      await failureReport(kind, mode, [{ path: errorPath(error), message: describeError(error) }]),
      args.format,
    );
  }
}

/** Progress at most every 100 ms (and at the end), as MCP progress notifications. */
function throttle(ctx: ToolContext): (done: number, total: number) => void {
  let last = 0;
  return (done, total) => {
    const now = Date.now();
    if (done < total && now - last < 100) return;
    last = now;
    void ctx.progress(done, total);
  };
}
