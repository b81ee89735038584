/**
 * Structural rules: ast-grep rule packs (the built-in pack in `builtin/` plus
 * `[rules] dirs`), their loading and checking, running them over files, their
 * fixes, their tests, and the `poly rules` / MCP `rules` document.
 *
 * The engine that runs them in `poly lint` is `lib/engines/ast_grep.ts`; its batch
 * path (`lintBatch`, one `ast-grep scan` process for many files) is `batch.ts`.
 *
 * @example
 * ```ts
 * import { lintWithRules, loadRuleSet, rulesDocument } from "./mod.ts";
 * const set = await loadRuleSet("/repo", { dirs: [".poly/rules"] });
 * const diagnostics = await lintWithRules(set, { path: "/repo/a.ts", language: "typescript", text: "debugger;\n" });
 * const doc = await rulesDocument({ cwd: "/repo", test: true });
 * ```
 *
 * @module
 */
export { DEFAULT_RULES_TABLE, RuleOverride, RuleSeverityLevel, RulesTable, type RulesTableInput } from "./config.ts";
export { clearRuleSetCache, formatLoadError, loadRuleSet, type LoadRuleSetOptions } from "./load.ts";
export { ruleLoadRunErrors, rulesCacheSalt, ruleSetFor, type RulesSource } from "../engines/ast_grep/settings.ts";
export {
  ENGINE_ID,
  type FixResult,
  fixWithRules,
  lintWithRules,
  MAX_FIX_PASSES,
  toDiagnostic,
} from "../engines/ast_grep/diagnose.ts";
export { scanFile, scanSnippet, scanText } from "../engines/ast_grep/scan.ts";
export { rulesForFile, type ScanFile } from "../engines/ast_grep/select.ts";
export type { RuleHit } from "../engines/ast_grep/hit.ts";
export { type BatchResult, type BatchStats, lintBatch } from "../engines/ast_grep/batch.ts";
export { type RulesTestReport, type RuleTestResult, type SnippetFailure, testRules } from "./test.ts";
export {
  describeRuleError,
  type RuleEntry,
  type RuleErrorEntry,
  type RulesDocument,
  rulesDocument,
  rulesExitCode,
  type RulesRequest,
} from "./report.ts";
export { renderRulesList, renderRulesTest } from "./human.ts";
export type { LoadedRule, MatcherConfig, RuleLoadError, RuleOrigin, RuleSet, RuleTestCase } from "./types.ts";
export { RULE_LANGUAGES, type RuleLanguage } from "../engines/ast_grep/languages.ts";
