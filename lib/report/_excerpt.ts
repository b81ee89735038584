/**
 * Source excerpts for the human encoder: the line a diagnostic points at, with
 * carets under its span. Files are read from disk relative to the run's cwd; a
 * file that cannot be read (or a line that no longer exists) just has no excerpt.
 *
 * @module
 */
import { isAbsolute, join } from "../paths/path.ts";
import { asFileRead } from "../fs/read_log.ts";
import type { Paint, Style } from "./_ansi.ts";
import type { Span } from "./schema.ts";

/** Lines longer than this are shown as a window around the span. */
const MAX_WIDTH = 160;

/**
 * Replaces control characters (C0 but tab and line feed, DEL, C1: terminal
 * escapes included) with U+FFFD, so text from source files and engines cannot
 * drive the terminal or a log viewer.
 */
export function sanitize(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, "\uFFFD");
}

/** Reads each file at most once. */
export class SourceCache {
  readonly #cwd: string;
  readonly #files = new Map<string, string[] | undefined>();
  constructor(cwd: string) {
    this.#cwd = cwd;
  }

  /** Line `n` (1-based) of `path`, without its line ending, or undefined. */
  line(path: string, n: number): string | undefined {
    if (!this.#files.has(path)) {
      let lines: string[] | undefined;
      try {
        // What the file says goes into its own result's lines alone (lib/fs/read_log.ts).
        const file = isAbsolute(path) ? path : join(this.#cwd, path);
        lines = asFileRead(() => Deno.readTextFileSync(file)).split("\n");
      } catch {
        lines = undefined;
      }
      this.#files.set(path, lines);
    }
    const line = this.#files.get(path)?.[n - 1];
    return line?.replace(/\r$/, "");
  }

  /** Lets go of the lines of `path` (read again if asked for again). */
  forget(path: string): void {
    this.#files.delete(path);
  }
}

/**
 * Two lines: `  12 | source text` and `     |    ^^^` under the span (columns are
 * UTF-16 code units, which is what JavaScript strings index). A span running past
 * the line is underlined to its end.
 */
export function excerpt(source: string, span: Span, paint: Paint, caret: Style): string[] {
  let start = Math.min(Math.max(span.start_col - 1, 0), source.length);
  let end = span.end_line === span.start_line ? Math.min(span.end_col - 1, source.length) : source.length;
  let text = source;
  if (text.length > MAX_WIDTH) {
    const from = Math.max(0, start - 40);
    const to = Math.min(text.length, from + MAX_WIDTH);
    const lead = from > 0 ? "…" : "";
    text = lead + text.slice(from, to) + (to < text.length ? "…" : "");
    start = start - from + lead.length;
    end = Math.min(end, to) - from + lead.length;
  }
  end = Math.max(end, start + 1);
  const shown = sanitize(text);
  const number = String(span.start_line);
  const gutter = " ".repeat(number.length);
  const pad = shown.slice(0, start).replace(/[^\t]/g, " ");
  return [
    `  ${paint.blue(number)} ${paint.blue("|")} ${shown}`,
    `  ${gutter} ${paint.blue("|")} ${pad}${caret("^".repeat(end - start))}`,
  ];
}
