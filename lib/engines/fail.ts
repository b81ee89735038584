/**
 * Turning an upstream formatter's error message into an {@link EngineError} with
 * the line and column it names, so a syntax error becomes a diagnostic that
 * points at the problem. Messages do not repeat the engine id: the pipeline
 * prefixes it (`gofmt: syntax error at 4:17: ...`).
 *
 * @module
 */
import { messageOf } from "./module.ts";
import { EngineError, SourceSyntaxError, syntaxDiagnostic } from "./types.ts";

/**
 * Builds the error of `error`: a {@link SourceSyntaxError} (code `syntax`, engine
 * `what`) when `pattern` finds a line and column in its message (groups 1 and 2),
 * else a plain EngineError.
 *
 * @example
 * ```ts
 * positioned("gofmt", new Error("2:11: expected ')'"), /^(\d+):(\d+):/);
 * // SourceSyntaxError "syntax error at 2:11: expected ')'" {line: 2, column: 11}
 * ```
 */
export function positioned(what: string, error: unknown, pattern: RegExp): EngineError {
  if (error instanceof EngineError) return error;
  const message = messageOf(error).trim();
  const m = pattern.exec(message);
  if (!m) return new EngineError(message);
  const line = Number(m[1]);
  const column = Number(m[2]);
  const lines = message.split("\n");
  const at = lines.find((l) => pattern.test(l)) ?? lines[0];
  const detail = at.replace(pattern, "").replace(/^[\s:,-]+/, "").replace(/\s+,/g, ",").trim() || lines[0];
  return new SourceSyntaxError([syntaxDiagnostic(what, "syntax", detail, { line, column })]);
}

/** 1-based line and column of a UTF-8 byte offset into `text`. */
export function byteOffsetPosition(text: string, offset: number): { line: number; column: number } {
  const bytes = new TextEncoder().encode(text);
  const before = new TextDecoder().decode(bytes.subarray(0, Math.min(offset, bytes.length)));
  const line = before.split("\n").length;
  return { line, column: before.length - (before.lastIndexOf("\n") + 1) + 1 };
}
