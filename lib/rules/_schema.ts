/**
 * The shape of a rule file and of a `<id>-test.yml` file: ast-grep's own YAML
 * format (https://ast-grep.github.io/reference/yaml.html), checked strictly so a
 * misspelt key is an error at its line instead of a rule that silently never fires.
 *
 * Not supported (reported as an error naming the key): `transform`, `rewriters`.
 *
 * @module
 */
import { z } from "zod";

/** A rule object (pattern, kind, regex, relational and composite keys): checked by ast-grep itself. */
const RuleObject = z.record(z.string(), z.unknown());

/** Severity as a rule file gives it (ast-grep's default is `hint`). */
export const FileSeverity = z.enum(["off", "hint", "info", "warning", "error"]);

/** `fix:` either a template string or ast-grep's object form. */
export const FixField = z.union([
  z.string(),
  z.strictObject({
    template: z.string(),
    expandStart: RuleObject.optional(),
    expandEnd: RuleObject.optional(),
  }),
]);
/** `fix:` as written. */
export type FixField = z.infer<typeof FixField>;

/** One rule document. */
export const RuleDocument = z.strictObject({
  id: z.string().regex(
    /^[A-Za-z0-9][A-Za-z0-9_.\/-]*$/,
    "must start with a letter or digit and use only letters, digits, _ . / -",
  ),
  language: z.string(),
  severity: FileSeverity.default("hint"),
  message: z.string().optional(),
  note: z.string().optional(),
  url: z.string().optional(),
  rule: RuleObject,
  constraints: z.record(z.string(), RuleObject).optional(),
  utils: z.record(z.string(), RuleObject).optional(),
  fix: FixField.optional(),
  files: z.array(z.string()).optional(),
  ignores: z.array(z.string()).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  labels: z.record(z.string(), z.unknown()).optional(),
});
/** One rule document, validated. */
export type RuleDocument = z.infer<typeof RuleDocument>;

/** Keys of ast-grep's format that poly does not implement, with the reason. */
export const UNSUPPORTED_KEYS: Record<string, string> = {
  transform: "`transform` is not supported by poly's rule engine: write the fix without transformed variables",
  rewriters: "`rewriters` is not supported by poly's rule engine",
};

/** One `<id>-test.yml` document (ast-grep's test-case format). */
export const TestDocument = z.strictObject({
  id: z.string(),
  valid: z.array(z.string()).default([]),
  invalid: z.array(z.string()).default([]),
});
/** One test document, validated. */
export type TestDocument = z.infer<typeof TestDocument>;

/** A zod issue as a path and a sentence. */
export interface SchemaProblem {
  path: (string | number)[];
  /** Whether the problem is about the key itself (an unknown key) rather than its value. */
  atKey: boolean;
  message: string;
}

/** Turns a zod error into problems with paths (an unknown key becomes one problem per key). */
export function schemaProblems(error: z.ZodError): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const issue of error.issues) {
    const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const reason = path.length === 0 ? UNSUPPORTED_KEYS[key] : undefined;
        problems.push({ path: [...path, key], atKey: true, message: reason ?? `unknown key "${key}"` });
      }
    } else if (issue.code === "invalid_type" && issue.input === undefined) {
      problems.push({ path, atKey: false, message: `missing required key "${path.join(".")}"` });
    } else {
      const where = path.length ? `"${path.join(".")}": ` : "";
      problems.push({ path, atKey: false, message: `${where}${issue.message}` });
    }
  }
  return problems;
}
