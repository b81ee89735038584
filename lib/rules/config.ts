/**
 * The `[rules]` table of poly.toml: where user rule packs live and how each rule
 * is configured. Imported by the config schema, so it depends on zod only.
 *
 * ```toml
 * [rules]
 * dirs = [".poly/rules"]         # user rule directories, relative to this poly.toml
 * builtin = true                 # apply the built-in pack (default true)
 *
 * [rules.overrides."no-debugger"]
 * severity = "warning"           # off | hint | info | warning | error
 *
 * [rules.overrides."py-print-in-library"]
 * enabled = false
 *
 * [rules.overrides."ts-console-log"]
 * ignores = ["scripts/**"]       # extra globs (relative to this poly.toml) the rule skips
 * ```
 *
 * @module
 */
import { z } from "zod";

/** A rule's severity as configured: `off` disables the rule. */
export const RuleSeverityLevel = z.enum(["off", "hint", "info", "warning", "error"]);
/** A rule's severity as configured. */
export type RuleSeverityLevel = z.infer<typeof RuleSeverityLevel>;

/** `[rules.overrides."<id>"]`: per-rule configuration. */
export const RuleOverride = z.strictObject({
  /** Replaces the rule's own severity; `off` disables it. */
  severity: RuleSeverityLevel.optional(),
  /** `false` disables the rule (same as `severity = "off"`). */
  enabled: z.boolean().optional(),
  /** Extra gitignore-style globs, relative to the config's directory, of files the rule skips. */
  ignores: z.array(z.string()).optional(),
});
/** Per-rule configuration. */
export type RuleOverride = z.infer<typeof RuleOverride>;

/** The `[rules]` table. */
export const RulesTable = z.strictObject({
  /** User rule directories, relative to the config file's directory. */
  dirs: z.array(z.string()).default([".poly/rules"]),
  /** Whether the built-in pack applies. */
  builtin: z.boolean().default(true),
  /** Per-rule configuration keyed by rule id. Unknown ids are reported when the rules load. */
  overrides: z.record(z.string(), RuleOverride).default({}),
});
/** The `[rules]` table with defaults applied. */
export type RulesTable = z.infer<typeof RulesTable>;

/** The `[rules]` table as written (before defaults). */
export type RulesTableInput = z.input<typeof RulesTable>;

/** The table's value when poly.toml has no `[rules]`. */
export const DEFAULT_RULES_TABLE: RulesTable = RulesTable.parse({});
