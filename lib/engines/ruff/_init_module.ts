/**
 * `RUF067` (a preview rule: code in an `__init__.py`), worked out from ruff's tokens, as `ruff check` 0.16.9 reports
 * it: the WebAssembly build checks a text without a path, so it never knows it is linting a package's `__init__.py`
 * and never reports the rule (hatch and litestar under `select = ["ALL"]` with preview: 91 and 23 findings).
 *
 * ruff flags each top-level statement of an `__init__.py` but the module's docstring and attribute docstrings (a
 * string statement right after an assignment to one name), imports, a PEP 562 `__getattr__` or `__dir__` function,
 * an `if TYPE_CHECKING:` block, and assignments (plain, annotated, augmented) whose targets are all dunder names
 * (`__all__`, `__version__`, `__path__`). Under `lint.ruff.strictly-empty-init-modules` every statement is flagged.
 * The statements are found from the tokens' structure (a new one at the file's first indentation, after a newline or
 * a `;` outside brackets; decorators, `elif`, `else`, `except` and `finally` belong to the statement they lead or
 * follow), which is all the rule asks of the syntax tree.
 *
 * @module
 */
import { bytesToUtf16, indexToPosition, lineStarts } from "../text.ts";
import { exemptions, suppresses } from "./_module.ts";

/** One of ruff's tokens: its kind, its UTF-8 byte range and its flags. */
export interface Token {
  kind: string;
  start: number;
  end: number;
  flags: string;
}

/** Every token of ruff's `Workspace.tokens()` text (one `Kind start..end (flags = ...)` line each). */
export function tokenList(dump: string): Token[] {
  const out: Token[] = [];
  for (const m of dump.matchAll(/^\s*(\w+) (\d+)\.\.(\d+)(?: \(flags = ([^)]*)\))?,?$/gm)) {
    out.push({ kind: m[1], start: Number(m[2]), end: Number(m[3]), flags: m[4] ?? "" });
  }
  return out;
}

/** A top-level statement: its significant tokens (no comments, newlines, indents or dedents). */
type Statement = Token[];

/** Tokens that leave a statement's structure alone. */
const TRIVIA = new Set(["Comment", "NonLogicalNewline", "Newline", "Indent", "Dedent"]);
const OPEN = new Set(["Lpar", "Lsqb", "Lbrace"]);
const CLOSE = new Set(["Rpar", "Rsqb", "Rbrace"]);
/** Clauses that continue the compound statement before them. */
const CLAUSES = new Set(["Elif", "Else", "Except", "Finally"]);
/** Statements with a body, whose `;` belongs to that body (`if x: a; b` is one statement). */
const COMPOUND = new Set(["If", "For", "While", "With", "Try", "Def", "Class", "Async", "Match", "At"]);
const AUGMENTED =
  /^(Plus|Minus|Star|Slash|DoubleSlash|Percent|At|Amper|Vbar|Circumflex|CircumFlex|LeftShift|RightShift|DoubleStar)Equal$/;

/** The top-level statements of a text, from its tokens. */
export function topStatements(tokens: readonly Token[]): Statement[] {
  const out: Statement[] = [];
  let current: Statement | undefined;
  let indent = 0;
  let depth = 0;
  let boundary = true;
  for (const t of tokens) {
    if (t.kind === "Indent") indent++;
    else if (t.kind === "Dedent" && --indent === 0) boundary = true;
    if (t.kind === "Newline" && indent === 0 && depth === 0) boundary = true;
    if (TRIVIA.has(t.kind)) continue;
    if (t.kind === "Semi" && indent === 0 && depth === 0 && current && !COMPOUND.has(current[0].kind)) {
      boundary = true;
      continue;
    }
    const decorating = current?.[0].kind === "At" && !current.some((c) => c.kind === "Def" || c.kind === "Class");
    if (boundary && indent === 0 && !CLAUSES.has(t.kind) && !decorating) out.push(current = []);
    boundary = false;
    if (OPEN.has(t.kind)) depth++;
    else if (CLOSE.has(t.kind)) depth = Math.max(0, depth - 1);
    current?.push(t);
  }
  return out;
}

