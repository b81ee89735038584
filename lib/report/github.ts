/**
 * GitHub Actions workflow commands: one annotation per diagnostic
 * (`::error`, `::warning`, `::notice`), errored files as errors, all skips in
 * one notice, formatting drift as errors, then the summary line as plain log text.
 *
 * Paths are relative to the run's cwd: run poly from the repository root in CI
 * so annotations land on the right files.
 *
 * @module
 */
import type { Diagnostic, FileResult, Report, RunSkip, Severity } from "./schema.ts";
import { sortReport } from "./sort.ts";
import { type ResultTally, summaryLine, tallyResults } from "./summary.ts";

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

/** Reasons named in the skip summary; the rest are counted together. */
const SKIP_REASONS_SHOWN = 5;

/**
 * One `::notice` for every skipped file (GitHub shows only so many annotations per
 * step, and a repository can have hundreds of skips): the count, then each reason
 * with its count and one example path, commonest first.
 */
export function skipSummary(skipped: readonly RunSkip[]): string {
  const byReason = new Map<string, string[]>();
  for (const s of skipped) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), s.path]);
  const groups = [...byReason].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  const lines = groups.slice(0, SKIP_REASONS_SHOWN).map(([reason, paths]) =>
    paths.length === 1 ? `${reason}: ${paths[0]}` : `${reason}: ${paths.length} files, e.g. ${paths[0]}`
  );
  const rest = groups.slice(SKIP_REASONS_SHOWN);
  if (rest.length > 0) {
    const files = rest.reduce((n, [, paths]) => n + paths.length, 0);
    lines.push(`${rest.length} other reasons: ${files} ${files === 1 ? "file" : "files"}`);
  }
  const n = skipped.length;
  return workflowCommand(
    "notice",
    { title: "poly" },
    `poly skipped ${n} ${n === 1 ? "file" : "files"} (the human report names each):\n${lines.join("\n")}`,
  );
}

/** Renders a report as GitHub workflow commands. Ends with a newline. */
export function encodeGithub(report: Report): string {
  const sorted = sortReport(report);
  const lines: string[] = [];
  for (const r of sorted.results) lines.push(...githubResultLines(r, sorted.mode));
  lines.push(...githubTail(sorted, tallyResults(sorted.results)));
  return lines.join("\n") + "\n";
}

/** The workflow commands of one file's result (its diagnostics sorted): its annotations, its formatting drift. */
export function githubResultLines(r: FileResult, mode: Report["mode"]): string[] {
  const lines: string[] = [];
  for (const d of r.diagnostics ?? []) lines.push(annotation(r.path, d));
  if (r.changed && mode === "check") {
    lines.push(
      workflowCommand(
        "error",
        { file: r.path, title: "poly fmt" },
        "The file is not formatted: run `poly fmt --fix` to rewrite it.",
      ),
    );
  }
  return lines;
}

/** What follows the results (of a sorted report): run errors, skips, whole-project jobs, the summary line. */
export function githubTail(sorted: Report, tally: ResultTally): string[] {
  const lines: string[] = [];
  for (const e of sorted.errors) {
    lines.push(
      workflowCommand(
        "error",
        { file: e.path || undefined, title: "poly" },
        `poly could not process this file: ${e.message}`,
      ),
    );
  }
  if (sorted.skipped.length > 0) lines.push(skipSummary(sorted.skipped));
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
  lines.push(summaryLine(sorted, tally));
  return lines;
}
