/**
 * Checks a rule's matcher once, at load: ast-grep compiles it (unknown keys,
 * invalid kinds, bad regexes, undefined utilities), and every pattern is parsed
 * in the rule's language — a pattern with a syntax error is refused here rather
 * than left to match nothing (ast-grep itself refuses only patterns whose root is
 * an error).
 *
 * @module
 */
import { parse } from "@ast-grep/napi";
import { expandoChar, type ParserName } from "../engines/ast_grep/languages.ts";
import { napiLang } from "../engines/ast_grep/napi.ts";
import type { MatcherConfig } from "./types.ts";
import type { YamlPath } from "./_yaml.ts";

/** A problem with a matcher, at a path of the rule document. */
export interface MatcherProblem {
  path: YamlPath;
  message: string;
}

/** Every problem with `matcher` under `parser`; empty when it compiles and its patterns parse. */
export function checkMatcher(matcher: MatcherConfig, parser: ParserName): MatcherProblem[] {
  const problems: MatcherProblem[] = [];
  try {
    parse(napiLang(parser), "").root().findAll({ ...matcher });
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const section = /^`(rule|constraints|utils)`/.exec(text)?.[1] ?? "rule";
    const at = locate((matcher as unknown as Record<string, unknown>)[section], text, [section]);
    problems.push({ path: at ?? [section], message: napiMessage(text) });
  }
  for (const [path, pattern] of patternsOf(matcher as unknown as Record<string, unknown>, [])) {
    const problem = checkPattern(pattern, parser);
    if (problem) problems.push({ path, message: problem });
  }
  return problems;
}

/** ast-grep's multi-line "`rule` is not configured correctly.\n |->..." as one line. */
export function napiMessage(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/^\s*\|->/, "").trim())
    .filter((line) => line.length > 0)
    .join(": ")
    .replace(/\.:/g, ":");
}

/**
 * The path of the leaf a napi error is about: a value it quotes in backticks
 * (an unknown kind, an undefined utility) or a `regex` whose text it repeats.
 */
function locate(node: unknown, message: string, path: (string | number)[]): (string | number)[] | undefined {
  if (typeof node === "string") {
    const quoted = message.includes("`" + node + "`");
    const regex = path.at(-1) === "regex" && message.includes("regex parse error") && message.includes(node);
    return quoted || regex ? path : undefined;
  }
  if (node === null || typeof node !== "object") return undefined;
  const entries: [string | number, unknown][] = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
  for (const [key, value] of entries) {
    const found = locate(value, message, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** Every `pattern` in a rule tree, with its path (string patterns and `{context}` objects). */
function* patternsOf(node: unknown, path: (string | number)[]): Generator<[YamlPath, string]> {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) yield* patternsOf(node[i], [...path, i]);
    return;
  }
  if (node === null || typeof node !== "object") return;
  for (const [key, value] of Object.entries(node)) {
    if (key === "pattern") {
      if (typeof value === "string") yield [[...path, key], value];
      else if (value && typeof value === "object" && typeof (value as { context?: unknown }).context === "string") {
        yield [[...path, key, "context"], (value as { context: string }).context];
      }
    } else if (key !== "regex" && key !== "kind" && key !== "range") {
      yield* patternsOf(value, [...path, key]);
    }
  }
}

/** Why `pattern` does not parse as `parser`, or undefined when it does. */
export function checkPattern(pattern: string, parser: ParserName): string | undefined {
  const expando = expandoChar(parser);
  const source = expando === "$" ? pattern : pattern.replaceAll("$", expando);
  const root = parse(napiLang(parser), source).root();
  const error = root.kind() === "ERROR" ? root : root.find({ rule: { kind: "ERROR" } });
  if (!error) return undefined;
  const at = error.range().start;
  const near = pattern.split("\n")[at.line]?.slice(at.column, at.column + 20) ?? "";
  return `pattern ${JSON.stringify(pattern)} does not parse as ${parser}: syntax error at pattern ` +
    `line ${at.line + 1}, column ${at.column + 1}${near ? ` near ${JSON.stringify(near)}` : ""}`;
}
