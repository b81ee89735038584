/**
 * `lint_fix` — applies the engines' safe fixes, then reports what remains: the
 * same document as `poly lint --fix --format json --no-workspace`. Writes files.
 *
 * @module
 */
import { Report } from "../lib/report/schema.ts";
import { RUN_INPUT, runReportTool } from "./_run.ts";
import { defineTool, MUTATING } from "./_tool.ts";

/** The `lint_fix` tool. */
export const lintFixTool = defineTool({
  name: "lint_fix",
  title: "Lint and apply safe fixes",
  description:
    "Apply the safe fixes of poly's linters to the files (written atomically), then report the diagnostics that remain and how many fixes each file got (fixed). Mutates the tree: use only when the user asked for fixes. Mirrors `poly lint --fix --format json --no-workspace`.",
  level: "act",
  annotations: MUTATING,
  inputSchema: RUN_INPUT,
  outputSchema: Report,
  handler: (args, ctx) => runReportTool("lint", true, args, ctx),
});
