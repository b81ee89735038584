/**
 * `poly rules list` / `poly rules test` and the MCP `rules` tool: one library
 * call returning a plain JSON document.
 *
 * @module
 */
import { isAbsolute, relative, resolve } from "node:path";
import { openConfig } from "../config/load.ts";
import type { RuleSeverityLevel } from "./config.ts";
import { formatLoadError, loadRuleSet } from "./load.ts";
import { type RulesTestReport, testRules } from "./test.ts";
import type { RuleLoadError, RuleOrigin } from "./types.ts";

/** What to list or test. */
export interface RulesRequest {
  /** The directory the request is made from (the CLI's cwd, the server's root). */
  cwd: string;
  /** `--config PATH`: use exactly this config file. */
  config?: string;
  /** Rule directories replacing `[rules] dirs` (relative to `cwd`); empty means the config's. */
  dirs?: string[];
  /** Also run the `<id>-test.yml` cases. */
  test?: boolean;
}

/** One rule as listed. */
export interface RuleEntry {
  id: string;
  language: string;
  source: RuleOrigin;
  default_severity: RuleSeverityLevel;
  /** The severity under the resolved configuration (`off` when disabled). */
  severity: RuleSeverityLevel;
  enabled: boolean;
  /** Relative to `cwd` where below it; `builtin:<lang>/<file>` for the built-in pack. */
  file: string;
  line: number;
  message: string;
  fixable: boolean;
  /** Always present (null when the rule has none), so TOON encodes the list as one table. */
  url: string | null;
}

/** A load problem as listed: the file (displayed like `file` above), position and message. */
export interface RuleErrorEntry {
  path: string;
  line?: number;
  column?: number;
  message: string;
}

/** The document `poly rules list --format json` prints and the MCP `rules` tool returns. */
export interface RulesDocument {
  /** The configuration's directory and fingerprint. */
  config: { dir: string; hash: string };
  /** The user rule directories read. */
  dirs: string[];
  rules: RuleEntry[];
  /** Rule files that failed to load and `[rules]` configuration problems: exit 2. */
  errors: RuleErrorEntry[];
  summary: { total: number; enabled: number; builtin: number; user: number; errors: number };
  /** SHA-256 of the rule set (part of the result-cache key). */
  digest: string;
  /** Present when the tests were run. */
  tests?: RulesTestReport;
}

/**
 * Every rule a run from `cwd` would apply, with its source, severities and
 * whether it is enabled; with `test`, the outcome of its test cases.
 *
 * @example
 * ```ts
 * const doc = await rulesDocument({ cwd: Deno.cwd(), test: true });
 * const code = rulesExitCode(doc);
 * ```
 */
export async function rulesDocument(request: RulesRequest): Promise<RulesDocument> {
  const configs = await openConfig({ cwd: request.cwd, explicit: request.config });
  const config = await configs.forDir(request.cwd);
  const dirs = request.dirs?.length ? request.dirs.map((d) => resolve(request.cwd, d)) : undefined;
  const table = { ...config.data.rules, dirs: config.rulesDirs };
  const set = await loadRuleSet(config.dir, table, { dirs, configFile: config.file });
  const show = (file: string) => display(request.cwd, file);
  const doc: RulesDocument = {
    config: { dir: show(config.dir) || ".", hash: config.hash },
    dirs: set.dirs.map(show),
    rules: set.rules.map((r) => ({
      id: r.id,
      language: r.language,
      source: r.origin,
      default_severity: r.defaultSeverity,
      severity: r.severity,
      enabled: r.enabled,
      file: show(r.file),
      line: r.line,
      message: r.message,
      fixable: r.fix !== undefined,
      url: r.url ?? null,
    })),
    errors: set.errors.map((e) => errorEntry(e, show)),
    summary: {
      total: set.rules.length,
      enabled: set.rules.filter((r) => r.enabled).length,
      builtin: set.rules.filter((r) => r.origin === "builtin").length,
      user: set.rules.filter((r) => r.origin === "user").length,
      errors: set.errors.length,
    },
    digest: set.digest,
  };
  if (request.test) {
    const tests = await testRules(set);
    doc.tests = {
      ...tests,
      results: tests.results.map((r) => ({ ...r, test_files: r.test_files.map(show) })),
      errors: tests.errors.map((e) => ({ ...e, file: show(e.file) })),
    };
  }
  return doc;
}

/** The exit code a document stands for: 2 on load errors, 1 on failed tests, else 0. */
export function rulesExitCode(doc: RulesDocument): 0 | 1 | 2 {
  if (doc.errors.length > 0) return 2;
  if (doc.tests && (doc.tests.summary.failed > 0 || doc.tests.errors.length > 0)) return 1;
  return 0;
}

function errorEntry(e: RuleLoadError, show: (f: string) => string): RuleErrorEntry {
  const path = show(e.file);
  return {
    path,
    ...(e.line !== undefined ? { line: e.line } : {}),
    ...(e.column !== undefined ? { column: e.column } : {}),
    message: e.message,
  };
}

/** A load error of a document as one line: `path:line:col: message`. */
export function describeRuleError(e: RuleErrorEntry): string {
  return formatLoadError({ file: e.path, line: e.line, column: e.column, message: e.message });
}

function display(cwd: string, file: string): string {
  if (file.startsWith("builtin:") || !isAbsolute(file)) return file;
  const rel = relative(cwd, file).replaceAll("\\", "/");
  return rel.startsWith("..") ? file : rel;
}
