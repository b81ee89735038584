/**
 * `format_check` — formatting drift per file, without writing: the same document
 * as `poly fmt --format json`. Read-only.
 *
 * @module
 */
import { Report } from "../lib/report/schema.ts";
import { CHECK_INPUT, runReportTool } from "./_run.ts";
import { defineTool, READ_ONLY } from "./_tool.ts";

/** The `format_check` tool. */
export const formatCheckTool = defineTool({
  name: "format_check",
  title: "Check formatting",
  description:
    "Report which files' formatting differs from what poly's formatters produce (changed: true, with a diff), without writing anything. Read-only. Check isError first, then summary.checked. Mirrors `poly fmt --format json`.",
  level: "read",
  annotations: READ_ONLY,
  inputSchema: CHECK_INPUT,
  outputSchema: Report,
  handler: (args, ctx) => runReportTool("fmt", false, args, ctx),
});