/** What {@link initModuleFindings} needs of the file and the options. */
export interface InitModuleInput {
  text: string;
  tokens: readonly Token[];
  /** `lint.ruff.strictly-empty-init-modules`. */
  strict: boolean;
}

/** One `RUF067` finding: the statement's range as 1-based rows and UTF-16 columns, and the row of its `noqa`. */
export interface InitModuleFinding {
  message: string;
  start: { row: number; column: number };
  end: { row: number; column: number };
  noqaRow: number;
  suppressed: boolean;
}

/** The message of each mode. */
const MESSAGE = {
  lenient: "`__init__` module should only contain docstrings and re-exports",
  strict: "`__init__` module should not contain any code",
};

/** `RUF067`'s findings in an `__init__.py`, suppressed ones marked (their directives are used: `RUF100`). */
export function initModuleFindings(input: InitModuleInput): InitModuleFinding[] {
  const text = located(input.text, input.tokens);
  const source = (t: Token) => text.source(t);
  const statements = topStatements(input.tokens);
  const aliases = typingAliases(statements, source);
  const exempt = exemptions(input.text);
  const out: InitModuleFinding[] = [];
  let attributeDocstring = false;
  statements.forEach((stmt, index) => {
    const docstring = isStringStatement(stmt) && (index === 0 || attributeDocstring);
    const kind = assignment(stmt, source);
    attributeDocstring = kind?.single ?? false;
    if (!input.strict && (docstring || allowed(stmt, source, aliases) || kind?.dunder)) return;
    const row = noqaRow(input.tokens, stmt[0], text);
    out.push({
      message: input.strict ? MESSAGE.strict : MESSAGE.lenient,
      start: text.position(stmt[0].start),
      end: text.position(stmt[stmt.length - 1].end),
      noqaRow: row,
      suppressed: suppresses(input.text, "RUF067", exempt, row),
    });
  });
  return out;
}

/** Whether a statement is allowed whatever its assignments: an import, `__getattr__` / `__dir__`, a `TYPE_CHECKING` block. */
function allowed(stmt: Statement, source: (t: Token) => string, aliases: ReadonlySet<string>): boolean {
  const first = stmt[0].kind;
  if (first === "Import" || first === "From") return true;
  if (first === "At" || first === "Def" || first === "Async") {
    const def = topLevel(stmt).find((t) => t.kind === "Def" || t.kind === "Class");
    const name = def?.kind === "Def" ? stmt[stmt.indexOf(def) + 1] : undefined;
    return name !== undefined && ["__getattr__", "__dir__"].includes(source(name));
  }
  if (first === "If") {
    const colon = topLevel(stmt).find((t) => t.kind === "Colon");
    const test = unparenthesized(stmt.slice(1, colon ? stmt.indexOf(colon) : stmt.length));
    // ruff: a name `TYPE_CHECKING` (or `typing.TYPE_CHECKING` imported under another name), or any attribute of that name.
    if (test.length === 1 && test[0].kind === "Identifier") {
      const name = source(test[0]);
      return name === "TYPE_CHECKING" || aliases.has(name);
    }
    const dotted = test.length >= 3 && test.every((t, i) => t.kind === (i % 2 === 0 ? "Identifier" : "Dot"));
    return dotted && source(test[test.length - 1]) === "TYPE_CHECKING";
  }
  return false;
}

/**
 * A statement's assignment: whether every target is a dunder name (`dunder`), and whether it is a plain or annotated
 * assignment to one name (`single`: a string statement after it is an attribute docstring). Undefined for any other
 * statement. `=` after a `lambda` is a default value's.
 */
