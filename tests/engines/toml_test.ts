import { equal } from "node:assert/strict";
import { join } from "node:path";
import { assertGolden } from "../_helpers/cli.ts";
import { toml } from "../../lib/engines/toml/mod.ts";
import { diagnosticsJson, fixture, GOLDEN, settings } from "./_harness.ts";

Deno.test("toml lint() matches the golden diagnostics for a duplicate key", async () => {
  const out = await (await toml.load()).lint!(await fixture("toml/bad.toml", "toml"), settings());
  await assertGolden(join(GOLDEN, "toml", "bad.toml.json"), diagnosticsJson(out.diagnostics));
});

Deno.test("toml lint() reports a syntax error with line and column", async () => {
  const out = await (await toml.load()).lint!(await fixture("toml/syntax.toml", "toml"), settings());
  equal(out.diagnostics.length, 1);
  equal(out.diagnostics[0].code, "syntax");
  equal(out.diagnostics[0].span?.start_line, 3);
});

Deno.test("toml lint() finds nothing in a valid file and honours rules levels", async () => {
  const engine = await toml.load();
  const valid = await engine.lint!(await fixture("dprint/unformatted.toml", "toml"), settings());
  equal(valid.diagnostics.length, 0);
  const off = await engine.lint!(
    await fixture("toml/bad.toml", "toml"),
    settings({ rules: { "duplicate-key": { level: "off" } } }),
  );
  equal(off.diagnostics.length, 0);
});
