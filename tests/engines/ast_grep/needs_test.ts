/**
 * The literal pre-filter (lib/engines/ast_grep/_needs.ts): what a rule needs in a text is
 * never wrong — every snippet a built-in rule matches (its test file's
 * `invalid` cases, and a whole fixture repository) passes the filter — and it
 * is strong enough to rule out the files the built-in TypeScript rules cannot
 * match.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { loadRuleSet } from "../../../lib/rules/load.ts";
import {
  hasNeed,
  matcherNeed,
  mayMatch,
  needTest,
  patternNeed,
  regexNeed,
} from "../../../lib/engines/ast_grep/_needs.ts";
import { scanSnippet, scanText } from "../../../lib/engines/ast_grep/scan.ts";
import { rulesForFile } from "../../../lib/engines/ast_grep/select.ts";
import { ensureLanguages } from "../../../lib/engines/ast_grep/napi.ts";
import { shellView } from "../../../lib/engines/ast_grep/_dockerfile.ts";
import type { LoadedRule } from "../../../lib/rules/types.ts";
import { FIXTURE_REPO, repoFiles, tempTree } from "../../rules/_helpers.ts";
import { testRules } from "../../../lib/rules/test.ts";

const builtin = () => loadRuleSet("/nonexistent-config-dir", { dirs: [] });

/** A need as plain strings: `w:` a whole word (`w:.` right after a `.`), `s:` a substring; clauses sorted. */
function show(need: ReturnType<typeof regexNeed>): string[][] {
  return need.map((clause) => clause.map((l) => `${l.word ? "w" : "s"}:${l.dot ? "." : ""}${l.text}`).sort()).sort();
}

Deno.test("every invalid snippet of every built-in rule passes that rule's need", async () => {
  const set = await builtin();
  let checked = 0;
  for (const test of set.tests) {
    const rule = set.rules.find((r) => r.id === test.id)!;
    for (const snippet of test.invalid) {
      // The snippet as the scanner sees it matches (the pack's own tests hold that) …
      ok((await scanSnippet(rule, snippet)).length > 0, `${rule.id} does not match its own invalid case`);
      // … so the filter must let it through.
      ok(mayMatch(rule, snippet), `${rule.id}: the filter rules out a snippet it matches:\n${snippet}`);
      checked++;
    }
  }
  ok(checked >= 60, `${checked} snippets`);
});

Deno.test("every finding in the rules fixture repository passes its rule's need", async () => {
  const set = await builtin();
  let findings = 0;
  await ensureLanguages();
  for (const file of await repoFiles(FIXTURE_REPO)) {
    // Every rule that applies, unfiltered (scanText runs what it is given).
    const text = file.language === "dockerfile" ? shellView(file.text) : file.text;
    if (text === undefined) continue;
    for (const [parser, rules] of rulesForFile(set, file)) {
      for (const hit of scanText(text, parser, rules)) {
        ok(mayMatch(hit.rule, text), `${hit.rule.id} matched ${file.relPath} but its filter rules the file out`);
        findings++;
      }
    }
  }
  ok(findings >= 20, `${findings} findings`);
});

Deno.test("each built-in TypeScript and Python rule but one has a need (they can rule files out)", async () => {
  const set = await builtin();
  const without = set.rules.filter((r) => (r.language === "typescript" || r.language === "python") && !hasNeed(r))
    .map((r) => r.id);
  // A mutable default argument has no word of its own.
  deepEqual(without, ["py-mutable-default-arg"]);
  const ts = set.rules.filter((r) => r.language === "typescript");
  const plain = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";
  deepEqual(ts.filter((r) => mayMatch(r, plain)).map((r) => r.id), []);
  // Words inside longer words do not count: `readonly` is not `.only(`.
  const words = "class A { readonly consoles = 1; evaluate() { return this.catcher; } }\n";
  deepEqual(ts.filter((r) => mayMatch(r, words)).map((r) => r.id), []);
  // A test file's prose: `only` that no `.` comes before is not `.only(`.
  const prose = "describe('first', () => {\n  it('returns only the first', () => {});\n});\n";
  deepEqual(ts.filter((r) => mayMatch(r, prose)).map((r) => r.id), []);
  deepEqual(ts.filter((r) => mayMatch(r, prose.replace("it(", "it.only("))).map((r) => r.id), ["ts-no-focused-tests"]);
});

