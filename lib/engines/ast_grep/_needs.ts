/**
 * What a file's text must contain for a rule to match in it: the literal
 * pre-filter. Parsing is most of a structural scan's cost, and most files hold
 * none of the words a rule looks for (`debugger`, `eval`, `print`…), so a file
 * whose text lacks them is not parsed for that rule at all, and one that lacks
 * them for every rule is not scanned (Semgrep filters files the same way).
 *
 * A rule's need is derived from its matcher, conservatively: only what every
 * match must contain counts, and anything not understood counts as no need (the
 * rule always runs).
 *
 * - `pattern` (a string, or an object without `selector` at the default
 *   strictness): every identifier-like token outside a metavariable, as a whole
 *   word. ast-grep compares the leaves of a pattern with the source text, so each
 *   such token appears in every match. A token right after a `.` in the pattern
 *   (`$F.only`, `os.system`) follows a `.` in every match too, with nothing
 *   between but what ast-grep passes over: spaces, comments, a line's
 *   continuation. Test files say `only` in their prose; `.only` is rare.
 * - `kind`: the keyword a node of that kind always starts with, for the few kinds
 *   listed in {@link KEYWORD_KINDS} (`debugger_statement` → `debugger`).
 * - `regex` (on the node's text, or a constraint on a metavariable's text): the
 *   literal runs every match of the expression contains, from a small safe subset
 *   of the syntax (literal characters, escaped punctuation, groups, `|`,
 *   quantifiers, classes); inline flags, back-references and the like give no need.
 * - `has`, `inside`, `precedes`, `follows`: the related node is in the same file,
 *   so its need holds too. `all`: every member's. `any`: one of the members'.
 *   `not`, `matches`, `nthChild`, `range`: nothing.
 * - `constraints`: a metavariable's constraint counts only when every match
 *   captures it (a single `$NAME` in the pattern of every alternative).
 * - `metadata.poly-needs` of a built-in rule: a regular expression every file
 *   holding a match matches, where the matcher says more than words can
 *   (`ts-empty-catch`: an empty body right after `catch`). Reviewed with the
 *   rule, held by its invalid test cases (`poly rules test`) and the tests
 *   below, and run after the words above.
 *
 * `tests/engines/ast_grep/needs_test.ts` holds every built-in rule's invalid test snippets
 * to their needs: a snippet the rule matches must never be filtered out.
 *
 * @module
 */
import type { LoadedRule } from "../../rules/types.ts";
import type { RuleLanguage } from "./languages.ts";

/**
 * A text the source must contain: as a whole word (a token of a pattern:
 * letters, digits and `_`, not after a letter or `_` nor before a letter, digit
 * or `_`) or anywhere.
 */
export interface Literal {
  text: string;
  word: boolean;
  /** A whole word right after a `.`, with only spaces, comments or a line's continuation between. */
  dot?: boolean;
}

/**
 * Clauses that must all hold (conjunctive normal form); a clause holds when the
 * text contains one of its literals. No clause: no need (the rule may match anywhere).
 */
export type Need = Literal[][];

/** Node kinds of the JavaScript grammars that always start with a keyword. */
const JS_KEYWORD_KINDS: Record<string, string> = {
  debugger_statement: "debugger",
  catch_clause: "catch",
  with_statement: "with",
  throw_statement: "throw",
  try_statement: "try",
};

/** Node kinds that always start with a keyword, by rule language (only what the built-in pack uses, and a few more). */
const KEYWORD_KINDS: Partial<Record<RuleLanguage, Record<string, string>>> = {
  typescript: JS_KEYWORD_KINDS,
  tsx: JS_KEYWORD_KINDS,
  javascript: JS_KEYWORD_KINDS,
  python: {
    assert_statement: "assert",
    except_clause: "except",
    global_statement: "global",
    nonlocal_statement: "nonlocal",
    raise_statement: "raise",
    try_statement: "try",
    lambda: "lambda",
  },
  go: { defer_statement: "defer", go_statement: "go", goto_statement: "goto", select_statement: "select" },
  rust: { unsafe_block: "unsafe" },
};

