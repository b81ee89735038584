import { equal } from "node:assert/strict";
import { join } from "node:path";
import { assertGolden } from "../_helpers/cli.ts";
import { yaml } from "../../lib/engines/yaml/mod.ts";
import { diagnosticsJson, fixture, GOLDEN, settings } from "./_harness.ts";

Deno.test("yaml lint() matches the golden diagnostics (duplicate key, bad indentation)", async () => {
  const out = await (await yaml.load()).lint!(await fixture("yaml/bad.yaml", "yaml"), settings());
  await assertGolden(join(GOLDEN, "yaml", "bad.yaml.json"), diagnosticsJson(out.diagnostics));
});

Deno.test("yaml lint() checks every document of a stream and honours unique_keys", async () => {
  const engine = await yaml.load();
  const file = { path: "/x/a.yaml", relPath: "a.yaml", language: "yaml" as const, text: "a: 1\n---\nb: 1\nb: 2\n" };
  const out = await engine.lint!(file, settings());
  equal(out.diagnostics.length, 1);
  equal(out.diagnostics[0].code, "duplicate-key");
  equal(out.diagnostics[0].span?.start_line, 4);
  equal((await engine.lint!(file, settings({ unique_keys: false }))).diagnostics.length, 0);
});
