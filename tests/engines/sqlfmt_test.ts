import { equal } from "node:assert/strict";
import { sqlfmt } from "../../lib/engines/sqlfmt/mod.ts";
import { engineError, fixture, formatGoldenTests, settings } from "./_harness.ts";

formatGoldenTests(sqlfmt, [{ fixture: "sqlfmt/unformatted.sql", language: "sql" }]);

Deno.test("sqlfmt format() honours uppercase and indent_width, and rejects unknown keys", async () => {
  const engine = await sqlfmt.load();
  const file = await fixture("sqlfmt/unformatted.sql", "sql");
  const out = await engine.format!(file, settings({ uppercase: true }, { indent_width: 4 }));
  equal(out.startsWith("SELECT\n    id,"), true, out);
  await engineError(() => engine.format!(file, settings({ upper_case: true })));
});
