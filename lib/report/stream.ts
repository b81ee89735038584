/**
 * Writing a report while the run goes: each file's result is encoded and
 * written as it arrives (in report order, see `RunRequest.onResult` in
 * lib/run/types.ts), and the rest of the document (errors, skips, summary,
 * configs, identity) once the run is over. What is written is byte for byte
 * what {@link encodeReport} gives for the whole report.
 *
 * JSON and GitHub annotations stream; TOON, SARIF and the human report are
 * encoded whole at the end from the results gathered (SARIF names its rules,
 * and the human report its counts and skips, before the findings).
 *
 * @example
 * ```ts
 * const writer = reportWriter("json", { color: false, cwd }, { kind: "lint", mode: "check" }, write);
 * const report = await runLint({ paths: [], cwd, onResult: (r) => writer.result(r) });
 * await writer.finish(report);
 * ```
 *
 * @module
 */
import { type EncodeOptions, encodeReport, type ReportFormat } from "./encode.ts";
import { encodeJson } from "./json.ts";
import { canonicalResult } from "./_canonical.ts";
import { sortReport, sortResult } from "./sort.ts";
import { githubResultLines, githubTail } from "./github.ts";
import { tallyResults } from "./summary.ts";
import type { FileResult, Report } from "./schema.ts";

/** A report being written: its results one by one, then the rest. */
export interface ReportWriter {
  /** Whether results are written as they come (else gathered and written by {@link ReportWriter.finish}). */
  readonly streams: boolean;
  /** One file's result; results come in report order (by path). */
  result(result: FileResult): Promise<void>;
  /** The rest of the report (results not passed to {@link ReportWriter.result}, if any, are written too). */
  finish(report: Report): Promise<void>;
}

/** Text gathered before a write: results are small, and one write per result would cost a system call each. */
const CHUNK = 64 * 1024;

/**
 * A writer of `format` for a report of `kind` and `mode` (known before the
 * run: the document's head), writing through `write`.
 */
export function reportWriter(
  format: ReportFormat,
  options: EncodeOptions,
  head: Pick<Report, "kind" | "mode">,
  write: (text: string) => Promise<void>,
): ReportWriter {
  let buffer = "";
  const put = async (text: string, force = false) => {
    buffer += text;
    if (force || buffer.length >= CHUNK) {
      const out = buffer;
      buffer = "";
      if (out) await write(out);
    }
  };
  if (format === "json") return jsonWriter(head, put);
  if (format === "github") return githubWriter(head, put);
  const gathered: FileResult[] = [];
  return {
    streams: false,
    result(result) {
      gathered.push(result);
      return Promise.resolve();
    },
    async finish(report) {
      await write(encodeReport({ ...report, results: [...gathered, ...report.results] }, format, options));
    },
  };
}

/**
 * JSON as `JSON.stringify(canonical, null, 2)` writes it: the head, each
 * result indented two levels, then the tail cut from the encoding of the rest
 * of the report with no results.
 */
function jsonWriter(head: Pick<Report, "kind" | "mode">, put: (text: string, force?: boolean) => Promise<void>) {
  const opening = `{\n  "kind": ${JSON.stringify(head.kind)},\n  "mode": ${JSON.stringify(head.mode)},\n  "results": [`;
  let count = 0;
  const writer: ReportWriter = {
    streams: true,
    async result(result) {
      if (count === 0) await put(opening);
      const sorted = sortResult(result);
      const text = JSON.stringify(canonicalResult(sorted) ?? sorted, null, 2);
      // A JSON string holds no raw newline: each one here starts a line of the result.
      await put(`${count++ === 0 ? "" : ","}\n    ${text.replaceAll("\n", "\n    ")}`);
    },
    async finish(report) {
      for (const r of [...report.results].sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) {
        await writer.result(r);
      }
      const whole = encodeJson({ ...report, results: [] });
      const marker = '"results": []';
      const at = whole.indexOf(marker);
      if (count === 0) return await put(whole, true);
      await put(`\n  ]${whole.slice(at + marker.length)}`, true);
    },
  };
  return writer;
}

/** GitHub workflow commands: each result's annotations as it comes; run errors, skips, jobs and the summary last. */
function githubWriter(head: Pick<Report, "kind" | "mode">, put: (text: string, force?: boolean) => Promise<void>) {
  const tally = tallyResults([]);
  const writer: ReportWriter = {
    streams: true,
    async result(result) {
      const r = sortResult(result);
      tallyResults([r], tally);
      const lines = githubResultLines(r, head.mode);
      if (lines.length > 0) await put(lines.join("\n") + "\n");
    },
    async finish(report) {
      const sorted = sortReport(report);
      for (const r of sorted.results) await writer.result(r);
      await put(githubTail(sorted, tally).join("\n") + "\n", true);
    },
  };
  return writer;
}
