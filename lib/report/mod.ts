/**
 * Reports: the contract (zod schema), deterministic order, the five encoders
 * (json, toon, human, sarif, github) and the exit code a report stands for.
 *
 * @example
 * ```ts
 * import { encodeReport, exitCodeFor } from "./mod.ts";
 * await Deno.stdout.write(new TextEncoder().encode(encodeReport(report, "json", { color: false, cwd })));
 * return exitCodeFor(report);
 * ```
 *
 * @module
 */
export * from "./schema.ts";
export { type EncodeOptions, encodeReport, REPORT_FORMATS, type ReportFormat } from "./encode.ts";
export { exitCodeFor, type ReportExitCode } from "./exit.ts";
export { compareDiagnostics, compareText, sortReport } from "./sort.ts";
export { count, describeCounts, diagnosticCounts, summaryLine, workspaceOutcome } from "./summary.ts";
export { canonicalReport, encodeJson, encodeToon } from "./json.ts";
export { encodeHuman, FIXABLE, type HumanOptions, isFixable } from "./human.ts";
export { encodeSarif, ruleId, SARIF_SCHEMA, type SarifOptions } from "./sarif.ts";
export { encodeGithub, escapeData, escapeProperty, skipSummary, workflowCommand } from "./github.ts";
export { reportJsonSchema, reportJsonSchemaText } from "./json_schema.ts";
