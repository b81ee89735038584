/**
 * What the ast-grep command line is given for a batch (see `batch.ts`): the
 * effective rule set emitted as command-line rules, the generated `sgconfig.yml`
 * (custom languages for the parsers napi also uses), and which files go to it
 * with which parser. Running it and turning its output into hits stay in
 * `batch.ts`.
 *
 * @module
 */
import type { Language } from "../types.ts";
import { parserFiles, type ParserName, POLY_LANGUAGES_OF, primaryParser } from "./languages.ts";
import type { ScanFile } from "./select.ts";
import type { LoadedRule, RuleSet } from "../../rules/types.ts";

/** The language name the command line uses for each parser it runs for poly. */
export const CLI_LANGUAGE: Partial<Record<ParserName, string>> = {
  JavaScript: "JavaScript",
  TypeScript: "TypeScript",
  Tsx: "Tsx",
  Html: "Html",
  Css: "Css",
  python: "polypython",
  go: "polygo",
  rust: "polyrust",
  bash: "polybash",
  yaml: "polyyaml",
};

/** File extension → the parser the command line uses under the generated sgconfig.yml. */
const CLI_PARSER_OF_EXTENSION: Record<string, ParserName> = {
  ts: "TypeScript",
  mts: "TypeScript",
  cts: "TypeScript",
  tsx: "Tsx",
  js: "JavaScript",
  mjs: "JavaScript",
  cjs: "JavaScript",
  jsx: "JavaScript",
  html: "Html",
  htm: "Html",
  css: "Css",
  py: "python",
  pyi: "python",
  go: "go",
  rs: "rust",
  sh: "bash",
  bash: "bash",
  yml: "yaml",
  yaml: "yaml",
};

/** The extensions of the custom (dynamic) languages: exactly those above. */
const CUSTOM_EXTENSIONS: Record<string, string[]> = {};
for (const [ext, parser] of Object.entries(CLI_PARSER_OF_EXTENSION)) {
  if (CLI_LANGUAGE[parser]!.startsWith("poly")) (CUSTOM_EXTENSIONS[parser] ??= []).push(ext);
}

/** The parser the command line would use for `path`, or undefined. */
export function cliParserOf(path: string): ParserName | undefined {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return undefined;
  return Object.hasOwn(CLI_PARSER_OF_EXTENSION, name.slice(dot + 1))
    ? CLI_PARSER_OF_EXTENSION[name.slice(dot + 1)]
    : undefined;
}

/** One emitted command-line rule: the poly rule and the parser it runs under. */
export interface Emitted {
  rule: LoadedRule;
  parser: ParserName;
}

/** The effective rule set as the command line gets it. */
export interface CliRuleSet {
  emitted: Emitted[];
  /** The rule file: one YAML (JSON) document per emitted rule. */
  rules: string;
  /** The parsers any emitted rule runs under. */
  parsers: Set<ParserName>;
  /** Per parser, the poly languages its emitted rules apply to. */
  languages: Map<ParserName, Set<Language>>;
}

const ruleSets = new WeakMap<RuleSet, CliRuleSet>();

/**
 * The enabled rules of `set` as command-line rules, each under its own language's
 * parser (the command line gives it the extensions ast-grep maps to that language,
 * as napi does: `_langs.ts`); `dockerfile` rules stay with napi. Ids are `poly-<n>`; the
 * severity is `hint` for all (poly applies its own), with neither message nor
 * note (poly fills them in), and a fix only where it widens the range
 * (`expandStart`/`expandEnd`), for the command line's `replacementOffsets`.
 */
export function cliRuleSet(set: RuleSet): CliRuleSet {
  let out = ruleSets.get(set);
  if (out) return out;
  const emitted: Emitted[] = [];
  const docs: string[] = [];
  const parsers = new Set<ParserName>();
  const languages = new Map<ParserName, Set<Language>>();
  for (const rule of set.rules) {
    if (!rule.enabled) continue;
    const targets: ParserName[] = rule.language === "dockerfile" ? [] : [primaryParser(rule.language)];
    // The rule whole, its regexes included: one process compiles them once (the split that keeps
    // them out of napi's per-call compile would have the command line print every node the rest
    // matches, ~18 MB for 18 findings on hono, for poly to filter).
    const native = rule.matcher;
    for (const parser of targets) {
      const doc: Record<string, unknown> = {
        id: `poly-${emitted.length}`,
        language: CLI_LANGUAGE[parser],
        severity: "hint",
        rule: native.rule,
      };
      if (native.constraints) doc.constraints = native.constraints;
      if (native.utils) doc.utils = native.utils;
      if (typeof rule.fix === "object" && (rule.fix.expandStart || rule.fix.expandEnd)) {
        doc.fix = {
          template: "",
          ...(rule.fix.expandStart ? { expandStart: rule.fix.expandStart } : {}),
          ...(rule.fix.expandEnd ? { expandEnd: rule.fix.expandEnd } : {}),
        };
      }
      emitted.push({ rule, parser });
      parsers.add(parser);
      const covered = languages.get(parser) ?? new Set<Language>();
      for (const language of POLY_LANGUAGES_OF[rule.language]) covered.add(language);
      languages.set(parser, covered);
      docs.push(JSON.stringify(doc));
    }
  }
  out = { emitted, rules: docs.join("\n---\n") + "\n", parsers, languages };
  ruleSets.set(set, out);
  return out;
}

/** The sgconfig.yml for `cli` (JSON is YAML). */
export async function sgconfig(cli: CliRuleSet): Promise<string> {
  const config: Record<string, unknown> = {
    ruleDirs: ["rules"],
  };
  const libraries = await parserFiles();
  const custom: Record<string, unknown> = {};
  for (const parser of cli.parsers) {
    const name = CLI_LANGUAGE[parser]!;
    if (!name.startsWith("poly")) continue;
    const lib = libraries[parser];
    custom[name] = {
      libraryPath: lib.libraryPath,
      extensions: CUSTOM_EXTENSIONS[parser],
      ...(lib.languageSymbol ? { languageSymbol: lib.languageSymbol } : {}),
      ...(lib.expandoChar ? { expandoChar: lib.expandoChar } : {}),
    };
  }
  if (Object.keys(custom).length) config.customLanguages = custom;
  return JSON.stringify(config) + "\n";
}

/**
 * Whether the command line can see exactly `file.text`, and scan it as the napi
 * path would (without a text: whether it could, as far as its path tells).
 */
function cliEligible(file: CliFile): boolean {
  if (file.language === "dockerfile") return false;
  if (/[\r\n]/.test(file.path)) return false;
  // The command line honours suppression comments; napi does not.
  return file.text === undefined || !file.text.includes("ast-grep-ignore");
}

/** A file as the command line is chosen for: its text once read. */
export type CliFile = Omit<ScanFile, "text"> & { text?: string };

/**
 * The parser the command line would take `file` with, when some emitted rule
 * could apply to it (language only: `files`/`ignores` are applied afterwards).
 */
export function cliCandidate(cli: CliRuleSet, file: CliFile): ParserName | undefined {
  if (!cliEligible(file)) return undefined;
  const parser = cliParserOf(file.path);
  return parser && cli.languages.get(parser)?.has(file.language) ? parser : undefined;
}
