/**
 * Running rules over text: which rules apply to a file (language, `files`,
 * `ignores`), one parse per parser, one `findAll` per rule.
 *
 * @module
 */
import { parse, type SgNode } from "@ast-grep/napi";
import picomatch from "picomatch";
import { isAbsolute, relative } from "node:path";
import { shellView } from "./_dockerfile.ts";
import { fixEdit, type TextEdit } from "./_fix.ts";
import { splitRule } from "./_split.ts";
import { ensureLanguages, napiLang, parserFor, type ParserName, primaryParser } from "./_langs.ts";
import type { Language } from "../engines/types.ts";
import type { LoadedRule, RuleSet } from "./types.ts";

/** A 0-based position: line, UTF-16 column, UTF-16 index. */
export interface Position16 {
  line: number;
  column: number;
  index: number;
}

/** One match of one rule. */
export interface RuleHit {
  rule: LoadedRule;
  start: Position16;
  end: Position16;
  /** The rule's message with metavariables filled in. */
  message: string;
  /** The rule's fix for this match, when it has one. */
  edit?: TextEdit;
}

/** A file as the scanner needs it. */
export interface ScanFile {
  /** Absolute path (or relative to the rule set's config directory). */
  path: string;
  language: Language;
  text: string;
}

type Matcher = (path: string) => boolean;
const matchers = new WeakMap<LoadedRule, { files?: Matcher; ignores?: Matcher }>();

function fileFilter(rule: LoadedRule): { files?: Matcher; ignores?: Matcher } {
  let m = matchers.get(rule);
  if (!m) {
    const options = { dot: true };
    m = {
      files: rule.files.length ? picomatch(rule.files, options) : undefined,
      ignores: rule.ignores.length ? picomatch(rule.ignores, options) : undefined,
    };
    matchers.set(rule, m);
  }
  return m;
}

/** Whether `rule`'s `files`/`ignores` let it apply to `path` (relative to `configDir` where possible). */
export function ruleCoversPath(rule: LoadedRule, path: string, configDir: string): boolean {
  const { files, ignores } = fileFilter(rule);
  if (!files && !ignores) return true;
  let rel = isAbsolute(path) ? relative(configDir, path) : path;
  if (rel.startsWith("..")) rel = path;
  rel = rel.replaceAll("\\", "/");
  if (files && !files(rel)) return false;
  return !(ignores && ignores(rel));
}

/** The enabled rules that apply to `file`, grouped by the parser each one needs. */
export function rulesForFile(set: RuleSet, file: ScanFile): Map<ParserName, LoadedRule[]> {
  const groups = new Map<ParserName, LoadedRule[]>();
  for (const rule of set.rules) {
    if (!rule.enabled) continue;
    const parser = parserFor(rule.language, file);
    if (!parser || !ruleCoversPath(rule, file.path, set.configDir)) continue;
    const group = groups.get(parser);
    if (group) group.push(rule);
    else groups.set(parser, [rule]);
  }
  return groups;
}

/** Every match of the enabled rules that apply to `file`, in source order. */
export async function scanFile(set: RuleSet, file: ScanFile): Promise<RuleHit[]> {
  await ensureLanguages();
  const hits: RuleHit[] = [];
  for (const [parser, rules] of rulesForFile(set, file)) {
    const text = file.language === "dockerfile" ? shellView(file.text) : file.text;
    if (text === undefined) continue;
    hits.push(...scanText(text, parser, rules));
  }
  return sortHits(hits);
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
  const text = rule.language === "dockerfile" ? shellView(snippet) : snippet;
  return text === undefined ? [] : scanText(text, primaryParser(rule.language), [rule]);
}

function hit(rule: LoadedRule, node: SgNode, source: string): RuleHit {
  const { start, end } = node.range();
  return {
    rule,
    start,
    end,
    message: interpolateMessage(rule.message, node),
    edit: rule.fix !== undefined ? fixEdit(rule.fix, node, source) : undefined,
  };
}

const MESSAGE_VAR = /\$\$\$([A-Z_][A-Z0-9_]*)|\$([A-Z_][A-Z0-9_]*)/g;

function interpolateMessage(message: string, node: SgNode): string {
  if (!message.includes("$")) return message;
  return message.replace(MESSAGE_VAR, (whole, multi: string | undefined, single: string | undefined) => {
    if (multi) {
      const nodes = node.getMultipleMatches(multi);
      return nodes.length ? nodes.map((n) => n.text()).join(", ") : whole;
    }
    return node.getMatch(single!)?.text() ?? whole;
  });
}

function sortHits(hits: RuleHit[]): RuleHit[] {
  return hits.sort((a, b) =>
    a.start.index - b.start.index || a.end.index - b.end.index ||
    (a.rule.id < b.rule.id ? -1 : a.rule.id > b.rule.id ? 1 : 0)
  );
}
