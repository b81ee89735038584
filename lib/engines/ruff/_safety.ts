/**
 * Which of ruff's fixes `poly lint --fix` applies: those `ruff check --fix` applies, its safe ones. ruff's WebAssembly
 * build reports a fix without its applicability, so poly decides it as ruff 0.16.9 does: from the rule alone where
 * ruff builds every fix of the rule as safe ({@link ALWAYS_SAFE}), from the text and the settings where ruff decides
 * it from something poly can see as well ({@link CONDITIONAL}). Every other rule's fix is left, as ruff leaves it
 * without `--unsafe-fixes`, unless the configuration's `lint.extend-safe-fixes` names it (mod.ts).
 *
 * The lists were read from ruff's source (each rule's `Fix::safe_edit` / `unsafe_edit` / `applicable_edit`) and
 * checked against ruff 0.16.9's own verdicts (`ruff check --output-format json` gives each fix's applicability) on
 * every rule's documented example, with and without comments, for Python 3.9 and 3.14.
 *
 * @module
 */
import { tableOf } from "../../config/table.ts";

/** Rules every fix of which ruff 0.16.9 marks safe: stable ones, then preview ones. */
export const ALWAYS_SAFE: ReadonlySet<string> = new Set(
  `
  COM812 COM819 D201 D202 D203 D204 D205 D207 D208 D209 D210 D211 D212 D213 D214 D215 D300 D403 D405 D406 D407 D408
  D409 D410 D411 D412 D413 D416 E401 E703 E713 E714 F541 F632 F811 F901 FURB167 G004 G010 I001 I002 ISC001 LOG009
  NPY001 NPY003 PIE800 PIE807 PIE808 PLC0208 PLE2510 PLE2512 PLE2513 PLE2514 PLE2515 PLR0402 PLR1711 PLR1716
  PLR1733 PLR1736 PLR2044 PLR5501 PLW0120 PLW0245 PT024 PT025 PYI009 PYI010 PYI011 PYI012 PYI013 PYI014 PYI015
  PYI020 PYI026 PYI029 PYI032 PYI036 PYI044 PYI053 PYI054 PYI064 Q000 Q001 Q002 Q003 Q004 RET502 RET505 RET506
  RET507 RET508 RUF021 RUF101 SIM114 SIM117 SIM208 SIM300 TC005 TD006 UP001 UP003 UP005 UP009 UP011 UP012 UP015
  UP019 UP021 UP023 UP024 UP025 UP026 UP032 UP034 UP035 W292 W605
  E201 E202 E203 E204 E211 E221 E222 E223 E224 E225 E226 E227 E228 E231 E241 E242 E251 E252 E261 E262 E265 E266
  E271 E272 E273 E274 E275 E301 E302 E303 E304 E305 E306 E502 FURB152 FURB156 PLR0202 PLR0203 RUF031 RUF047 RUF050
  RUF072 RUF105 RUF106 RUF201 UP048 UP051 W391
`.trim().split(/\s+/),
);

/** Rules whose fix ruff 0.16.9 only shows (display-only): `lint.extend-safe-fixes` does not make it applicable. */
export const DISPLAY_ONLY: ReadonlySet<string> = new Set(["PLW1510", "ERA001", "PT028", "PTH208"]);

/** What makes a conditional rule's fix safe in ruff 0.16.9 (otherwise it is unsafe). */
export type Condition =
  /** Not in an `__init__.py` (F401: removing an import there changes the package's interface). */
  | "not-init"
  /** No comment in the fixed range (the edits and the finding's own range): ruff would delete it. */
  | "no-comments"
  /** Not inside a triple-quoted string (W291, W293: the whitespace is the string's value). */
  | "not-in-string"
  /** The target Python is 3.10 or newer (UP006: `list[int]` where `List[int]` is evaluated at run time). */
  | "py310"
  /** Both of the above (UP007, UP045). */
  | "py310-no-comments"
  /** `lint.future-annotations` is off (UP037: else the fix may add `from __future__ import annotations`). */
  | "no-future-annotations"
  /** The finding is a `noqa` directive's, not a `# ruff:` suppression comment's (RUF100). */
  | "noqa-directive"
  /** No comment in the call, and its text ASCII (B009, B010: a name NFKC would change is not the same attribute). */
  | "no-comments-ascii"
  /** The statement after the placeholder is not a string, which would become the docstring (PIE790). */
  | "next-not-string";

