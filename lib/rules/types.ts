/**
 * Types of a loaded rule set: rules, their tests, and the problems found while
 * loading them.
 *
 * @module
 */
import type { RuleSeverityLevel } from "./config.ts";
import type { RuleLanguage } from "../engines/ast_grep/languages.ts";
import type { FixField } from "./_schema.ts";

export type { FixField };

/** Where a rule comes from. */
export type RuleOrigin = "builtin" | "user";

/** A problem with a rule or test file, or with the `[rules]` configuration. Reported, never thrown. */
export interface RuleLoadError {
  /** The file at fault: absolute for user files and poly.toml, `builtin:<lang>/<file>` for the built-in pack. */
  file: string;
  line?: number;
  column?: number;
  message: string;
}

/** The rule expression handed to ast-grep (`rule`, `constraints`, `utils`). */
export interface MatcherConfig {
  rule: Record<string, unknown>;
  constraints?: Record<string, Record<string, unknown>>;
  utils?: Record<string, Record<string, unknown>>;
}

/** One rule, loaded, checked and configured. */
export interface LoadedRule {
  id: string;
  /** The rule language (canonical). */
  language: RuleLanguage;
  origin: RuleOrigin;
  /** Absolute path, or `builtin:<lang>/<file>` for the built-in pack. */
  file: string;
  /** 1-based line where the rule's document starts. */
  line: number;
  /** The severity the rule file gives. */
  defaultSeverity: RuleSeverityLevel;
  /** The severity under the configuration (`off` when disabled). */
  severity: RuleSeverityLevel;
  enabled: boolean;
  /** The message (may name metavariables such as `$X`). */
  message: string;
  note?: string;
  url?: string;
  fix?: FixField;
  matcher: MatcherConfig;
  /** Globs the file must match (relative to the config directory); empty means every file. */
  files: string[];
  /** Globs the file must not match (the rule's own plus the override's). */
  ignores: string[];
  /**
   * A built-in rule's `metadata.poly-needs`: a JavaScript regular expression the text of every file holding a match
   * matches; the literal pre-filter adds it to what it works out itself.
   */
  needs?: string;
}

/** One `<id>-test.yml` document. */
export interface RuleTestCase {
  id: string;
  file: string;
  line: number;
  valid: string[];
  invalid: string[];
}

/** Everything a run applies: the rules, their tests, the load problems, and a digest of it all. */
export interface RuleSet {
  /** The directory `files`/`ignores` globs and `[rules] dirs` are relative to. */
  configDir: string;
  /** Every rule that loaded, enabled or not, built-in first, then user directories in order. */
  rules: LoadedRule[];
  tests: RuleTestCase[];
  /** Problems with rule files and the `[rules]` configuration: run-level errors (exit 2). */
  errors: RuleLoadError[];
  /** Problems with test files: failures of `poly rules test`, not of a lint run. */
  testErrors: RuleLoadError[];
  /** The user rule directories that were read (absolute). */
  dirs: string[];
  /**
   * SHA-256 over the rule files' bytes and names and the configuration, with paths relative to `configDir` (the same
   * in every checkout of a repository): with the settings' `configDir`, part of the result-cache key.
   */
  digest: string;
}