/** Strictness levels under which a pattern's tokens are compared with the source text. */
const TEXT_STRICT = new Set(["cst", "smart"]);

/** Beyond this many clauses, `any` keeps a weaker (still sound) need rather than the full product. */
const MAX_CLAUSES = 64;

const NONE: Need = [];

/** Both needs. */
function and(a: Need, b: Need): Need {
  return simplify([...a, ...b]);
}

/** Either need: one that holds whenever either does (the clause product, or past {@link MAX_CLAUSES}, a weaker one). */
function or(a: Need, b: Need): Need {
  if (a.length === 0 || b.length === 0) return NONE;
  if (a.length * b.length > MAX_CLAUSES) return simplify([[...a[0], ...b[0]]]);
  const out: Need = [];
  for (const x of a) for (const y of b) out.push([...x, ...y]);
  return simplify(out);
}

const key = (l: Literal) => `${l.word ? "w" : "s"}${l.dot ? "." : ""}${l.text}`;

/** Whether a text holding `a` holds `b`: the same text, `b` no stricter (a word is a substring, a word after a `.` a word). */
function implies(a: Literal, b: Literal): boolean {
  return a.text === b.text && (a.word || !b.word) && (a.dot === true || !b.dot);
}

/**
 * Literals deduplicated within clauses, and one that implies another of its clause dropped (`.eval` or `eval` is
 * `eval`); clauses implied by a smaller one dropped.
 */
function simplify(need: Need): Need {
  const clauses = need.map((c) => {
    const unique = [...new Map(c.map((l) => [key(l), l])).values()];
    return unique.filter((l) => !unique.some((m) => m !== l && implies(l, m)));
  });
  clauses.sort((x, y) => x.length - y.length);
  const kept: Literal[][] = [];
  for (const clause of clauses) {
    if (kept.some((k) => k.every((l) => clause.some((m) => implies(l, m))))) continue;
    kept.push(clause);
  }
  return kept;
}

/**
 * Whatever may be a comment in some language (`//`, `#` or `--` to the end of
 * the line, a C block comment, an HTML comment): its words are not taken from a
 * pattern (a match need not repeat a pattern's comments). Dropping words only
 * ever weakens a need.
 */
