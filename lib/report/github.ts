/**
 * GitHub Actions workflow commands: one annotation per diagnostic
 * (`::error`, `::warning`, `::notice`), errored files as errors, skips as
 * notices, formatting drift as errors, then the summary line as plain log text.
 *
 * Paths are relative to the run's cwd: run poly from the repository root in CI
 * so annotations land on the right files.
 *
 * @module
 */
import type { Diagnostic, Report, Severity } from "./schema.ts";
import { sortReport } from "./sort.ts";
import { summaryLine } from "./summary.ts";

const COMMAND: Record<Severity, "error" | "warning" | "notice"> = {
  error: "error",
  warning: "warning",
  info: "notice",
  hint: "notice",
};

/**
 * Escapes a command's message: `%`, CR and LF (GitHub's rules); other control
 * characters (terminal escapes) become U+FFFD so they cannot reach the log.
 */
export function escapeData(text: string): string {
  // deno-lint-ignore no-control-regex
  const safe = text.replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g, "\uFFFD");
  return safe.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** Escapes a property value: as {@link escapeData}, plus `:` and `,`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/** One workflow command line. Properties with undefined values are left out. */
export function workflowCommand(
  command: string,
  properties: Record<string, string | number | undefined>,
  message: string,
): string {
  const props = Object.entries(properties)
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(",");
  return `::${command}${props ? ` ${props}` : ""}::${escapeData(message)}`;
}

function annotation(path: string | undefined, d: Diagnostic): string {
  const s = d.span;
  return workflowCommand(COMMAND[d.severity], {
    file: path,
    line: s?.start_line,
    col: s?.start_col,
    endLine: s?.end_line,
    endColumn: s?.end_col,
    title: d.code ? `${d.engine} ${d.code}` : d.engine,
  }, d.description ? `${d.title}\n\n${d.description}` : d.title);
}

/** Renders a report as GitHub workflow commands. Ends with a newline. */
export function encodeGithub(report: Report): string {
  const sorted = sortReport(report);
  const lines: string[] = [];
  for (const r of sorted.results) {
    for (const d of r.diagnostics ?? []) lines.push(annotation(r.path, d));
    if (r.changed && sorted.mode === "check") {
      lines.push(
        workflowCommand(
          "error",
          { file: r.path, title: "poly fmt" },
          "The file is not formatted: run `poly fmt --fix` to rewrite it.",
        ),
      );
    }
  }
  for (const e of sorted.errors) {
    lines.push(
      workflowCommand(
        "error",
        { file: e.path || undefined, title: "poly" },
        `poly could not process this file: ${e.message}`,
      ),
    );
  }
  for (const s of sorted.skipped) {
    lines.push(workflowCommand("notice", { file: s.path, title: "poly" }, `poly skipped this file: ${s.reason}`));
  }
  for (const job of sorted.workspace?.jobs ?? []) {
    for (const d of job.diagnostics ?? []) lines.push(annotation(d.path, d));
    if (job.status !== "passed") {
      const command = job.status === "skipped" ? "notice" : "error";
      lines.push(
        workflowCommand(
          command,
          { title: `poly workspace: ${job.name}` },
          `${job.name} ${job.status}${job.reason ? `: ${job.reason}` : ""}`,
        ),
      );
    }
  }
  lines.push(summaryLine(sorted));
  return lines.join("\n") + "\n";
}
