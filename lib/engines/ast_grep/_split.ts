/**
 * Moving cheap text checks out of ast-grep: @ast-grep/napi compiles a rule on
 * every call, and compiling a regular expression there costs more than the
 * tree search itself. Regex constraints on a metavariable (`constraints: {M:
 * {regex: R}}` or `{not: {regex: R}}`) and a regex beside other matchers at the
 * top of a rule are checked here instead, compiled once with re2js (a port of
 * RE2): like ast-grep's Rust `regex` crate it matches in time linear in the
 * text, so a rule such as `(a+)+b` cannot hang a run the way JavaScript's
 * backtracking RegExp would. Only regexes that mean the same in both engines are
 * moved (no `\w`, `\b`, `\d`, Unicode classes or flag groups, whose meaning
 * differs between RE2 and Rust); the rest stay with ast-grep.
 * The batch path (`batch.ts`) hands the ast-grep command line the rule whole: one
 * process compiles each regex once, and a moved regex means the same there.
 *
 * @module
 */
import { RE2JS } from "re2js";
import type { MatchNode } from "./_match.ts";
import type { LoadedRule, MatcherConfig } from "../../rules/types.ts";

/** A rule split into what ast-grep runs and what is checked on each of its matches. */
export interface SplitRule {
  /** The matcher handed to ast-grep. */
  native: MatcherConfig;
  /** Checks a match must pass (empty: none). */
  checks: ((node: MatchNode) => boolean)[];
}

const cache = new WeakMap<LoadedRule, SplitRule>();

/** The split form of `rule` (computed once per rule). */
export function splitRule(rule: LoadedRule): SplitRule {
  let split = cache.get(rule);
  if (!split) {
    split = split_(rule.matcher);
    cache.set(rule, split);
  }
  return split;
}

const POSITIVE = [
  "pattern",
  "kind",
  "range",
  "nthChild",
  "inside",
  "has",
  "precedes",
  "follows",
  "all",
  "any",
  "matches",
];

function split_(matcher: MatcherConfig): SplitRule {
  const checks: SplitRule["checks"] = [];
  const rule = { ...matcher.rule };
  if (typeof rule.regex === "string" && POSITIVE.some((k) => k in rule)) {
    const re = linearRegex(rule.regex);
    if (re) {
      delete rule.regex;
      checks.push((node) => re.test(node.text()));
    }
  }
  const constraints: Record<string, Record<string, unknown>> = {};
  for (const [name, c] of Object.entries(matcher.constraints ?? {})) {
    const keys = Object.keys(c);
    const negated = keys.length === 1 && keys[0] === "not" && isRegexOnly(c.not);
    const re = keys.length === 1 && keys[0] === "regex" && typeof c.regex === "string"
      ? linearRegex(c.regex)
      : negated
      ? linearRegex((c.not as { regex: string }).regex)
      : undefined;
    if (!re) {
      constraints[name] = c;
      continue;
    }
    checks.push((node) => {
      const captured = node.getMatch(name);
      if (!captured) return true;
      return re.test(captured.text()) !== negated;
    });
  }
  const native: MatcherConfig = { rule };
  if (Object.keys(constraints).length) native.constraints = constraints;
  if (matcher.utils) native.utils = matcher.utils;
  return { native, checks };
}

function isRegexOnly(value: unknown): value is { regex: string } {
  return value !== null && typeof value === "object" && Object.keys(value).length === 1 &&
    typeof (value as { regex?: unknown }).regex === "string";
}

/** A compiled regular expression: whether it matches somewhere in a text. */
export interface TextRegex {
  test(text: string): boolean;
}

/**
 * Rust's `\s`: Unicode White_Space (RE2's own `\s` is ASCII only), as members of
 * a character class.
 */
const WHITE_SPACE =
  "\\t\\n\\x0B\\f\\r \\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}";

/**
 * The linear-time regular expression (re2js) that means the same as Rust regex
 * `source`, or undefined when unsure (it then stays with ast-grep).
 */
export function linearRegex(source: string): TextRegex | undefined {
  let flags = 0;
  let body = source;
  if (body.startsWith("(?i)")) {
    flags |= RE2JS.CASE_INSENSITIVE;
    body = body.slice(4);
  }
  if (/\\[wWbBdDpPAzZ]|\(\?|\\[0-7]/.test(body)) return undefined;
  const re2 = re2Source(body);
  if (re2 === undefined) return undefined;
  try {
    return RE2JS.compile(re2, flags);
  } catch {
    return undefined;
  }
}

/**
 * `body` in RE2's syntax where both read it alike: `\s`/`\S` spelled out as
 * Unicode White_Space; undefined for what RE2 reads otherwise (nested classes,
 * POSIX classes, the class set operations `&&`, `--`, `~~`, `\S` in a class).
 */
function re2Source(body: string): string | undefined {
  let out = "";
  let inClass = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\") {
      const next = body[++i] ?? "";
      if (next === "s") out += inClass ? WHITE_SPACE : `[${WHITE_SPACE}]`;
      else if (next === "S" && !inClass) out += `[^${WHITE_SPACE}]`;
      else if (next === "S") return undefined;
      else out += c + next;
      continue;
    }
    if (inClass) {
      if (c === "[" || ((c === "&" || c === "-" || c === "~") && body[i + 1] === c)) return undefined;
      if (c === "]") inClass = false;
      out += c;
      continue;
    }
    out += c;
    if (c !== "[") continue;
    inClass = true;
    // A `]` first in a class (after any `^`) is a member, in both.
    if (body[i + 1] === "^") out += body[++i];
    if (body[i + 1] === "]") out += body[++i];
  }
  return out;
}