/** Rules whose fix ruff 0.16.9 marks safe under a condition poly checks ({@link fixIsSafe}). */
export const CONDITIONAL: ReadonlyMap<string, Condition> = new Map<string, Condition>([
  ["F401", "not-init"],
  ["W291", "not-in-string"],
  ["W293", "not-in-string"],
  ["UP006", "py310"],
  ["UP007", "py310-no-comments"],
  ["UP045", "py310-no-comments"],
  ["UP037", "no-future-annotations"],
  ["RUF100", "noqa-directive"],
  ["B009", "no-comments-ascii"],
  ["B010", "no-comments-ascii"],
  ["PIE790", "next-not-string"],
  // Unsafe where a comment is in the node ruff looks at (a call, a statement, the edited range): always inside the
  // finding's range or its edits' for these rules, as ruff 0.16.9's verdicts on their examples with comments added
  // in every place showed (a rule where it was not, PLE0241, and rules without such an example are left out).
  ...`
  ASYNC115 B013 B033 C420 FURB122 FURB129 FURB136 FURB157 FURB168 FURB169 FURB181 FURB188 PERF101 PIE804 PLC1802
  PLR1730 PT001 PT023 PTH201 PYI016 PYI019 PYI030 PYI062 RET501 RUF010 RUF020 RUF022 RUF051 RUF058 RUF068 SIM905
  SIM910 SIM911 TC006 UP004 UP008 UP010 UP013 UP014 UP018 UP020 UP033 UP039 UP050
`.trim().split(/\s+/).map((code): [string, Condition] => [code, "no-comments"]),
]);

/** One of ruff's tokens: its kind and UTF-8 byte range, and whether it is (part of) a triple-quoted string. */
export interface RuffToken {
  kind: string;
  start: number;
  end: number;
  triple: boolean;
}

/**
 * ruff's tokens from its `Workspace.tokens()` text (one `Kind start..end (flags = ...)` line each); undefined when
 * the text has no such line (another format): every conditional fix is then left.
 */
export function parseTokens(dump: string): RuffToken[] | undefined {
  const out: RuffToken[] = [];
  // Only the kinds the conditions read (comments and strings): a long file has tens of thousands of tokens.
  const kinds = /^\s*(Comment|String|[FT]StringStart|[FT]StringEnd) (\d+)\.\.(\d+)(?: \(flags = ([^)]*)\))?,?$/gm;
  const head = dump.slice(0, 200).trim();
  if (head !== "[]" && !/^\[\s*\w+ \d+\.\.\d+/.test(head)) return undefined;
  for (const m of dump.matchAll(kinds)) {
    out.push({ kind: m[1], start: Number(m[2]), end: Number(m[3]), triple: (m[4] ?? "").includes("TRIPLE_QUOTED") });
  }
  return out;
}

/** What {@link fixIsSafe} is asked about: the file, the settings' options, and one finding with its fix. */
export interface FixQuestion {
  code: string;
  path: string;
  text: string;
  /** ruff's options for the file (`target-version`, `lint.future-annotations`). */
  options: Record<string, unknown>;
  /** The finding's range and its fix's edits, as string indices into `text` (start, end pairs). */
  ranges: [number, number][];
  /** The file's tokens, made on the first question that needs them; undefined when they cannot be had. */
  tokens: () => RuffToken[] | undefined;
  /** Converts string indices into UTF-8 byte offsets (the tokens' unit). */
  toBytes: (indices: number[]) => number[];
}

/** Whether ruff 0.16.9 marks this fix safe (before the configuration's `extend-safe-fixes` / `extend-unsafe-fixes`). */
export function fixIsSafe(q: FixQuestion): boolean {
  if (ALWAYS_SAFE.has(q.code)) return true;
  switch (CONDITIONAL.get(q.code)) {
    case "not-init":
      return !/(^|[/\\])__init__\.py$/.test(q.path);
    case "no-comments":
      return !hasComment(q);
    case "not-in-string":
      return !inTripleQuoted(q);
    case "py310":
      return atLeast310(q.options);
    case "py310-no-comments":
      return atLeast310(q.options) && !hasComment(q);
    case "no-future-annotations":
      return tableOf(q.options.lint)["future-annotations"] !== true;
    case "no-comments-ascii": {
      const [lo, hi] = hull(q);
      // deno-lint-ignore no-control-regex
      return /^[\x00-\x7f]*$/.test(q.text.slice(lo, hi)) && !hasComment(q);
    }
    case "next-not-string":
      return !nextIsString(q);
    case "noqa-directive":
      return !q.ranges.some(([s, e]) => lineOf(q.text, s, e).includes("ruff:"));
    default:
      return false;
  }
}

