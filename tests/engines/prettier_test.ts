import { equal } from "node:assert/strict";
import { prettier } from "../../lib/engines/prettier/mod.ts";
import { engineError, fixture, formatGoldenTests, formatSyntaxErrorTest, settings } from "./_harness.ts";

formatGoldenTests(prettier, [{ fixture: "prettier/unformatted.yaml", language: "yaml" }]);
formatSyntaxErrorTest(prettier, { fixture: "prettier/syntax.yaml", language: "yaml" }, { line: 3, column: 1 });

Deno.test("prettier format() honours indent_width and single_quote, and rejects unknown keys", async () => {
  const engine = await prettier.load();
  const file = await fixture("prettier/unformatted.yaml", "yaml");
  const out = await engine.format!(file, settings({ single_quote: true }, { indent_width: 4 }));
  equal(out.includes("\n    web:"), true);
  equal(out.includes("'nginx:1.27'"), true);
  await engineError(() => engine.format!(file, settings({ singel_quote: true })));
});
