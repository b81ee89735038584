/**
 * `RUF201` (a preview rule: a rule code used in a selector where its name reads better), which `ruff check` reports in
 * the settings files it lints (`pyproject.toml`, `ruff.toml`, `.ruff.toml`, in its default include): each string of a
 * selector list of the ruff table (`pyproject.toml`'s `[tool.ruff]`, a `ruff.toml`'s top) or of its `lint` table —
 * `select`, `extend-select`, `fixable`, `extend-fixable`, `ignore`, `extend-ignore`, `unfixable`, `extend-unfixable`,
 * `extend-safe-fixes`, `extend-unsafe-fixes`, and each list of `per-file-ignores` and `extend-per-file-ignores` — that
 * is a whole rule's code (after ruff's redirects; `E` or `E5` are not), at the code between its quotes, with a safe fix
 * writing the rule's name instead. The WebAssembly build lints no settings file; poly works this out from the TOML as
 * ruff 0.16.9 does (`rule_codes_in_selectors.rs`).
 *
 * @module
 */
import { basename } from "node:path";
import { parse } from "smol-toml";
import { KeyLocator } from "../../config/parse.ts";
import { isTable } from "../../config/table.ts";
import { RUFF_SETTINGS_FILES, SELECTOR_LISTS, SELECTOR_TABLES } from "../../config/native/ruff.ts";
import { redirected } from "./_selectors.ts";

/** One `RUF201` finding: where the code is (1-based lines, UTF-16 columns; offsets into the text), and its rule's name. */
export interface CodeInSelector {
  message: string;
  name: string;
  start: { line: number; column: number };
  end: { line: number; column: number };
  startIndex: number;
  endIndex: number;
}

/**
 * The rule codes used as selectors in the settings file at `path` (`text`): see the module. `names`: ruff's rule name
 * by code. Nothing for a text that does not parse (ruff reports that itself, elsewhere).
 */
export function codesInSelectors(
  path: string,
  text: string,
  names: ReadonlyMap<string, string>,
): CodeInSelector[] {
  if (!RUFF_SETTINGS_FILES.has(basename(path))) return [];
  let document: Record<string, unknown>;
  try {
    document = parse(text) as Record<string, unknown>;
  } catch {
    return [];
  }
  const top = basename(path) === "pyproject.toml" ? ["tool", "ruff"] : [];
  let ruff: unknown = document;
  for (const key of top) ruff = isTable(ruff) ? ruff[key] : undefined;
  if (!isTable(ruff)) return [];
  const locator = new KeyLocator(text);
  const out: CodeInSelector[] = [];
  const visit = (value: unknown, at: (string | number)[], selector: string, inLint: boolean) => {
    if (typeof value !== "string") return;
    const open = locator.offset(at);
    if (open === undefined) return;
    const name = names.get(redirected(value));
    if (name === undefined) return;
    const { line, column } = locator.locate(at);
    const quote = /^("""|'''|"|')/.exec(text.slice(open, open + 3))?.[0];
    if (quote === undefined) return;
    const startIndex = open + quote.length;
    const endIndex = text.indexOf(quote, startIndex);
    if (endIndex < 0 || text.slice(startIndex, endIndex) !== value) return;
    out.push({
      message: `Rule code used instead of name in \`${inLint ? "lint." : ""}${selector}\``,
      name,
      start: { line, column: column + quote.length },
      end: { line, column: column + quote.length + value.length },
      startIndex,
      endIndex,
    });
  };
  const check = (table: Record<string, unknown>, at: string[], inLint: boolean) => {
    for (const selector of SELECTOR_LISTS) {
      const list = table[selector];
      if (Array.isArray(list)) list.forEach((v, i) => visit(v, [...at, selector, i], selector, inLint));
    }
    for (const selector of SELECTOR_TABLES) {
      const perFile = table[selector];
      if (!isTable(perFile)) continue;
      for (const [glob, list] of Object.entries(perFile)) {
        if (Array.isArray(list)) list.forEach((v, i) => visit(v, [...at, selector, glob, i], selector, inLint));
      }
    }
  };
  check(ruff, top, false);
  if (isTable(ruff.lint)) check(ruff.lint, [...top, "lint"], true);
  return out.sort((a, b) => a.startIndex - b.startIndex);
}
