/**
 * Running rules over text: which rules apply to a file (language, `files`,
 * `ignores`), which of those may match in its text at all (the literal
 * pre-filter, `_needs.ts`), one parse per parser, one `findAll` per rule.
 *
 * @module
 */
import { parse, type SgNode } from "@ast-grep/napi";
import picomatch from "picomatch";
import { extname, isAbsolute, relative, resolve, sep } from "node:path";
import { shellView } from "./_dockerfile.ts";
import { expandedRange, fixEditAt, type TextEdit } from "./_fix.ts";
import type { MatchNode, Position16 } from "./_match.ts";
import { splitRule } from "./_split.ts";
import { hasNeed, mayMatch } from "./_needs.ts";
import { ensureLanguages, napiLang, parserFor, type ParserName, POLY_LANGUAGES_OF, primaryParser } from "./_langs.ts";
import type { Language } from "../engines/types.ts";
import type { LoadedRule, RuleSet } from "./types.ts";

export type { Position16 };

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
    m = {
      files: rule.files.length ? globsMatcher(rule.files) : undefined,
      ignores: rule.ignores.length ? globsMatcher(rule.ignores) : undefined,
    };
    matchers.set(rule, m);
  }
  return m;
}

/**
 * Whether a `/`-separated relative path matches any of `globs` (picomatch, dot
 * files included): their regular expressions joined into one, so a file costs
 * one test rather than one per glob (a rule's `ignores` often lists eight).
 */
export function globsMatcher(globs: readonly string[]): Matcher {
  const res = globs.map((glob) => picomatch.makeRe(glob, { dot: true }));
  if (res.some((re) => re.flags !== res[0].flags)) return picomatch([...globs], { dot: true });
  const one = new RegExp(res.map((re) => `(?:${re.source})`).join("|"), res[0].flags);
  return (path) => path !== "" && one.test(path);
}

/** Whether `rule`'s `files`/`ignores` let it apply to `path` (relative to `configDir` where possible). */
export function ruleCoversPath(rule: LoadedRule, path: string, configDir: string): boolean {
  const { files, ignores } = fileFilter(rule);
  if (!files && !ignores) return true;
  return coversRel(rule, globPath(path, configDir));
}

/** A POSIX absolute path without `.`/`..` segments, doubled or trailing slashes. */
const PLAIN_ABSOLUTE = /^\/(?!.*\/\/)(?!.*\/\.\.?(?:\/|$))(?:.*[^/])?$/;

let lastDir: { dir: string; plain: boolean } | undefined;

/** `resolve(dir, path)`, without its cost for the plain absolute paths a run passes (thousands per batch). */
export function absolutePath(dir: string, path: string): string {
  return sep === "/" && PLAIN_ABSOLUTE.test(path) ? path : resolve(dir, path);
}

/** {@link PLAIN_ABSOLUTE} for a config directory (the same one for every file of a run). */
function plainDir(dir: string): boolean {
  if (lastDir?.dir !== dir) lastDir = { dir, plain: PLAIN_ABSOLUTE.test(dir) };
  return lastDir.plain;
}

/** The path `files`/`ignores` globs see: relative to `configDir` where it lies below it, `/`-separated. */
function globPath(path: string, configDir: string): string {
  // Fast path (thousands of files per run): what relative() gives for plain paths below configDir.
  if (
    sep === "/" && path.length > configDir.length + 1 && path.startsWith(configDir) &&
    path[configDir.length] === "/" && PLAIN_ABSOLUTE.test(path) && plainDir(configDir)
  ) {
    return path.slice(configDir.length + 1);
  }
  let rel = isAbsolute(path) ? relative(configDir, path) : path;
  if (rel.startsWith("..")) rel = path;
  return rel.replaceAll("\\", "/");
}

function coversRel(rule: LoadedRule, rel: string): boolean {
  const { files, ignores } = fileFilter(rule);
  if (files && !files(rel)) return false;
  return !(ignores && ignores(rel));
}

/** A rule that may apply to files of one language and extension: its parser, and whether it filters by path. */
interface Applicable {
  rule: LoadedRule;
  parser: ParserName;
  filtered: boolean;
}

/** The rules that may apply to files of one language and extension, and whether a text can rule out all of them. */
interface ApplicableSet {
  rules: Applicable[];
  /** Every one has a need (`_needs.ts`). */
  decides: boolean;
}

const applicableBySet = new WeakMap<RuleSet, Map<string, ApplicableSet>>();

