/**
 * One rule or test file → its rules, its test cases, and its problems, each
 * problem at `file:line:col`.
 *
 * @module
 */
import { checkMatcher } from "./_check.ts";
import { primaryParser, RULE_LANGUAGES, ruleLanguage } from "../engines/ast_grep/languages.ts";
import { RuleDocument, schemaProblems, TestDocument } from "./_schema.ts";
import { parseYamlStream, type YamlDocument } from "./_yaml.ts";
import type { LoadedRule, RuleLoadError, RuleOrigin, RuleTestCase } from "./types.ts";
import { isTestFile } from "./_files.ts";

/**
 * The `metadata` key of a built-in rule's declared need: a JavaScript regular expression the text of every file
 * holding a match matches (docs/rules.md, "The literal pre-filter").
 */
export const NEEDS_KEY = "poly-needs";

function isRegExp(value: unknown): value is string {
  try {
    return typeof value === "string" && new RegExp(value) !== undefined;
  } catch {
    return false;
  }
}

/** What one file contributed. */
export interface ParsedFile {
  rules: LoadedRule[];
  tests: RuleTestCase[];
  /** Problems with rule documents (and YAML errors in files not named `-test.yml`). */
  errors: RuleLoadError[];
  /** Problems with test documents (and YAML errors in `-test.yml` files). */
  testErrors: RuleLoadError[];
}

export { isTestFile } from "./_files.ts";

/** Parses the rule or test file `file` (its display name) with contents `text`. */
export function parseRuleFile(text: string, file: string, origin: RuleOrigin): ParsedFile {
  const out: ParsedFile = { rules: [], tests: [], errors: [], testErrors: [] };
  const stream = parseYamlStream(text);
  for (const e of stream.errors) {
    (isTestFile(file) ? out.testErrors : out.errors).push({
      file,
      ...e.position,
      message: `invalid YAML: ${e.message}`,
    });
  }
  for (const doc of stream.documents) {
    if (isTestDocument(doc.value, file)) parseTest(doc, file, out);
    else parseRule(doc, file, origin, out);
  }
  return out;
}

/**
 * Whether a document is a test case: it has `valid` or `invalid` and no `rule`,
 * or it has neither and sits in a `-test.yml` file.
 */
function isTestDocument(value: unknown, file: string): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return isTestFile(file);
  if ("rule" in value) return false;
  if ("valid" in value || "invalid" in value) return true;
  return isTestFile(file);
}

function parseTest(doc: YamlDocument, file: string, out: ParsedFile): void {
  const result = TestDocument.safeParse(doc.value);
  if (!result.success) {
    for (const p of schemaProblems(result.error)) {
      out.testErrors.push({
        file,
        ...doc.positionOf(p.path, { key: p.atKey }),
        message: `invalid test case: ${p.message}`,
      });
    }
    return;
  }
  out.tests.push({ ...result.data, file, line: doc.start.line });
}

function parseRule(doc: YamlDocument, file: string, origin: RuleOrigin, out: ParsedFile): void {
  const result = RuleDocument.safeParse(doc.value);
  if (!result.success) {
    for (const p of schemaProblems(result.error)) {
      out.errors.push({ file, ...doc.positionOf(p.path, { key: p.atKey }), message: `invalid rule: ${p.message}` });
    }
    return;
  }
  const data = result.data;
  const language = ruleLanguage(data.language);
  if (!language) {
    out.errors.push({
      file,
      ...doc.positionOf(["language"]),
      message: `rule "${data.id}": unknown language "${data.language}": expected one of ${RULE_LANGUAGES.join(", ")}`,
    });
    return;
  }
  const matcher = {
    rule: data.rule,
    ...(data.constraints ? { constraints: data.constraints } : {}),
    ...(data.utils ? { utils: data.utils } : {}),
  };
  const problems = checkMatcher(matcher, primaryParser(language));
  if (typeof data.fix === "object") {
    for (const key of ["expandStart", "expandEnd"] as const) {
      const expand = data.fix[key];
      if (!expand) continue;
      for (const p of checkMatcher({ rule: expand }, primaryParser(language))) {
        problems.push({ path: ["fix", key, ...p.path.slice(1)], message: p.message });
      }
    }
  }
  // The built-in pack's own declared needs (a user rule's metadata is its own business: not read).
  const needs = origin === "builtin" ? data.metadata?.[NEEDS_KEY] : undefined;
  if (needs !== undefined && !isRegExp(needs)) {
    problems.push({
      path: ["metadata", NEEDS_KEY],
      message: `metadata.${NEEDS_KEY} must be a JavaScript regular expression`,
    });
  }
  for (const p of problems) {
    out.errors.push({ file, ...doc.positionOf(p.path), message: `rule "${data.id}": ${p.message}` });
  }
  if (problems.length > 0) return;
  out.rules.push({
    id: data.id,
    language,
    origin,
    file,
    line: doc.start.line,
    defaultSeverity: data.severity,
    severity: data.severity,
    enabled: data.severity !== "off",
    message: data.message ?? data.id,
    note: data.note,
    url: data.url,
    fix: data.fix,
    matcher,
    files: data.files ?? [],
    ignores: data.ignores ?? [],
    ...(typeof needs === "string" ? { needs } : {}),
  });
}
