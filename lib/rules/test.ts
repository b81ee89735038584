/**
 * Running a rule set's `<id>-test.yml` cases, as `ast-grep test` does: every
 * `valid` snippet must produce no match, every `invalid` snippet at least one.
 * Rules run as defined (overrides do not disable them here), without `files`
 * filtering.
 *
 * @module
 */
import { scanSnippet, snippetText } from "../engines/ast_grep/scan.ts";
import { mayMatchIn } from "../engines/ast_grep/select.ts";
import { NEEDS_KEY } from "./_parse.ts";
import type { LoadedRule, RuleLoadError, RuleSet } from "./types.ts";

/** One snippet that did not behave. */
export interface SnippetFailure {
  kind: "valid" | "invalid";
  /** 0-based index in the test file's list. */
  index: number;
  snippet: string;
  /** Why: "matched" (a valid snippet matched) or "no match" (an invalid one did not). */
  reason: string;
}

/** One rule's outcome. */
export interface RuleTestResult {
  id: string;
  language: string;
  /** passed: all snippets behaved; failed: some did not; untested: no test case. */
  status: "passed" | "failed" | "untested";
  valid: number;
  invalid: number;
  /** The test file (or files) for the rule. */
  test_files: string[];
  failures: SnippetFailure[];
}

/** The whole test run: a plain JSON document. */
export interface RulesTestReport {
  results: RuleTestResult[];
  /** Test cases whose id names no loaded rule, and unreadable or invalid test files. */
  errors: RuleLoadError[];
  summary: { passed: number; failed: number; untested: number; errors: number };
}

/** Runs every test case of `set` (restricted to `onlyIds` when given). */
export async function testRules(set: RuleSet, onlyIds?: ReadonlySet<string>): Promise<RulesTestReport> {
  const errors: RuleLoadError[] = [...set.testErrors];
  const byId = new Map<string, LoadedRule>(set.rules.map((r) => [r.id, r]));
  const cases = new Map<string, RuleSet["tests"]>();
  for (const test of set.tests) {
    if (!byId.has(test.id)) {
      errors.push({ file: test.file, line: test.line, column: 1, message: `test case for unknown rule "${test.id}"` });
      continue;
    }
    const list = cases.get(test.id) ?? [];
    list.push(test);
    cases.set(test.id, list);
  }
  const results: RuleTestResult[] = [];
  for (const rule of set.rules) {
    if (onlyIds && !onlyIds.has(rule.id)) continue;
    const tests = cases.get(rule.id) ?? [];
    const result: RuleTestResult = {
      id: rule.id,
      language: rule.language,
      status: tests.length ? "passed" : "untested",
      valid: 0,
      invalid: 0,
      test_files: [...new Set(tests.map((t) => t.file))],
      failures: [],
    };
    for (const test of tests) {
      for (const [index, snippet] of test.valid.entries()) {
        result.valid++;
        const hits = await scanSnippet(rule, snippet);
        if (hits.length > 0) {
          const at = hits[0].start;
          result.failures.push({ kind: "valid", index, snippet, reason: `matched at ${at.line + 1}:${at.column + 1}` });
        }
      }
      for (const [index, snippet] of test.invalid.entries()) {
        result.invalid++;
        if ((await scanSnippet(rule, snippet)).length === 0) {
          result.failures.push({ kind: "invalid", index, snippet, reason: "no match" });
        } else if (mayMatchIn([rule], snippetText(rule, snippet) ?? "").length === 0) {
          // A lint run would not scan a file holding only this snippet.
          const reason = rule.needs !== undefined
            ? `matched, but its text does not match the rule's metadata.${NEEDS_KEY}: a lint run would not scan it`
            : "matched, but poly's pre-filter rules it out: a lint run would not scan it (a bug in poly)";
          result.failures.push({ kind: "invalid", index, snippet, reason });
        }
      }
    }
    if (result.failures.length) result.status = "failed";
    results.push(result);
  }
  const count = (s: RuleTestResult["status"]) => results.filter((r) => r.status === s).length;
  return {
    results,
    errors,
    summary: { passed: count("passed"), failed: count("failed"), untested: count("untested"), errors: errors.length },
  };
}