/** The enabled rules for a language and extension, with their parsers (once per set: a run asks per file). */
function applicable(set: RuleSet, language: Language, ext: string): ApplicableSet {
  let bySet = applicableBySet.get(set);
  if (!bySet) applicableBySet.set(set, bySet = new Map());
  const key = `${language}\0${ext}`;
  let found = bySet.get(key);
  if (!found) {
    const rules: Applicable[] = [];
    for (const rule of set.rules) {
      if (!rule.enabled || !POLY_LANGUAGES_OF[rule.language].includes(language)) continue;
      const parser = parserFor(rule.language, { path: "", language }, ext);
      if (!parser) continue;
      const { files, ignores } = fileFilter(rule);
      rules.push({ rule, parser, filtered: files !== undefined || ignores !== undefined });
    }
    found = { rules, decides: rules.every(({ rule }) => hasNeed(rule)) };
    bySet.set(key, found);
  }
  return found;
}

/**
 * Whether the text of a file of this language and path can rule out every rule
 * that applies to it (each has a need, `_needs.ts`): then it is worth reading
 * the text before scanning the file (once per set, language and extension).
 */
export function textDecides(set: RuleSet, language: Language, path: string): boolean {
  return applicable(set, language, extname(path).toLowerCase()).decides;
}

/** The text a file's rules run on: a Dockerfile's shell view, else the text itself (undefined: nothing to scan). */
export function scannedText(file: ScanFile): string | undefined {
  return file.language === "dockerfile" ? shellView(file.text) : file.text;
}

/** `rules` without those that cannot match in `text` (the literal pre-filter). */
export function mayMatchIn(rules: readonly LoadedRule[], text: string): LoadedRule[] {
  return rules.filter((rule) => mayMatch(rule, text));
}

/** The enabled rules that apply to `file`, grouped by the parser each one needs. */
export function rulesForFile(set: RuleSet, file: ScanFile): Map<ParserName, LoadedRule[]> {
  const groups = new Map<ParserName, LoadedRule[]>();
  let rel: string | undefined;
  for (const { rule, parser, filtered } of applicable(set, file.language, extname(file.path).toLowerCase()).rules) {
    if (filtered) {
      rel ??= globPath(file.path, set.configDir);
      if (!coversRel(rule, rel)) continue;
    }
    const group = groups.get(parser);
    if (group) group.push(rule);
    else groups.set(parser, [rule]);
  }
  return groups;
}

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
    if (live.length > 0) hits.push(...scanText(text, parser, live));
  }
  return hits;
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
  return matchHit(rule, node, source, rule.fix !== undefined ? expandedRange(rule.fix, node) : undefined);
}

/**
 * A match as a hit: its range, its message with metavariables filled in, and
 * its fix over `editRange` (the range the fix replaces, UTF-16 indexes; given
 * when the rule has a fix).
 */
export function matchHit(
  rule: LoadedRule,
  node: MatchNode,
  source: string,
  editRange?: { start: number; end: number },
): RuleHit {
  const { start, end } = node.range();
  return {
    rule,
    start,
    end,
    message: interpolateMessage(rule.message, node),
    edit: rule.fix !== undefined && editRange
      ? fixEditAt(rule.fix, node, source, editRange.start, editRange.end)
      : undefined,
  };
}

const MESSAGE_VAR = /\$\$\$([A-Z_][A-Z0-9_]*)|\$([A-Z_][A-Z0-9_]*)/g;

function interpolateMessage(message: string, node: MatchNode): string {
  if (!message.includes("$")) return message;
  return message.replace(MESSAGE_VAR, (whole, multi: string | undefined, single: string | undefined) => {
    if (multi) {
      const nodes = node.getMultipleMatches(multi);
      return nodes.length ? nodes.map((n) => n.text()).join(", ") : whole;
    }
    return node.getMatch(single!)?.text() ?? whole;
  });
}

/**
 * Sorts hits into report order: by start, then end, then rule id; exact ties
 * (one rule matching two nodes of the same range) by message, then fix, so the
 * order does not depend on the order matches were found in.
 */
export function sortHits(hits: RuleHit[]): RuleHit[] {
  return hits.sort((a, b) =>
    a.start.index - b.start.index || a.end.index - b.end.index || compare(a.rule.id, b.rule.id) ||
    compare(a.message, b.message) || compare(editKey(a), editKey(b))
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function editKey(hit: RuleHit): string {
  return hit.edit ? `${hit.edit.start}:${hit.edit.end}:${hit.edit.text}` : "";
}
