/**
 * Loading a rule set: the built-in pack, then each `[rules] dirs` directory in
 * order; ids checked for uniqueness; `[rules.overrides]` applied. Problems are
 * collected, never thrown, so one bad file costs only its own rules.
 *
 * @module
 */
import { blake3 } from "hash-wasm";
import { isAbsolute, join, normalize, resolve } from "node:path";
import { RulesTable } from "./config.ts";
import { builtinFiles, type RuleFileEntry, userFiles } from "./_files.ts";
import { ensureLanguages } from "./_langs.ts";
import { isTestFile, parseRuleFile } from "./_parse.ts";
import { applyOverrides } from "./_overrides.ts";
import type { LoadedRule, RuleLoadError, RuleSet } from "./types.ts";

/** Bumped when the meaning of a digest changes. */
const DIGEST_VERSION = "rules/1";

/** The default user rule directory (`[rules] dirs` default): silently skipped when it does not exist. */
const DEFAULT_DIR = ".poly/rules";

/** Options for {@link loadRuleSet}. */
export interface LoadRuleSetOptions {
  /** Replaces `[rules] dirs` (absolute, or relative to `configDir`): `poly rules --dir`. */
  dirs?: string[];
  /** The config file named in messages about `[rules]` (default `<configDir>/poly.toml`). */
  configFile?: string;
}

const memo = new Map<string, Promise<RuleSet>>();

/**
 * The rule set for a configuration directory and its `[rules]` table, loaded once
 * per process for each distinct input.
 *
 * @example
 * ```ts
 * const set = await loadRuleSet("/repo", { dirs: [".poly/rules"] });
 * for (const e of set.errors) console.error(formatLoadError(e));
 * ```
 */
export function loadRuleSet(configDir: string, table?: unknown, options: LoadRuleSetOptions = {}): Promise<RuleSet> {
  const key = JSON.stringify([configDir, table ?? null, options.dirs ?? null, options.configFile ?? null]);
  let set = memo.get(key);
  if (!set) {
    set = load(configDir, table, options);
    memo.set(key, set);
  }
  return set;
}

/** Forgets every loaded rule set (tests that rewrite rule files). */
export function clearRuleSetCache(): void {
  memo.clear();
}

/** A load error as `file:line:col: message`. */
export function formatLoadError(error: RuleLoadError): string {
  const where = [error.file, error.line, error.column].filter((p) => p !== undefined).join(":");
  return `${where}: ${error.message}`;
}

async function load(configDir: string, rawTable: unknown, options: LoadRuleSetOptions): Promise<RuleSet> {
  await ensureLanguages();
  const configFile = options.configFile ?? join(configDir, "poly.toml");
  const errors: RuleLoadError[] = [];
  const parsedTable = RulesTable.safeParse(rawTable ?? {});
  if (!parsedTable.success) {
    for (const issue of parsedTable.error.issues) {
      const path = ["rules", ...issue.path.map(String)].join(".");
      errors.push({ file: configFile, message: `[${path}]: ${issue.message}` });
    }
  }
  const table = parsedTable.success ? parsedTable.data : RulesTable.parse({});
  const dirs = (options.dirs ?? table.dirs).map((d) => (isAbsolute(d) ? d : resolve(configDir, d)));

  const entries: RuleFileEntry[] = table.builtin ? await builtinFiles() : [];
  for (const dir of dirs) {
    try {
      entries.push(...await userFiles(dir));
    } catch (error) {
      // The default directory is optional; any other configured directory must exist.
      const isDefault = !options.dirs && normalize(dir).replaceAll("\\", "/").endsWith("/" + DEFAULT_DIR);
      if (error instanceof Deno.errors.NotFound && isDefault) continue;
      errors.push({ file: dir, message: `rule directory cannot be read: ${errorText(error)}` });
    }
  }

  const rules: LoadedRule[] = [];
  const byId = new Map<string, LoadedRule>();
  const tests: RuleSet["tests"] = [];
  const testErrors: RuleLoadError[] = [];
  const hashed: string[] = [];
  for (const entry of entries) {
    const origin = entry.display.startsWith("builtin:") ? "builtin" : "user";
    let text: string;
    try {
      text = await Deno.readTextFile(entry.path);
    } catch (error) {
      (isTestFile(entry.path) ? testErrors : errors).push({
        file: entry.display,
        message: `cannot be read: ${errorText(error)}`,
      });
      continue;
    }
    hashed.push(entry.display, text);
    const parsed = parseRuleFile(text, entry.display, origin);
    tests.push(...parsed.tests);
    errors.push(...parsed.errors);
    testErrors.push(...parsed.testErrors);
    for (const rule of parsed.rules) {
      const previous = byId.get(rule.id);
      if (previous) {
        errors.push({
          file: rule.file,
          line: rule.line,
          column: 1,
          message:
            `rule id "${rule.id}" is already defined in ${previous.file}:${previous.line}: ids must be unique across packs, rename one`,
        });
        continue;
      }
      byId.set(rule.id, rule);
      rules.push(rule);
    }
  }
  errors.push(...await applyOverrides(rules, table, configFile));
  const digest = await blake3(JSON.stringify([DIGEST_VERSION, configDir, table, dirs, hashed]));
  return { configDir, rules, tests, errors, testErrors, dirs, digest };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
