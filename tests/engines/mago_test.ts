import { equal } from "node:assert/strict";
import { mago } from "../../lib/engines/mago/mod.ts";
import { fixture, formatGoldenTests, formatSyntaxErrorTest, settings } from "./_harness.ts";

formatGoldenTests(mago, [{ fixture: "mago/unformatted.php", language: "php" }]);
formatSyntaxErrorTest(mago, { fixture: "mago/syntax.php", language: "php" }, { line: 3, column: 10 });

Deno.test("mago format() honours Mago settings", async () => {
  const file = await fixture("mago/unformatted.php", "php");
  const out = await (await mago.load()).format!(file, settings({ "single-quote": true }));
  equal(out.includes("'Hello, '"), true, out);
});