function assignment(stmt: Statement, source: (t: Token) => string): { dunder: boolean; single: boolean } | undefined {
  if (!["Identifier", "Lpar", "Lsqb", "Star"].includes(stmt[0].kind)) return undefined;
  const top = topLevel(stmt);
  const first = top.find((t) =>
    t.kind === "Equal" || t.kind === "Colon" || t.kind === "Lambda" || AUGMENTED.test(t.kind)
  );
  if (!first || first.kind === "Lambda") return undefined;
  const name = (tokens: Token[]) => {
    const bare = unparenthesized(tokens);
    return bare.length === 1 && bare[0].kind === "Identifier" ? source(bare[0]) : undefined;
  };
  const dunder = (n: string | undefined) => n !== undefined && n.startsWith("__") && n.endsWith("__");
  if (first.kind !== "Equal") {
    const target = name(stmt.slice(0, stmt.indexOf(first)));
    return { dunder: dunder(target), single: first.kind === "Colon" && target !== undefined };
  }
  const targets: Token[][] = [];
  let from = 0;
  for (const t of top) {
    if (t.kind === "Lambda") break;
    if (t.kind !== "Equal") continue;
    targets.push(stmt.slice(from, stmt.indexOf(t)));
    from = stmt.indexOf(t) + 1;
  }
  const names = targets.map(name);
  return { dunder: names.every(dunder), single: names.length === 1 && names[0] !== undefined };
}

/** Whether a statement is a string literal alone (parenthesized or implicitly concatenated; no bytes, no f-string). */
function isStringStatement(stmt: Statement): boolean {
  const bare = unparenthesized(stmt);
  return bare.length > 0 && bare.every((t) => t.kind === "String" && !t.flags.includes("BYTE_STRING"));
}

/** The names `TYPE_CHECKING` is imported under from `typing` or `typing_extensions` (`from typing import TYPE_CHECKING as TC`). */
function typingAliases(statements: readonly Statement[], source: (t: Token) => string): Set<string> {
  const out = new Set<string>();
  for (const stmt of statements) {
    if (stmt[0].kind !== "From" || stmt[1]?.kind !== "Identifier" || stmt[2]?.kind !== "Import") continue;
    if (!["typing", "typing_extensions"].includes(source(stmt[1]))) continue;
    for (let i = 3; i + 2 < stmt.length; i++) {
      if (source(stmt[i]) === "TYPE_CHECKING" && stmt[i + 1].kind === "As") out.add(source(stmt[i + 2]));
    }
  }
  return out;
}

/** A statement's tokens outside brackets. */
function topLevel(stmt: Statement): Token[] {
  const out: Token[] = [];
  let depth = 0;
  for (const t of stmt) {
    if (CLOSE.has(t.kind)) depth--;
    if (depth === 0) out.push(t);
    if (OPEN.has(t.kind)) depth++;
  }
  return out;
}

/** `tokens` without the parentheses around all of them (`((x))` gives `x`). */
function unparenthesized(tokens: Token[]): Token[] {
  let out = tokens;
  while (out.length >= 2 && out[0].kind === "Lpar" && out[out.length - 1].kind === "Rpar" && closesAt(out)) {
    out = out.slice(1, -1);
  }
  return out;
}

/** Whether the first token's parenthesis is closed by the last. */
function closesAt(tokens: Token[]): boolean {
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (OPEN.has(tokens[i].kind)) depth++;
    else if (CLOSE.has(tokens[i].kind)) depth--;
    if (depth === 0) return i === tokens.length - 1;
  }
  return false;
}

/** ruff's UTF-8 byte offsets in a text as string indices, rows and UTF-16 columns (lib/engines/text.ts). */
class Located {
  readonly #text: string;
  readonly #starts: number[];
  readonly #index = new Map<number, number>();