const COMMENT_LIKE = /\/\*[\s\S]*?(?:\*\/|$)|<!--[\s\S]*?(?:-->|$)|(?:\/\/|#|--).*$/gm;

/**
 * Tokens of a pattern's text outside metavariables (`$A`, `$$$ARGS`, `$_`) and
 * comments, each a word the match contains.
 */
export function patternNeed(pattern: string): Need {
  const text = pattern.replace(COMMENT_LIKE, " ");
  const tokens = text.matchAll(/(?<![$\w])[A-Za-z_][A-Za-z0-9_]*/g);
  return simplify(
    [...tokens].map((m) => [{ text: m[0], word: true, ...(text[m.index - 1] === "." && { dot: true }) }]),
  );
}

/**
 * The literal runs every match of a regular expression (ast-grep's Rust syntax)
 * contains, from a safe subset of the syntax; anything outside it gives no need.
 */
export function regexNeed(source: string): Need {
  try {
    const parser = new RegexNeed(source);
    const need = parser.alternation();
    return parser.done() ? need : NONE;
  } catch {
    return NONE;
  }
}

class Unsupported extends Error {}

/** A recursive-descent reading of a regular expression for its required literals. */
class RegexNeed {
  #i = 0;
  constructor(readonly src: string) {}

  done(): boolean {
    return this.#i === this.src.length;
  }

  /** `a|b|…` up to a `)` or the end. */
  alternation(): Need {
    let need = this.sequence();
    while (this.src[this.#i] === "|") {
      this.#i++;
      need = or(need, this.sequence());
    }
    return need;
  }

  /** Atoms in a row: runs of literal characters each count; anything else only breaks a run. */
  sequence(): Need {
    let need: Need = NONE;
    let run = "";
    const endRun = () => {
      if (run) need = and(need, [[{ text: run, word: false }]]);
      run = "";
    };
    while (this.#i < this.src.length && this.src[this.#i] !== "|" && this.src[this.#i] !== ")") {
      const atom = this.atom();
      const { min } = this.quantifier();
      if (atom.kind === "char") {
        if (min === 1 && !atom.repeated) run += atom.char;
        else {
          endRun();
          // Repeated (`a+`, `a{2}`): one is still there, on its own.
          if (min >= 1) need = and(need, [[{ text: atom.char, word: false }]]);
        }
      } else {
        endRun();
        if (atom.kind === "group" && min >= 1) need = and(need, atom.need);
      }
    }
    endRun();
    return need;
  }

  atom(): { kind: "char"; char: string; repeated?: boolean } | { kind: "group"; need: Need } | { kind: "other" } {
    const c = this.src[this.#i++];
    if (c === "(") {
      if (this.src[this.#i] === "?") {
        if (this.src[this.#i + 1] !== ":") throw new Unsupported(); // flags, names, look-around
        this.#i += 2;
      }
      const need = this.alternation();
      if (this.src[this.#i++] !== ")") throw new Unsupported();
      return { kind: "group", need };
    }
    if (c === "[") {
      // A class: one character of a set. Skipped (nested classes and set operations are not read).
      if (this.src[this.#i] === "^") this.#i++;
      if (this.src[this.#i] === "]") this.#i++;
      while (this.#i < this.src.length && this.src[this.#i] !== "]") {
        if (this.src[this.#i] === "[") throw new Unsupported();
        if (this.src[this.#i] === "\\") this.#i++;
        this.#i++;
      }
      if (this.src[this.#i++] !== "]") throw new Unsupported();
      return { kind: "other" };
    }
    if (c === "\\") {
      const next = this.src[this.#i++];
      if (next === undefined) throw new Unsupported();
      // Escaped punctuation is itself; a letter or digit is a class, an assertion or a reference.
      if (/[A-Za-z0-9]/.test(next)) {
        if (/[pPxuU0-9]/.test(next)) throw new Unsupported();
        return { kind: "other" };
      }
      return { kind: "char", char: next };
    }
    if (c === "^" || c === "$" || c === ".") return { kind: "other" };
    if (c === "*" || c === "+" || c === "?" || c === "{" || c === ")" || c === "|") throw new Unsupported();
    // Rust takes plain whitespace literally (`(?x)` is refused above); kept out for safety all the same.
    if (/\s/.test(c)) throw new Unsupported();
    return { kind: "char", char: c };
  }

  /** A quantifier after an atom: its minimum count (1 when there is none). */
  quantifier(): { min: number } {
    const c = this.src[this.#i];
    let min = 1;
    if (c === "*" || c === "?") {
      this.#i++;
      min = 0;
    } else if (c === "+") {
      this.#i++;
      min = 2; // at least one, possibly more: not part of a longer run
    } else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.#i));
      if (!m) throw new Unsupported();
      this.#i += m[0].length;
      const n = Number(m[1]);
      min = n === 0 ? 0 : m[2] === undefined && n === 1 ? 1 : 2;
    } else return { min };
    if (this.src[this.#i] === "?") this.#i++; // lazy
    return { min };
  }
}

/** The need of one rule object (the `rule` of a file, a relational target, a constraint). */
function objectNeed(value: unknown, language: RuleLanguage): Need {
  if (!value || typeof value !== "object" || Array.isArray(value)) return NONE;
  const rule = value as Record<string, unknown>;
  let need: Need = NONE;
  const pattern = rule.pattern;
  if (typeof pattern === "string") need = and(need, patternNeed(pattern));
  else if (pattern && typeof pattern === "object") {
    const p = pattern as Record<string, unknown>;
    const strict = p.strictness === undefined || TEXT_STRICT.has(String(p.strictness));
    // With a selector, only part of the context is the match.
    if (typeof p.context === "string" && p.selector === undefined && strict) need = and(need, patternNeed(p.context));
  }
  if (typeof rule.kind === "string") {
    const keyword = KEYWORD_KINDS[language]?.[rule.kind];
    if (keyword) need = and(need, [[{ text: keyword, word: true }]]);
  }
  if (typeof rule.regex === "string") need = and(need, regexNeed(rule.regex));
  for (const relation of ["has", "inside", "precedes", "follows"]) {
    if (relation in rule) need = and(need, objectNeed(rule[relation], language));
  }
  if (Array.isArray(rule.all)) { for (const member of rule.all) need = and(need, objectNeed(member, language)); }
  if (Array.isArray(rule.any) && rule.any.length > 0) {
    need = and(need, rule.any.map((member) => objectNeed(member, language)).reduce(or));
  }
  return need;
}

/** Whether every match of `value` captures the single metavariable `$name` in its pattern. */
function alwaysCaptures(value: unknown, name: string): boolean {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const rule = value as Record<string, unknown>;
  const single = new RegExp(`(?<!\\$)\\$${name}(?![A-Za-z0-9_])`);
  if (typeof rule.pattern === "string" && single.test(rule.pattern)) return true;
  if (Array.isArray(rule.all) && rule.all.some((member) => alwaysCaptures(member, name))) return true;
  return Array.isArray(rule.any) && rule.any.length > 0 && rule.any.every((member) => alwaysCaptures(member, name));
}

/** The need of a whole rule: its `rule`, and the constraints on metavariables every match captures. */
export function matcherNeed(rule: Pick<LoadedRule, "matcher" | "language">): Need {
  let need = objectNeed(rule.matcher.rule, rule.language);
  for (const [name, constraint] of Object.entries(rule.matcher.constraints ?? {})) {
    if (/^[A-Z_][A-Z0-9_]*$/.test(name) && alwaysCaptures(rule.matcher.rule, name)) {
      need = and(need, objectNeed(constraint, rule.language));
    }
  }
  return need;
}

/**
 * What ast-grep passes over between two leaves of a pattern (smart strictness skips comments): spaces, a
 * backslash's line continuation, and anything that may be a comment in some language. Matching more than a
 * language allows only weakens a need. Each piece matches in one way only (a block comment ends at the first close
 * of one, a line comment runs to its line's end), so a failed test backtracks in linear time.
 */
const TRIVIA = String.raw`(?:[\s\\]|\/\*(?:[^*]|\*(?!\/))*\*\/|(?:\/\/|#)[^\n]*(?![^\n]))*`;

/** A need as a test of a text. */
export function needTest(need: Need): (text: string) => boolean {
  if (need.length === 0) return () => true;
  const clauses = need.map((clause) =>
    clause.map((l) => {
      if (!l.word) return (text: string) => text.includes(l.text);
      // Not inside a longer word. A digit may come first: Python reads `1if x else 2` as `1 if …`.
      const before = l.dot ? `\\.${TRIVIA}` : "(?<![A-Za-z_])";
      const re = new RegExp(`${before}${l.text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![A-Za-z0-9_])`);
      return (text: string) => text.includes(l.text) && re.test(text);
    })
  );
  return (text) => clauses.every((clause) => clause.some((test) => test(text)));
}

const tests = new WeakMap<LoadedRule, ((text: string) => boolean) | null>();

/**
 * Whether `rule` may match somewhere in `text` (false: it certainly does not).
 * Null when the rule has no need at all (it may match in any text).
 */
function ruleTest(rule: LoadedRule): ((text: string) => boolean) | null {
  let test = tests.get(rule);
  if (test === undefined) {
    const need = matcherNeed(rule);
    const derived = need.length === 0 ? null : needTest(need);
    // What a built-in rule declares (`metadata.poly-needs`), after the cheaper words.
    const declared = rule.needs === undefined ? undefined : new RegExp(rule.needs);
    test = declared ? (text) => (derived === null || derived(text)) && declared.test(text) : derived;
    tests.set(rule, test);
  }
  return test;
}

/** Whether `rule` can only match in a text that contains what it needs (so a text can rule it out). */
export function hasNeed(rule: LoadedRule): boolean {
  return ruleTest(rule) !== null;
}

/** Whether `rule` may match in `text`: false only when the text lacks something every match contains. */
export function mayMatch(rule: LoadedRule, text: string): boolean {
  const test = ruleTest(rule);
  return test === null || test(text);
}
