/**
 * What the run pipeline hands the ast-grep engine, and how the engine and the
 * pipeline get the rule set from it.
 *
 * The pipeline passes the `[rules]` table as `settings.rules` and the governing
 * config's directory as `settings.configDir` (plan.ts, for cross-cutting
 * engines). It reports `set.errors` as run-level errors (exit 2) — see
 * {@link ruleLoadRunErrors} — and adds `set.digest` to the "rules" cache key.
 *
 * @module
 */
import { relative } from "node:path";
import type { EngineSettings } from "../types.ts";
import type { RunError } from "../../report/schema.ts";
import { formatLoadError, loadRuleSet } from "../../rules/load.ts";

export { revalidateRuleSets } from "../../rules/load.ts";
import type { RuleSet } from "../../rules/types.ts";

/** Where the rule set comes from: an engine's settings, or the same fields given directly. */
export type RulesSource = Pick<EngineSettings, "rules" | "configDir"> & { tool?: Record<string, unknown> };

/**
 * The rule set for an engine's settings (memoized per distinct input). Reads
 * `settings.rules` / `settings.configDir`, falling back to the same keys in
 * `settings.tool`, then to `fallbackDir`.
 *
 * @example
 * ```ts
 * const set = await ruleSetFor({ rules: config.data.rules, configDir: config.dir });
 * ```
 */
export function ruleSetFor(settings: RulesSource, fallbackDir?: string): Promise<RuleSet> {
  const tool = settings.tool ?? {};
  const configDir = settings.configDir ?? (typeof tool.configDir === "string" ? tool.configDir : undefined) ??
    fallbackDir ?? Deno.cwd();
  return loadRuleSet(configDir, settings.rules ?? tool.rules);
}

/**
 * The rule set's load problems as a report's run-level errors, paths relative to
 * `cwd` where they lie below it. The pipeline adds these once per distinct config.
 */
export async function ruleLoadRunErrors(settings: RulesSource, cwd: string): Promise<RunError[]> {
  const set = await ruleSetFor(settings);
  return set.errors.map((e) => {
    const rel = e.file.startsWith("builtin:") ? e.file : relative(cwd, e.file).replaceAll("\\", "/");
    const path = rel.startsWith("..") || rel === "" ? e.file : rel;
    return { path, message: formatLoadError({ ...e, file: path }) };
  });
}

/**
 * What the "rules" cache namespace must add to its key besides the settings: the
 * rule set's folder and digest (rule files' bytes and configuration, paths relative
 * to that folder), as JSON, so the key names the folder relative to the repository
 * as it does the settings' paths (cache/relocate.ts).
 */
export async function rulesCacheSalt(settings: RulesSource): Promise<string> {
  const set = await ruleSetFor(settings);
  return JSON.stringify([set.configDir, set.digest]);
}
