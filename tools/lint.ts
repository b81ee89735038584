/**
 * `lint` — diagnostics per file, the same document as `poly lint --format json
 * --no-workspace`. Read-only: never touches the tree.
 *
 * @module
 */
import { Report } from "../lib/report/schema.ts";
import { CHECK_INPUT, runReportTool } from "./_run.ts";
import { defineTool, READ_ONLY } from "./_tool.ts";

/** The `lint` tool. */
export const lintTool = defineTool({
  name: "lint",
  title: "Lint files",
  description:
    "Lint files with every engine poly.toml configures for their language (ruff, biome, oxlint, shellcheck, ast-grep rules, ...) and return diagnostics per file. Read-only. Check isError (or errors) first, then summary.checked (0 means nothing was checked), then results. Mirrors `poly lint --format json --no-workspace`.",
  level: "read",
  annotations: READ_ONLY,
  inputSchema: CHECK_INPUT,
  outputSchema: Report,
  handler: (args, ctx) => runReportTool("lint", false, args, ctx),
});