/** The target version's minor number is 10 or more (ruff 0.16.9's default, `py310`, where none is set). */
function atLeast310(options: Record<string, unknown>): boolean {
  const version = options["target-version"];
  const minor = typeof version === "string" ? /^py3(\d+)$/.exec(version)?.[1] : "10";
  return minor !== undefined && Number(minor) >= 10;
}

/** The hull of the question's ranges, as string indices. */
function hull(q: FixQuestion): [number, number] {
  return [Math.min(...q.ranges.map((r) => r[0])), Math.max(...q.ranges.map((r) => r[1]))];
}

/** Whether a comment token meets the hull of the finding and its edits (a `#` must be there for one to). */
function hasComment(q: FixQuestion): boolean {
  const [lo, hi] = hull(q);
  if (!q.text.slice(lo, hi).includes("#")) return false;
  const tokens = q.tokens();
  if (!tokens) return true;
  const [start, end] = q.toBytes([lo, hi]);
  return tokens.some((t) => t.kind === "Comment" && t.start < end && t.end > start);
}

/**
 * Whether the finding lies inside a triple-quoted string: a string token, or an f- or t-string from its start to its
 * end (ruff's multiline ranges; an f-string's replacement fields are counted in, which can only leave a fix).
 */
function inTripleQuoted(q: FixQuestion): boolean {
  if (!q.text.includes('"""') && !q.text.includes("'''")) return false;
  const tokens = q.tokens();
  if (!tokens) return true;
  const [start, end] = q.toBytes(q.ranges[0]);
  const spans: [number, number][] = [];
  const open: number[] = [];
  for (const t of tokens) {
    if (t.kind === "String" && t.triple) spans.push([t.start, t.end]);
    else if (t.kind === "FStringStart" || t.kind === "TStringStart") open.push(t.triple ? t.start : -1);
    else if (t.kind === "FStringEnd" || t.kind === "TStringEnd") {
      const from = open.pop();
      if (from !== undefined && from >= 0) spans.push([from, t.end]);
    }
  }
  return spans.some(([s, e]) => s <= start && end <= e);
}

/**
 * Whether the statement after the finding's (past blanks, `;`, line ends and comment lines, and an opening
 * parenthesis) starts with a string in the same body: ruff's PIE790 fix would make that string the docstring. Read
 * from the text: a statement's end is outside any string. A call on a string (`"a".join(x)`) and an f-string count in
 * too, which can only leave a fix; a statement indented less belongs to an enclosing body.
 */
function nextIsString(q: FixQuestion): boolean {
  const { text } = q;
  const [start, end] = q.ranges[0];
  const blanks = /[ \t]*/y;
  const indentOf = (at: number) => {
    blanks.lastIndex = text.lastIndexOf("\n", at - 1) + 1;
    return blanks.exec(text)![0].length;
  };
  let newLine = false;
  for (let i = end; i < text.length; i++) {
    const c = text[i];
    if (c === "#") {
      const eol = text.indexOf("\n", i);
      if (eol < 0) return false;
      i = eol - 1;
    } else if (c === "\n") newLine = true;
    else if (!" \t\r;(\\".includes(c)) {
      if (newLine && indentOf(i) < indentOf(start)) return false;
      return /^[rRbBuUfFtT]{0,2}["']/.test(text.slice(i, i + 3));
    }
  }
  return false;
}

/** The text of the lines from `start` to `end` (string indices). */
function lineOf(text: string, start: number, end: number): string {
  const from = text.lastIndexOf("\n", start - 1) + 1;
  const to = text.indexOf("\n", end);
  return text.slice(from, to < 0 ? text.length : to);
}