Deno.test("pattern tokens: words outside metavariables", () => {
  deepEqual(show(patternNeed("console.$METHOD($$$ARGS)")), [["w:console"]]);
  deepEqual(show(patternNeed("$A == None")), [["w:None"]]);
  deepEqual(show(patternNeed("$$$ARGS")), []);
  deepEqual(show(patternNeed("new Function($$$A)")), [["w:Function"], ["w:new"]]);
  deepEqual(show(patternNeed('require("child_process")')), [["w:child_process"], ["w:require"]]);
  // Nothing from what may be a comment in some language.
  deepEqual(show(patternNeed("foo($A) // bar\nbaz()")), [["w:baz"], ["w:foo"]]);
  deepEqual(show(patternNeed("foo(/* bar */ $A)")), [["w:foo"]]);
  deepEqual(show(patternNeed("x = 1 # note\ny")), [["w:x"], ["w:y"]]);
  deepEqual(show(patternNeed("#[test]\nfn $F() {}")), [["w:fn"]]);
  // A token right after a `.` follows one in every match.
  deepEqual(show(patternNeed("$F.only($$$ARGS)")), [["w:.only"]]);
  deepEqual(show(patternNeed("os.system($CMD)")), [["w:.system"], ["w:os"]]);
  deepEqual(show(patternNeed("foo(...args)")), [["w:.args"], ["w:foo"]]);
  deepEqual(show(patternNeed("a. b")), [["w:a"], ["w:b"]]);
  deepEqual(show(patternNeed("a./* c */b")), [["w:a"], ["w:b"]]);
});

Deno.test("regular expressions: the literal runs every match contains, or nothing", () => {
  deepEqual(show(regexNeed("^(log|debug|trace|dir)$")), [["s:debug", "s:dir", "s:log", "s:trace"]]);
  deepEqual(show(regexNeed("^((window|globalThis)\\.)?(setTimeout|setInterval)$")), [[
    "s:setInterval",
    "s:setTimeout",
  ]]);
  deepEqual(show(regexNeed("^verify\\s*=\\s*False$")), [["s:="], ["s:False"], ["s:verify"]]);
  deepEqual(show(regexNeed("(^|/)chmod$")), [["s:chmod"]]);
  deepEqual(show(regexNeed("ab?c")), [["s:a"], ["s:c"]]);
  deepEqual(show(regexNeed("a(bc)+d")), [["s:a"], ["s:bc"], ["s:d"]]);
  deepEqual(show(regexNeed("x{0,3}yz")), [["s:yz"]]);
  deepEqual(show(regexNeed("[abc]def")), [["s:def"]]);
  // Alternatives with nothing in common, or anything outside the safe subset: no need.
  deepEqual(show(regexNeed("a|.*")), []);
  deepEqual(show(regexNeed("(?i)select")), []);
  deepEqual(show(regexNeed("(?P<x>ab)")), []);
  deepEqual(show(regexNeed("\\p{L}abc")), []);
  deepEqual(show(regexNeed("[[:alpha:]]abc")), []);
  deepEqual(show(regexNeed("(ab")), []);
  deepEqual(show(regexNeed("ab)")), []);
  deepEqual(show(regexNeed("a b")), []);
});

Deno.test("any: one of the members' needs; constraints only on metavariables every match captures", () => {
  const rule = (matcher: LoadedRule["matcher"], language: LoadedRule["language"] = "typescript") => ({
    matcher,
    language,
  });
  deepEqual(
    show(matcherNeed(rule({ rule: { any: [{ pattern: "eval($$$A)" }, { pattern: "globalThis.eval($$$A)" }] } }))),
    [["w:eval"]],
  );
  deepEqual(show(matcherNeed(rule({ rule: { any: [{ pattern: "eval($$$A)" }, { kind: "identifier" }] } }))), []);
  // $P is in both alternatives: its constraint counts.
  deepEqual(
    show(matcherNeed(rule({
      rule: { any: [{ pattern: "$E.$P = $V" }, { pattern: "$E.$P += $V" }] },
      constraints: { P: { regex: "^(innerHTML|outerHTML)$" } },
    }))),
    [["s:innerHTML", "s:outerHTML"]],
  );
  // $P only in one alternative: it does not.
  deepEqual(
    show(matcherNeed(rule({
      rule: { any: [{ pattern: "$E.$P = $V" }, { pattern: "$E = $V" }] },
      constraints: { P: { regex: "^(innerHTML|outerHTML)$" } },
    }))),
    [],
  );
  // A multi-capture `$$$P` is not a single capture.
  deepEqual(
    show(matcherNeed(rule({ rule: { pattern: "f($$$P)" }, constraints: { P: { regex: "^abc$" } } }))),
    [["w:f"]],
  );
  // not, matches, a selector or a loose strictness: nothing.
  deepEqual(show(matcherNeed(rule({ rule: { kind: "identifier", not: { pattern: "foo" } } }))), []);
  deepEqual(show(matcherNeed(rule({ rule: { matches: "util" } }))), []);
  deepEqual(
    show(matcherNeed(rule({ rule: { pattern: { context: "class A { $F = 1 }", selector: "field_definition" } } }))),
    [],
  );
  deepEqual(show(matcherNeed(rule({ rule: { pattern: { context: "foo($A)", strictness: "signature" } } }))), []);
  deepEqual(show(matcherNeed(rule({ rule: { pattern: { context: "foo($A)", strictness: "smart" } } }))), [["w:foo"]]);
  // Keywords of node kinds, per language.
  deepEqual(show(matcherNeed(rule({ rule: { kind: "debugger_statement" } }))), [["w:debugger"]]);
  deepEqual(show(matcherNeed(rule({ rule: { kind: "except_clause" } }, "python"))), [["w:except"]]);
  deepEqual(show(matcherNeed(rule({ rule: { kind: "except_clause" } }, "go"))), []);
});

