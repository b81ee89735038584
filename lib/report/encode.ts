/**
 * `encodeReport()`: one report, five encodings.
 *
 * @module
 */
import { encodeGithub } from "./github.ts";
import { encodeHuman } from "./human.ts";
import { encodeJson, encodeToon } from "./json.ts";
import { encodeSarif } from "./sarif.ts";
import type { Report } from "./schema.ts";

export { type ReportWriter, reportWriter } from "./stream.ts";

/** The report formats, in the order `--format` lists them. */
export const REPORT_FORMATS = ["human", "json", "toon", "sarif", "github"] as const;

/** One report format. */
export type ReportFormat = typeof REPORT_FORMATS[number];

/** Options of {@link encodeReport}. */
export interface EncodeOptions {
  /** ANSI colour (human only): what `--color` decided. */
  color: boolean;
  /** The directory report paths are relative to: excerpts are read from it, SARIF's `%SRCROOT%` is it. */
  cwd: string;
  /** Human only: counts per rule instead of each finding (`--statistics`). */
  statistics?: boolean;
  /** Human only: print at most this many findings (`--max-diagnostics`). */
  maxDiagnostics?: number;
}

/**
 * Encodes a report for stdout. Every encoding is deterministic for a given
 * report (sorted by path) and ends with a newline.
 *
 * - `json`: the report contract, keys in schema order (`schema/report.schema.json`).
 * - `toon`: the same document in TOON.
 * - `human`: grouped per file with source excerpts and a closing summary.
 * - `sarif`: SARIF 2.1.0 for code-scanning tools.
 * - `github`: GitHub Actions workflow commands (annotations).
 *
 * @example
 * ```ts
 * const text = encodeReport(report, "human", { color: false, cwd: Deno.cwd() });
 * ```
 */
export function encodeReport(report: Report, format: ReportFormat, options: EncodeOptions): string {
  switch (format) {
    case "json":
      return encodeJson(report);
    case "toon":
      return encodeToon(report);
    case "human":
      return encodeHuman(report, options);
    case "sarif":
      return encodeSarif(report, options);
    case "github":
      return encodeGithub(report);
  }
}
