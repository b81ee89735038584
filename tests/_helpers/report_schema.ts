/**
 * Validates report documents against the committed JSON Schema
 * (`schema/report.schema.json`) with ajv, so every `--format json` output a
 * test sees can be checked against the contract users rely on.
 *
 * @module
 */
import { Ajv } from "ajv";
import { join } from "node:path";
import { REPO } from "./cli.ts";

/** Path of the committed report schema. */
export const REPORT_SCHEMA_PATH = join(REPO, "schema", "report.schema.json");

let validator: ((doc: unknown) => string[]) | undefined;

function compile(): (doc: unknown) => string[] {
  const schema = JSON.parse(Deno.readTextFileSync(REPORT_SCHEMA_PATH));
  const ajv = new Ajv({ allErrors: true, strict: true });
  const validate = ajv.compile(schema);
  return (doc) => {
    if (validate(doc)) return [];
    return (validate.errors ?? []).map((e) => {
      const extra = e.keyword === "additionalProperties"
        ? ` ("${(e.params as { additionalProperty: string }).additionalProperty}")`
        : "";
      return `${e.instancePath || "/"}: ${e.message}${extra}`;
    });
  };
}

/**
 * The ways `doc` breaks the report schema, one message per problem
 * (`/results/0/diagnostics/1/span/start_line: must be >= 1`); empty when valid.
 *
 * @example
 * ```ts
 * const out = await runPoly(["lint", "--format", "json", "."], { cwd });
 * assertEquals(validateReport(JSON.parse(out.stdout)), []);
 * ```
 */
export function validateReport(doc: unknown): string[] {
  validator ??= compile();
  return validator(doc);
}
