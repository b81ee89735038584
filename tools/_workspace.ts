/**
 * What `workspace_lint` and `workspace_lint_fix` share: parameters and the run.
 *
 * @module
 */
import { z } from "zod";
import { describeError, PolyError } from "../lib/errors/mod.ts";
import type { Report } from "../lib/report/schema.ts";
import { configFor, configParam, failureReport, formatParam, reportOutput } from "./_run.ts";
import type { ToolContext, ToolOutput } from "./_tool.ts";

/** Parameters of the workspace tools (they take no paths: they cover the whole root). */
export const WORKSPACE_INPUT = {
  config: configParam,
  format: formatParam,
  jobs: z.number().int().min(1).max(64).optional().describe(
    "How many projects run side by side (default: the CPU count; fix mode runs one job at a time).",
  ),
  no_cache: z.boolean().optional().describe("Do not reuse cached job outcomes (check mode caches passing inputs)."),
};

/** Parsed parameters of a workspace tool. */
export interface WorkspaceArgs {
  config?: string;
  format?: "json" | "toon";
  jobs?: number;
  no_cache?: boolean;
}

/** Runs the whole-project phase for a tool call and returns its report. */
export async function runWorkspaceTool(
  fix: boolean,
  args: WorkspaceArgs,
  ctx: ToolContext,
): Promise<ToolOutput<Report>> {
  const mode = fix ? "fix" : "check";
  let config: string | undefined;
  try {
    config = await configFor(ctx, args.config);
  } catch (error) {
    return reportOutput(
      await failureReport("workspace", mode, [{ path: args.config!, message: describeError(error) }]),
      args.format,
    );
  }
  const { runWorkspaceWithConfig, workspaceReport } = await import("../lib/workspace/mod.ts");
  const { canonicalReport } = await import("../lib/report/json.ts");
  const { identity } = await import("../lib/identity/mod.ts");
  try {
    const run = await runWorkspaceWithConfig({
      cwd: ctx.root,
      config,
      fix,
      jobs: args.jobs,
      noCache: args.no_cache ?? false,
      signal: ctx.signal,
      onProgress: (done, total, message) => void ctx.progress(done, total, message),
    });
    const report = workspaceReport(run.outcome, { mode, config: run.config, poly: await identity() });
    return reportOutput(canonicalReport(report), args.format);
  } catch (error) {
    if (!(error instanceof PolyError)) throw error;
    const path = (error as { position?: { file?: string } }).position?.file ?? ".";
    return reportOutput(await failureReport("workspace", mode, [{ path, message: describeError(error) }]), args.format);
  }
}
