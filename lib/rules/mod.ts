/**
 * Structural rules: ast-grep rule packs (the built-in pack in `builtin/` plus
 * `[rules] dirs`), the `[rules]` table, their loading and checking, their tests,
 * and the `poly rules` / MCP `rules` document.
 *
 * Running them over files is the ast-grep engine's (`lib/engines/ast_grep/`):
 * `mod.ts` is the engine `poly lint` runs, `settings.ts` how the run pipeline gets
 * the rule set, `diagnose.ts` rule matches as diagnostics and fixes, `scan.ts`
 * the napi scanner, `select.ts` which rules a file gets, `batch.ts` one
 * `ast-grep scan` process for many files.
 *
 * @example
 * ```ts
 * import { loadRuleSet, rulesDocument } from "./mod.ts";
 * const set = await loadRuleSet("/repo", { dirs: [".poly/rules"] });
 * const doc = await rulesDocument({ cwd: "/repo", test: true });
 * ```
 *
 * @module
 */
export { DEFAULT_RULES_TABLE, RuleOverride, RuleSeverityLevel, RulesTable, type RulesTableInput } from "./config.ts";
export { clearRuleSetCache, formatLoadError, loadRuleSet, type LoadRuleSetOptions } from "./load.ts";
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