Deno.test("a need as a test: words whole, substrings anywhere", () => {
  const test = needTest([[{ text: "only", word: true }], [{ text: "it", word: false }, { text: "zz", word: false }]]);
  equal(test("it.only(x)"), true);
  equal(test("readonly it"), false);
  equal(test("x.only(); zz"), true);
  equal(test("x.only()"), false);
  equal(needTest([])("anything"), true);
  // A digit may touch a keyword (Python reads `1if` as `1 if`); a letter or `_` may not.
  const keyword = needTest([[{ text: "if", word: true }]]);
  equal(keyword("x = 1if y else 2"), true);
  equal(keyword("x = a_if"), false);
  equal(keyword("x = if_a"), false);
  equal(keyword("x = if2"), false);
});

Deno.test("a need as a test: a word after a `.`, past what ast-grep passes over", () => {
  const test = needTest([[{ text: "only", word: true, dot: true }]]);
  // ast-grep 0.51.1 matches `$F.only($$$A)` in each of these (comments between two leaves are skipped) …
  for (const text of ["it.only(1)", "it . only(1)", "it./* c */only(1)", "it.\n// c\nonly(1)", "x?.only(1)"]) {
    equal(test(text), true, text);
  }
  // … and a continued line, or a comment of a language that writes them with `#`.
  equal(test("x.\\\n  only"), true);
  equal(test("x.  # c\n  only"), true);
  // The word alone, inside a comment after the `.`, or inside a longer word does not do.
  for (const text of ["it only works", "x./* only */ y", "x.// only\ny", "x.onlyx", "x.readonly", "x.y only"]) {
    equal(test(text), false, text);
  }
  // An unterminated comment costs one pass, not a backtracking search.
  const long = `${"x./* ".repeat(200)}${" #".repeat(20_000)}`;
  equal(test(long), false);
});

Deno.test("a declared need (a built-in rule's metadata.poly-needs): after the words; poly rules test holds the invalid cases to it", async () => {
  const dir = await tempTree({
    ".poly/rules/f.yml": "id: user-f\nlanguage: TypeScript\nrule:\n  pattern: f($A)\n",
    ".poly/rules/f-test.yml": "id: user-f\nvalid:\n  - 'g(1)'\ninvalid:\n  - 'f(1)'\n  - 'f(x)'\n",
  });
  const set = await loadRuleSet(dir);
  // As a built-in rule's would be loaded (a user rule's metadata is not read).
  const rule = set.rules.find((r) => r.id === "user-f")!;
  rule.needs = "f\\(\\d";
  ok(hasNeed(rule));
  equal(mayMatch(rule, "f(1)"), true);
  // What the rule declares rules a text out …
  equal(mayMatch(rule, "f(x)"), false);
  // … as do the words poly works out itself (`f`).
  equal(mayMatch(rule, "g(1)"), false);
  // A declared need that rules out a case the rule matches is a failing test: a lint run would never scan it.
  const report = await testRules(set, new Set(["user-f"]));
  deepEqual(report.results.map((r) => [r.status, r.failures.map((f) => `${f.kind}[${f.index}] ${f.reason}`)]), [[
    "failed",
    ["invalid[1] matched, but its text does not match the rule's metadata.poly-needs: a lint run would not scan it"],
  ]]);
});
