/**
 * The unified diff of a formatting change, as `format_check` / `format_write`
 * return it per file (`diff` of the file's record) and `poly fmt --diff` and the
 * human output of `poly fmt` print it: `--- a/PATH` / `+++ b/PATH` headers,
 * three lines of context, like `ruff format --diff` and `git diff`.
 *
 * Bounded in cost and size: a minimal diff is computed only while its edit
 * length stays within the line limit (past it, the diff would be cut anyway, and
 * Myers' algorithm on a large, much-changed file — a reformatted lock file — takes
 * tens of seconds); beyond that the diff is one hunk over the differing middle
 * (the common first and last lines kept out), which is as correct a patch, just
 * not the shortest. A diff longer than {@link MAX_DIFF_LINES} lines or
 * {@link MAX_DIFF_BYTES} bytes is cut at a line boundary and ends with a
 * `\ poly: ...` note line saying how much was left out (a patch tool treats a
 * line starting with `\ ` as a comment); a report keeps at most
 * {@link MAX_REPORT_DIFF_BYTES} of diffs in all ({@link boundReportDiffs}).
 *
 * @example
 * ```ts
 * formatDiff("src/x.py", "x=1\n", "x = 1\n");
 * // "--- a/src/x.py\n+++ b/src/x.py\n@@ -1,1 +1,1 @@\n-x=1\n+x = 1\n"
 * ```
 *
 * @module
 */
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff";

/** Most lines one file's diff keeps. */
export const MAX_DIFF_LINES = 400;

/** Most bytes (UTF-16 code units) one file's diff keeps. */
export const MAX_DIFF_BYTES = 32 * 1024;

/** Most bytes of diffs one report keeps in all (later files get a note instead of their diff). */
export const MAX_REPORT_DIFF_BYTES = 512 * 1024;

/** Options of {@link formatDiff}. */
export interface DiffLimits {
  maxLines?: number;
  maxBytes?: number;
}

/** The unified diff turning `before` into `after` for `path` (relative, `/`-separated), bounded. */
export function formatDiff(path: string, before: string, after: string, limits: DiffLimits = {}): string {
  // git's a/ and b/ prefixes for a relative path; an absolute one (a path argument outside the cwd) stays as it is.
  const [from, to] = path.startsWith("/") ? [path, path] : [`a/${path}`, `b/${path}`];
  return boundDiff(unifiedPatch(from, to, before, after, limits.maxLines ?? MAX_DIFF_LINES), limits);
}

/**
 * The whole unified diff (`--- from` / `+++ to` headers, three lines of context): the
 * minimal one while its edit length is at most `maxEditLength`, else {@link oneHunk}.
 * Never cut: an approver's preview shows every changed line.
 */
export function unifiedPatch(from: string, to: string, before: string, after: string, maxEditLength: number): string {
  const patch = editsExceed(before, after, maxEditLength)
    ? undefined
    : structuredPatch(from, to, before, after, undefined, undefined, { context: 3, maxEditLength });
  return patch ? formatPatch(patch, FILE_HEADERS_ONLY) : oneHunk(from, to, before, after);
}

/**
 * Whether every line edit script from `before` to `after` is longer than `max`, as far as a linear bound tells: a
 * script removes and adds at least the lines the two do not share (counted as multisets, each line without its line
 * ending, which can only make more lines shared). Where it says so, Myers' algorithm would give up at `max` too, after
 * ~`max` passes over both texts (1.2 s for vite's 1,755 files biome formats differently from prettier); where it does
 * not, Myers decides.
 */
export function editsExceed(before: string, after: string, max: number): boolean {
  const a = lineContents(before);
  const b = lineContents(after);
  if (Math.abs(a.length - b.length) > max) return true;
  const unmatched = new Map<string, number>();
  for (const line of a) unmatched.set(line, (unmatched.get(line) ?? 0) + 1);
  let shared = 0;
  for (const line of b) {
    const left = unmatched.get(line);
    if (left) {
      shared++;
      unmatched.set(line, left - 1);
    }
  }
  return a.length + b.length - 2 * shared > max;
}

