import { deepEqual, equal } from "node:assert/strict";
import { reportJsonSchemaText } from "../../lib/report/mod.ts";
import { REPORT_SCHEMA_PATH, validateReport } from "../_helpers/report_schema.ts";
import { report } from "./_fixture.ts";

Deno.test("schema/report.schema.json is what scripts/gen-schema.ts generates from the zod schema", async () => {
  const committed = await Deno.readTextFile(REPORT_SCHEMA_PATH);
  equal(
    committed,
    reportJsonSchemaText(),
    "schema/report.schema.json is stale: run `deno task schema` (scripts/gen-schema.ts)",
  );
});

Deno.test("validateReport() accepts a valid report and names each problem of an invalid one", () => {
  deepEqual(validateReport(report()), []);
  const bad = {
    ...report(),
    results: [{
      path: "a.py",
      diagnostics: [{
        engine: "ruff",
        severity: "fatal",
        title: "t",
        span: { start_line: 0, start_col: 1, end_line: 1, end_col: 1 },
      }],
    }],
    surprise: true,
  };
  deepEqual(validateReport(bad).sort(), [
    '/: must NOT have additional properties ("surprise")',
    "/results/0/diagnostics/0/severity: must be equal to one of the allowed values",
    "/results/0/diagnostics/0/span/start_line: must be >= 1",
  ]);
  deepEqual(validateReport({ ...report(), configs: [{ hash: "2/xyz" }] }), [
    '/configs/0/hash: must match pattern "^1\\/[0-9a-f]{16}$"',
  ]);
});
