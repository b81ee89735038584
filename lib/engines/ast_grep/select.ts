/**
 * Which rules a file gets: the enabled rules of its language and extension, their
 * `files`/`ignores` globs, and which of them may match in its text at all (the
 * literal pre-filter, `_needs.ts`). No parser is loaded here: the command line's
 * batches choose their files with it alone (`batch.ts`); `scan.ts` runs the rules.
 *
 * @module
 */
import picomatch from "picomatch";
import { extname, isAbsolute, relative, resolve, sep } from "node:path";
import { shellView } from "./_dockerfile.ts";
import { hasNeed, mayMatch } from "./_needs.ts";
import { parserFor, type ParserName, POLY_LANGUAGES_OF } from "./languages.ts";
import type { Language } from "../types.ts";
import type { LoadedRule, RuleSet } from "../../rules/types.ts";

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
  /** All of them by parser: the groups of every such file no rule's `files`/`ignores` leaves out. */
  groups: ReadonlyMap<ParserName, readonly LoadedRule[]>;
  /** Some filter by path. */
  filtered: boolean;
}

/** The rule languages ast-grep runs on HTML's embedded blocks, by the parser of the block (`scan.ts`: `blocksOf`). */
const INJECTED: Partial<Record<string, ParserName>> = { javascript: "JavaScript", css: "Css" };

/** By set, language and extension (maps of maps: no key string made per file). */
const applicableBySet = new WeakMap<RuleSet, Map<Language, Map<string, ApplicableSet>>>();

/** The enabled rules for a language and extension, with their parsers (once per set: a run asks per file). */
function applicable(set: RuleSet, language: Language, ext: string): ApplicableSet {
  let bySet = applicableBySet.get(set);
  if (!bySet) applicableBySet.set(set, bySet = new Map());
  let byExt = bySet.get(language);
  if (!byExt) bySet.set(language, byExt = new Map());
  let found = byExt.get(ext);
  if (!found) {
    const rules: Applicable[] = [];
    for (const rule of set.rules) {
      if (!rule.enabled) continue;
      // HTML's `<script>` and `<style>` blocks take JavaScript's and CSS's rules, as `ast-grep scan` injects them.
      const injected = language === "html" ? INJECTED[rule.language] : undefined;
      if (!injected && !POLY_LANGUAGES_OF[rule.language].includes(language)) continue;
      const parser = injected ?? parserFor(rule.language, { path: "", language }, ext);
      if (!parser) continue;
      const { files, ignores } = fileFilter(rule);
      rules.push({ rule, parser, filtered: files !== undefined || ignores !== undefined });
    }
    found = {
      rules,
      decides: rules.every(({ rule }) => hasNeed(rule)),
      groups: groupByParser(rules),
      filtered: rules.some(({ filtered }) => filtered),
    };
    byExt.set(ext, found);
  }
  return found;
}

/**
 * Whether the text of a file of this language and path can rule out every rule
 * that applies to it (each has a need, `_needs.ts`): then it is worth reading
 * the text before scanning the file (once per set, language and extension).
 */
export function textDecides(set: RuleSet, language: Language, path: string): boolean {
  return applicable(set, language, extname(path)).decides;
}

/** The text a file's rules run on: a Dockerfile's shell view, else the text itself (undefined: nothing to scan). */
export function scannedText(file: ScanFile): string | undefined {
  return file.language === "dockerfile" ? shellView(file.text) : file.text;
}

/** `rules` without those that cannot match in `text` (the literal pre-filter). */
export function mayMatchIn(rules: readonly LoadedRule[], text: string): LoadedRule[] {
  return rules.filter((rule) => mayMatch(rule, text));
}

/**
 * The enabled rules that apply to `file`, grouped by the parser each one needs
 * (read-only: files of one language and extension share them unless some rule's
 * `files`/`ignores` leaves the file out).
 */
export function rulesForFile(set: RuleSet, file: ScanFile): ReadonlyMap<ParserName, readonly LoadedRule[]> {
  const { rules, groups, filtered } = applicable(set, file.language, extname(file.path));
  if (!filtered) return groups;
  const rel = globPath(file.path, set.configDir);
  const covered = rules.filter(({ rule, filtered }) => !filtered || coversRel(rule, rel));
  return covered.length === rules.length ? groups : groupByParser(covered);
}

function groupByParser(rules: readonly Applicable[]): Map<ParserName, LoadedRule[]> {
  const groups = new Map<ParserName, LoadedRule[]>();
  for (const { rule, parser } of rules) {
    const group = groups.get(parser);
    if (group) group.push(rule);
    else groups.set(parser, [rule]);
  }
  return groups;
}
