/**
 * The JSON Schema of the report, generated from the zod schema (`z.toJSONSchema`,
 * draft-07, what ajv and editors read by default). `schema/report.schema.json` is
 * this text; `deno task schema` rewrites it and a test holds them equal.
 *
 * @module
 */
import { z } from "zod";
import { Report } from "./schema.ts";

/** The report's JSON Schema as an object. */
export function reportJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(Report, { target: "draft-7", io: "output" }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return {
    $schema,
    title: "poly report",
    description: "The document `poly lint --format json` and `poly fmt --format json` print and the MCP tools return.",
    ...rest,
  };
}

/** The committed file's exact text: pretty-printed with a final newline. */
export function reportJsonSchemaText(): string {
  return JSON.stringify(reportJsonSchema(), null, 2) + "\n";
}
