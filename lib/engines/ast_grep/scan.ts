/**
 * Running rules over text with @ast-grep/napi: one parse per parser, one
 * `findAll` per rule, only for the rules a file gets (`select.ts`) and its text
 * leaves. Loading this module loads napi; the command line's batches need it only
 * for what the command line cannot take.
 *
 * @module
 */
import { parse, type SgNode } from "@ast-grep/napi";
import { shellView } from "./_dockerfile.ts";
import { expandedRange } from "./_fix.ts";
import { splitRule } from "./_split.ts";
import { type ParserName, primaryParser } from "./languages.ts";
import { ensureLanguages, napiLang } from "./napi.ts";
import { mayMatchIn, rulesForFile, type ScanFile, scannedText } from "./select.ts";
import { matchHit, type Position16, type RuleHit, sortHits } from "./hit.ts";
import type { LoadedRule, RuleSet } from "../../rules/types.ts";

export type { RuleHit, ScanFile };

/** Every match of the enabled rules that apply to `file`, in source order. */
export async function scanFile(set: RuleSet, file: ScanFile): Promise<RuleHit[]> {
  await ensureLanguages();
  return sortHits(scanGroups(file, rulesForFile(set, file)));
}

/**
 * The matches of rule groups (from {@link rulesForFile}) in `file`, one parse per
 * parser, unsorted: a rule that cannot match in the text is not run, and a
 * parser none of whose rules can is not parsed with. Dockerfiles are scanned
 * through their shell view. The languages must be registered ({@link ensureLanguages}).
 */
export function scanGroups(file: ScanFile, groups: ReadonlyMap<ParserName, readonly LoadedRule[]>): RuleHit[] {
  const hits: RuleHit[] = [];
  if (groups.size === 0) return hits;
  const text = scannedText(file);
  if (text === undefined) return hits;
  for (const [parser, rules] of groups) {
    const live = mayMatchIn(rules, text);
    if (live.length === 0) continue;
    if (file.language === "html" && parser !== "Html") hits.push(...scanBlocks(text, parser, live));
    else hits.push(...scanText(text, parser, live));
  }
  return hits;
}

/**
 * The matches of JavaScript's or CSS's rules in an HTML file's `<script>` or `<style>` blocks, as `ast-grep scan`
 * injects those languages there (a `<script>` whose `lang` names another language is not JavaScript): each block
 * parsed on its own, its matches placed at the block's position in the file (`filtered`: only the rules the literal
 * pre-filter leaves for the block).
 */
export function scanBlocks(text: string, parser: ParserName, rules: readonly LoadedRule[], filtered = true): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const block of blocksOf(text, parser === "JavaScript" ? "script_element" : "style_element")) {
    const live = filtered ? mayMatchIn(rules, block.text) : rules;
    if (live.length === 0) continue;
    for (const h of scanText(block.text, parser, live)) hits.push(shifted(h, block.start));
  }
  return hits;
}

/** The raw text of each `kind` element of an HTML text, with where it starts. */
function blocksOf(text: string, kind: "script_element" | "style_element"): { text: string; start: Position16 }[] {
  const out: { text: string; start: Position16 }[] = [];
  for (const element of parse(napiLang("Html"), text).root().findAll({ rule: { kind } })) {
    const lang = element.find({ rule: { kind: "attribute", has: { kind: "attribute_name", regex: "^lang$" } } })
      ?.find({ rule: { kind: "attribute_value" } })?.text();
    if (lang && !/^(js|javascript|css)$/i.test(lang)) continue;
    const raw = element.children().find((c) => c.kind() === "raw_text");
    if (!raw) continue;
    const { start, end } = raw.range();
    out.push({ text: text.slice(start.index, end.index), start });
  }
  return out;
}

/** A block's hit placed in the file: lines and indexes moved by the block's start, columns on its first line. */
function shifted(hit: RuleHit, at: Position16): RuleHit {
  const move = (p: Position16): Position16 => ({
    line: p.line + at.line,
    column: p.line === 0 ? p.column + at.column : p.column,
    index: p.index + at.index,
  });
  return {
    ...hit,
    start: move(hit.start),
    end: move(hit.end),
    ...(hit.edit ? { edit: { ...hit.edit, start: hit.edit.start + at.index, end: hit.edit.end + at.index } } : {}),
  };
}

/**
 * Runs `rules` over `text` parsed once as `parser` (no file filtering): the
 * tester's entry point and the scanner's inner loop. (Folding every rule into
 * one `any` matcher was tried and measured slower: ast-grep then loses its
 * per-rule node-kind filter.)
 */
export function scanText(text: string, parser: ParserName, rules: readonly LoadedRule[]): RuleHit[] {
  const root = parse(napiLang(parser), text).root();
  const hits: RuleHit[] = [];
  for (const rule of rules) {
    const { native, checks } = splitRule(rule);
    for (const node of root.findAll(native)) {
      if (checks.every((check) => check(node))) hits.push(hit(rule, node, text));
    }
  }
  return hits;
}

/** Runs one rule over a snippet in its own language (Dockerfile snippets through their shell view). */
export async function scanSnippet(rule: LoadedRule, snippet: string): Promise<RuleHit[]> {
  await ensureLanguages();
  const text = snippetText(rule, snippet);
  return text === undefined ? [] : scanText(text, primaryParser(rule.language), [rule]);
}

/** The text `rule` runs on in a test snippet: a Dockerfile's shell view, else the snippet itself. */
export function snippetText(rule: LoadedRule, snippet: string): string | undefined {
  return rule.language === "dockerfile" ? shellView(snippet) : snippet;
}

function hit(rule: LoadedRule, node: SgNode, source: string): RuleHit {
  return matchHit(rule, node, source, rule.fix !== undefined ? expandedRange(rule.fix, node) : undefined);
}