/** The lines of `text` as jsdiff splits them (at `\n` and `\r\n`, no empty line after the last ending), without their endings. */
function lineContents(text: string): string[] {
  const lines = text.split(/\n|\r\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** Lines of `text` with their endings kept; the last one lacks `\n` when the text does not end in one. */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * The diff as one hunk: the common first and last lines are left out (three of
 * each kept as context), everything between is removed and added.
 */
export function oneHunk(from: string, to: string, before: string, after: string): string {
  const a = linesOf(before);
  const b = linesOf(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const start = Math.max(0, head - 3);
  const endA = Math.min(a.length, a.length - tail + 3);
  const endB = Math.min(b.length, b.length - tail + 3);
  const out = [`--- ${from}\n`, `+++ ${to}\n`];
  const range = (first: number, count: number) => count === 0 ? `${first},0` : `${first + 1},${count}`;
  out.push(`@@ -${range(start, endA - start)} +${range(start, endB - start)} @@\n`);
  const line = (mark: string, text: string) =>
    mark + (text.endsWith("\n") ? text : text + "\n\\ No newline at end of file\n");
  for (let i = start; i < head; i++) out.push(line(" ", a[i]));
  for (let i = head; i < a.length - tail; i++) out.push(line("-", a[i]));
  for (let i = head; i < b.length - tail; i++) out.push(line("+", b[i]));
  for (let i = a.length - tail; i < endA; i++) out.push(line(" ", a[i]));
  return out.join("");
}

/** `text` (a diff ending in a newline) cut to the limits, with a note line when cut. */
export function boundDiff(text: string, limits: DiffLimits = {}): string {
  const maxLines = limits.maxLines ?? MAX_DIFF_LINES;
  const maxBytes = limits.maxBytes ?? MAX_DIFF_BYTES;
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  let kept = 0;
  let size = 0;
  while (kept < lines.length && kept < maxLines && size + lines[kept].length + 1 <= maxBytes) {
    size += lines[kept].length + 1;
    kept++;
  }
  if (kept === lines.length) return text.endsWith("\n") ? text : text + "\n";
  const left = lines.length - kept;
  return [
    ...lines.slice(0, kept),
    `\\ poly: diff cut here, ${left} more line${
      left === 1 ? "" : "s"
    } left out (limit ${maxLines} lines, ${maxBytes} bytes)`,
  ].join("\n") + "\n";
}

/** How the note in place of a diff {@link boundReportDiffs} leaves out begins. */
const LEFT_OUT = "\\ poly: diff left out";

/**
 * Keeps a report's diffs within {@link MAX_REPORT_DIFF_BYTES} in all: in the
 * records' order, a record whose diff would pass the budget is replaced (in the
 * array; the record itself, which a memo may hold, is left alone) by a copy
 * whose diff is a note line naming the command that prints it (`poly fmt --diff PATH`).
 * A report written part by part passes the same `spent` with each part, in order.
 */
export function boundReportDiffs<R extends { path: string; diff?: string }>(
  results: R[],
  budget = MAX_REPORT_DIFF_BYTES,
  spent: { used: number } = { used: 0 },
): void {
  for (const [i, r] of results.entries()) {
    if (r.diff === undefined) continue;
    if (spent.used + r.diff.length <= budget) {
      spent.used += r.diff.length;
      continue;
    }
    results[i] = {
      ...r,
      diff: `${LEFT_OUT}, this report's diffs reached ${budget} bytes: run poly fmt --diff ${r.path}\n`,
    };
  }
}

/**
 * Whether {@link boundReportDiffs} leaves every diff of `results` as it is: none of them is its note already, and all
 * fit in the budget together. A result may be the UTF-8 JSON a report writer wrote for it (lib/report/stream.ts),
 * parsed only when its text holds a diff.
 */
export function diffsFit(
  results: Iterable<{ diff?: string } | Uint8Array>,
  decoder: TextDecoder,
  budget = MAX_REPORT_DIFF_BYTES,
): boolean {
  let used = 0;
  for (const result of results) {
    let diff: string | undefined;
    if (result instanceof Uint8Array) {
      const text = decoder.decode(result);
      if (text.includes('"diff"')) diff = (JSON.parse(text) as { diff?: string }).diff;
    } else diff = result.diff;
    if (diff === undefined) continue;
    used += diff.length;
    if (used > budget || diff.startsWith(LEFT_OUT)) return false;
  }
  return true;
}
