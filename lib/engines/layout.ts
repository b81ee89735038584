/**
 * `[defaults]` knobs that formatters without a matching option get from poly
 * itself: line endings and the final newline are applied to the formatter's
 * output, so every formatted file follows `line_ending` and `final_newline`
 * whatever the upstream tool supports.
 *
 * @module
 */
import type { EngineSettings } from "./types.ts";

/** The line ending `[defaults] line_ending` asks for; "auto" keeps the input's dominant one. */
export function eolFor(defaults: EngineSettings["defaults"], input: string): "\n" | "\r\n" {
  if (defaults.line_ending === "crlf") return "\r\n";
  if (defaults.line_ending === "lf") return "\n";
  const crlf = input.split("\r\n").length - 1;
  const lf = input.split("\n").length - 1 - crlf;
  return crlf > lf ? "\r\n" : "\n";
}

/**
 * Applies `line_ending` and `final_newline` to a formatter's output.
 *
 * @example
 * ```ts
 * finishText("a\nb\n", "a\r\nb", { line_length: 120, line_ending: "crlf", final_newline: false, trim_trailing_whitespace: true });
 * // "a\r\nb"
 * ```
 */
export function finishText(output: string, input: string, defaults: EngineSettings["defaults"]): string {
  const eol = eolFor(defaults, input);
  let text = output;
  if (eol === "\r\n") text = text.replace(/\r?\n/g, "\r\n");
  else if (text.includes("\r\n")) text = text.replace(/\r\n/g, "\n");
  if (text.length === 0) return text;
  if (defaults.final_newline) {
    if (!text.endsWith("\n")) text += eol;
  } else {
    text = text.replace(/(\r?\n)+$/, "");
  }
  return text;
}

/** Indent width from `[defaults] indent_width`, else the tool table's `indent_width`, else `fallback`. */
export function indentWidth(settings: EngineSettings, fallback?: number): number | undefined {
  const own = settings.tool.indent_width;
  if (typeof own === "number") return own;
  return settings.defaults.indent_width ?? fallback;
}
