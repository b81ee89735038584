/**
 * `format_write` — rewrites files to their formatted form: the same document as
 * `poly fmt --fix --format json`. Writes files.
 *
 * @module
 */
import { Report } from "../lib/report/schema.ts";
import { RUN_INPUT, runReportTool } from "./_run.ts";
import { defineTool, MUTATING } from "./_tool.ts";

/** The `format_write` tool. */
export const formatWriteTool = defineTool({
  name: "format_write",
  title: "Format files in place",
  description:
    "Rewrite files to the output of poly's formatters (atomically) and report which changed. Mutates the tree: use only when the user asked for formatting. Mirrors `poly fmt --fix --format json`.",
  level: "act",
  annotations: MUTATING,
  inputSchema: RUN_INPUT,
  outputSchema: Report,
  handler: (args, ctx) => runReportTool("fmt", true, args, ctx),
});
