/**
 * Moving cheap text checks out of ast-grep: @ast-grep/napi compiles a rule on
 * every call, and compiling a regular expression there costs more than the
 * tree search itself. Regex constraints on a metavariable (`constraints: {M:
 * {regex: R}}` or `{not: {regex: R}}`) and a regex beside other matchers at the
 * top of a rule are checked here instead, with a JavaScript RegExp compiled once.
 * Only regexes that mean the same in both engines are moved (no `\w`, `\b`,
 * `\d`, Unicode classes or Rust-only syntax); the rest stay with ast-grep.
 * The batch path (`batch.ts`) hands the ast-grep command line the same split
 * rule and runs the same checks on its matches.
 *
 * @module
 */
import type { MatchNode } from "./_match.ts";
import type { LoadedRule, MatcherConfig } from "./types.ts";

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
    const re = jsRegex(rule.regex);
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
      ? jsRegex(c.regex)
      : negated
      ? jsRegex((c.not as { regex: string }).regex)
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

/** The JavaScript RegExp that means the same as Rust regex `source`, or undefined when unsure. */
export function jsRegex(source: string): RegExp | undefined {
  let flags = "u";
  let body = source;
  if (body.startsWith("(?i)")) {
    flags += "i";
    body = body.slice(4);
  }
  if (/\\[wWbBdDpPAzZ]|\(\?|\[\[:|\\[0-7]/.test(body)) return undefined;
  try {
    return new RegExp(body, flags);
  } catch {
    return undefined;
  }
}
