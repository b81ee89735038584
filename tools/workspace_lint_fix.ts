/**
 * `workspace_lint_fix` — the whole-project phase in fix mode, as an MCP Task:
 * cargo clippy --fix, cargo sort, cargo machete --fix and the inline jobs' `fix`
 * commands, one job at a time. Writes files.
 *
 * @module
 */
import { Report } from "../lib/report/schema.ts";
import { runWorkspaceTool, WORKSPACE_INPUT } from "./_workspace.ts";
import { defineTool } from "./_tool.ts";

/** The `workspace_lint_fix` tool. */
export const workspaceLintFixTool = defineTool({
  name: "workspace_lint_fix",
  title: "Whole-project fixes",
  description:
    "Run the whole-project phase in fix mode: cargo clippy --fix --allow-dirty --allow-staged, cargo sort, cargo machete --fix, and the fix commands of [workspace.jobs.*], one job at a time, then report what remains. Mutates the tree: use only when the user asked for fixes. Runs as a task (tasks/cancel stops its processes); clients without tasks get a blocking result.",
  level: "act",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  inputSchema: WORKSPACE_INPUT,
  outputSchema: Report,
  task: true,
  handler: (args, ctx) => runWorkspaceTool(true, args, ctx),
});
