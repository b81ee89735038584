/**
 * JSON with comments and trailing commas (biome.json(c), `.oxlintrc.json`, `deno.json(c)`, markdownlint's and
 * prettier's JSON files), parsed by Microsoft's `jsonc-parser` (the one VS Code reads its settings with): a string
 * holding `//` or `, }` is the string as written. JSON5 (`.prettierrc.json5`: unquoted keys, single quotes) by the
 * `json5` package prettier itself reads it with.
 *
 * @module
 */
import { indexToPosition, lineStarts } from "../../engines/text.ts";
import { findNodeAtLocation, parse, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import JSON5 from "json5";

/** Where and why JSONC text does not parse: the first error, at its 1-based line and column. */
export class JsoncError extends SyntaxError {
  constructor(readonly line: number, readonly column: number, readonly reason: string) {
    super(`${reason} at line ${line}, column ${column}`);
    this.name = "JsoncError";
  }
}

/** Readable names for jsonc-parser's error codes. */
const REASONS: Record<string, string> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "malformed number",
  PropertyNameExpected: "expected a property name",
  ValueExpected: "expected a value",
  ColonExpected: "expected a colon",
  CommaExpected: "expected a comma",
  CloseBraceExpected: "expected a closing brace",
  CloseBracketExpected: "expected a closing bracket",
  EndOfFileExpected: "unexpected text after the end of the value",
  InvalidCommentToken: "malformed comment",
  UnexpectedEndOfComment: "unclosed comment",
  UnexpectedEndOfString: "unclosed string",
  UnexpectedEndOfNumber: "malformed number",
  InvalidUnicode: "malformed \\u escape",
  InvalidEscapeCharacter: "malformed escape",
  InvalidCharacter: "control character in a string",
};

/** Parses JSONC text (comments and trailing commas allowed); throws a {@link JsoncError} at the first error. */
export function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  const first = errors[0];
  if (first) {
    const { line, column } = positionAt(text, first.offset);
    const code = printParseErrorCode(first.error);
    throw new JsoncError(line, column, REASONS[code] ?? code);
  }
  return value;
}

/**
 * Where the key at `path` (its names from the top, an array's index as a number) is written in JSONC `text`: the
 * 1-based line and column of its opening quote, as biome points at a key it refuses. Undefined when it is not there.
 */
export function keyPosition(text: string, path: (string | number)[]): { line: number; column: number } | undefined {
  const tree = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const value = tree && path.length > 0 ? findNodeAtLocation(tree, path) : undefined;
  const key = value?.parent?.type === "property" ? value.parent.children?.[0] : undefined;
  return key ? positionAt(text, key.offset) : undefined;
}

/** The 1-based line and column of a string offset in `text`. */
function positionAt(text: string, offset: number): { line: number; column: number } {
  const { line, col } = indexToPosition(lineStarts(text), offset);
  return { line, column: col };
}

/** Parses JSON5 text as prettier does; throws a {@link JsoncError} at the error's line and column. */
export function parseJson5(text: string): unknown {
  try {
    return JSON5.parse(text);
  } catch (e) {
    const { lineNumber, columnNumber, message } = e as { lineNumber?: number; columnNumber?: number; message?: string };
    if (lineNumber === undefined || columnNumber === undefined) throw e;
    const reason = String(message ?? "").replace(/^JSON5: /, "").replace(/ at \d+:\d+$/, "");
    throw new JsoncError(lineNumber, columnNumber, reason);
  }
}