  constructor(text: string, tokens: readonly Token[]) {
    this.#text = text;
    this.#starts = lineStarts(text);
    const offsets = tokens.flatMap((t) => [t.start, t.end]);
    bytesToUtf16(text, offsets).forEach((index, i) => this.#index.set(offsets[i], index));
  }

  /** The string index of a token's byte offset. */
  index(offset: number): number {
    return this.#index.get(offset) ?? bytesToUtf16(this.#text, [offset])[0];
  }

  /** The text of a token. */
  source(t: Token): string {
    return this.#text.slice(this.index(t.start), this.index(t.end));
  }

  /** A string index as a 1-based row and UTF-16 column. */
  at(index: number): { row: number; column: number } {
    const { line, col } = indexToPosition(this.#starts, index);
    return { row: line, column: col };
  }

  /** A byte offset as a 1-based row and UTF-16 column. */
  position(offset: number): { row: number; column: number } {
    return this.at(this.index(offset));
  }

  /** The string index of the `\` that ends `row` (before its line break), or undefined. */
  continuation(row: number): number | undefined {
    let end = row < this.#starts.length ? this.#starts[row] - 1 : this.#text.length;
    if (this.#text[end - 1] === "\r") end--;
    return this.#text[end - 1] === "\\" ? end - 1 : undefined;
  }
}

/** Each token list's {@link Located}, made once for the rules that read it. */
const locatedBy = new WeakMap<readonly Token[], Located>();

/** The {@link Located} of `text`'s `tokens`. */
function located(text: string, tokens: readonly Token[]): Located {
  let found = locatedBy.get(tokens);
  if (!found) locatedBy.set(tokens, found = new Located(text, tokens));
  return found;
}

/**
 * The row of the `noqa` directive for a statement starting with `first`, as ruff maps it: a statement that starts
 * with a string over several lines takes its directive on the string's last line, and a line continued with `\` on
 * the last line it continues to.
 */
function noqaRow(tokens: readonly Token[], first: Token, text: Located): number {
  let end = first.start;
  if (first.kind === "String") end = first.end;
  else if (first.kind === "FStringStart" || first.kind === "TStringStart") {
    end = tokens.find((t) => t.start >= first.start && /^[FT]StringEnd$/.test(t.kind))?.end ?? end;
  }
  let row = text.at(Math.max(text.index(first.start), text.index(end) - 1)).row;
  const inToken = (index: number) =>
    tokens.some((t) =>
      (t.kind === "Comment" || t.kind === "String" || /^[FT]StringMiddle$/.test(t.kind)) &&
      text.index(t.start) <= index && index < text.index(t.end)
    );
  for (let at = text.continuation(row); at !== undefined && !inToken(at); at = text.continuation(row)) row++;
  return row;
}

/**
 * The text's shebang comments (a comment that starts with `#!`, on any line, as ruff's `ShebangDirective` reads its
 * comments for `EXE001`), each as 1-based rows and UTF-16 columns.
 */
export function shebangComments(
  text: string,
  tokens: readonly Token[],
): { start: { row: number; column: number }; end: { row: number; column: number } }[] {
  const where = located(text, tokens);
  return tokens.filter((t) => t.kind === "Comment" && where.source(t).startsWith("#!")).map((t) => ({
    start: where.position(t.start),
    end: where.position(t.end),
  }));
}

/** `PLW0406` (a module importing itself): where, and the module's name as ruff gives it. */
export interface ImportSelf {
  name: string;
  start: { row: number; column: number };
  end: { row: number; column: number };
}

/**
 * `PLW0406` as `ruff check` 0.16.9 reports it in a module whose module path (ruff's `to_module_path`, from its package
 * root) is `module`: each name of an `import` that is the module itself (`import pkg.sub.mod`, at the name), and the
 * first name of a `from` import whose module, resolved against the module path (ruff's `resolve_imported_module_path`:
 * more dots than the path has names resolve to nothing), is the module's package and whose name is the module's own
 * (`from . import mod`, `from pkg.sub import mod as m`). Statements are found from the tokens: an `import` or `from` at
 * a statement's start (after a newline, an indent, a `;` or a block's colon), so `raise E from None` is none.
 */
export function importSelfFindings(text: string, tokens: readonly Token[], module: readonly string[]): ImportSelf[] {
  const where = located(text, tokens);
  const sig = tokens.filter((t) => t.kind !== "Comment" && t.kind !== "NonLogicalNewline");
  const own = module.join(".");
  const out: ImportSelf[] = [];
  const report = (name: string, first: Token, last: Token) =>
    out.push({ name, start: where.position(first.start), end: where.position(last.end) });
  /** A dotted name from `sig[j]`: its parts and the index after it. */
  const dotted = (j: number): [string[], number] => {
    const parts: string[] = [];
    while (sig[j]?.kind === "Identifier") {
      parts.push(where.source(sig[j]));
      if (sig[j + 1]?.kind !== "Dot") return [parts, j + 1];
      j += 2;
    }
    return [parts, j];
  };
  for (let i = 0; i < sig.length; i++) {
    const kind = sig[i].kind;
    if ((kind !== "Import" && kind !== "From") || !(i === 0 || STATEMENT_START.has(sig[i - 1].kind))) continue;
    let j = i + 1;
    if (kind === "Import") {
      while (j < sig.length) {
        const first = sig[j];
        const [parts, next] = dotted(j);
        if (parts.length === 0) break;
        let last = sig[next - 1];
        j = next;
        if (sig[j]?.kind === "As" && sig[j + 1]) [last, j] = [sig[j + 1], j + 2];
        if (parts.join(".") === own) report(own, first, last);
        if (sig[j]?.kind !== "Comma") break;
        j++;
      }
      continue;
    }
    let level = 0;
    for (; sig[j]?.kind === "Dot" || sig[j]?.kind === "Ellipsis"; j++) level += sig[j].kind === "Dot" ? 1 : 3;
    const [parts, next] = dotted(j);
    j = next;
    if (sig[j]?.kind !== "Import") continue;
    j++;
    if (level >= module.length && level > 0) continue;
    const base = module.slice(0, module.length - level).join(".");
    const imported = level === 0 ? parts.join(".") : [base, ...(parts.length ? [parts.join(".")] : [])].join(".");
    if (imported !== module.slice(0, -1).join(".")) continue;
    if (sig[j]?.kind === "Lpar") j++;
    while (sig[j]?.kind === "Identifier") {
      const first = sig[j];
      let last = first;
      j++;
      if (sig[j]?.kind === "As" && sig[j + 1]) [last, j] = [sig[j + 1], j + 2];
      if (where.source(first) === module[module.length - 1]) {
        report(`${imported}.${where.source(first)}`, first, last);
        break;
      }
      if (sig[j]?.kind !== "Comma") break;
      j++;
    }
  }
  return out;
}

/**
 * Whether the text may hold an import of the module `module` itself, read from its lines (a cheap first look, a
 * superset of {@link importSelfFindings}'s: a string's line that reads like an import counts too): an `import` line
 * naming the module, or a `from` line (with the lines of its parentheses) naming the module's own name from its
 * package. Only then are the tokens made.
 */
export function mayImportSelf(text: string, module: readonly string[]): boolean {
  const own = module.join(".");
  const last = module[module.length - 1];
  const parent = module.slice(0, -1).join(".");
  for (const m of text.matchAll(/^[ \t]*import[ \t]+((?:[^#\n;\\]|\\\r?\n)+)/gm)) {
    if (m[1].replace(/\\\r?\n/g, " ").split(",").some((part) => part.trim().split(/\s+/)[0] === own)) return true;
  }
  for (
    const m of text.matchAll(
      /^[ \t]*from[ \t]+(\.*)[ \t]*([\w.]*)[ \t]+import[ \t]*(\([^)]*\)?|(?:[^#\n;\\]|\\\r?\n)*)/gm,
    )
  ) {
    const level = m[1].length;
    if (level >= module.length && level > 0) continue;
    const base = module.slice(0, module.length - level).join(".");
    const from = level === 0 ? m[2] : [base, ...(m[2] ? [m[2]] : [])].join(".");
    if (from !== parent) continue;
    if (m[3].replace(/[()\\]/g, " ").split(/[\s,]+/).includes(last)) return true;
  }
  return false;
}

/** Tokens after which a statement starts. */
const STATEMENT_START: ReadonlySet<string> = new Set(["Newline", "Indent", "Dedent", "Semi", "Colon"]);
