import assert from "node:assert/strict";
import { assertGolden, assertSyntaxError, defaultSettings, engine, fixture, golden } from "./_engine_harness.ts";

Deno.test("biome lint() reports recommended-rule findings with spans", async () => {
  const biome = await engine("biome");
  const file = await fixture("biome/bad.ts", "typescript");
  const out = await biome.lint!(file, defaultSettings());
  await assertGolden(golden("biome_bad.json"), JSON.stringify(out.diagnostics, null, 2) + "\n");
  assert.ok(out.diagnostics.some((d) => d.code === "suspicious/noDebugger" && d.severity === "error"));
});

Deno.test("biome lint() honours ignore and per-rule levels by rule name", async () => {
  const biome = await engine("biome");
  const file = await fixture("biome/bad.ts", "typescript");
  const out = await biome.lint!(
    file,
    defaultSettings({ ignore: ["noDebugger"], rules: { noDoubleEquals: { level: "warning" } } }),
  );
  assert.ok(!out.diagnostics.some((d) => d.code === "suspicious/noDebugger"));
  assert.equal(out.diagnostics.find((d) => d.code === "suspicious/noDoubleEquals")?.severity, "warning");
});

Deno.test("biome fix() applies safe fixes only", async () => {
  const biome = await engine("biome");
  const file = await fixture("biome/bad.ts", "typescript");
  const out = await biome.fix!(file, defaultSettings());
  assert.ok(out.fixed >= 1);
  assert.ok(out.text.includes("const a = 1"), "useConst is a safe fix");
  assert.ok(out.text.includes("debugger;"), "noDebugger's fix is unsafe and not applied");
});

Deno.test("biome format() matches golden and is idempotent", async () => {
  const biome = await engine("biome");
  const file = await fixture("biome/unformatted.ts", "typescript");
  const once = await biome.format!(file, defaultSettings());
  await assertGolden(golden("biome_unformatted.ts"), once);
  assert.equal(await biome.format!({ ...file, text: once }, defaultSettings()), once);
});

Deno.test("biome format() honours [defaults] line_length and indent_width", async () => {
  const biome = await engine("biome");
  const file = await fixture("biome/unformatted.ts", "typescript");
  const settings = defaultSettings();
  settings.defaults.indent_width = 4;
  const out = await biome.format!(file, settings);
  assert.match(out, /\n {4}return y \+ x\.a;/);
});

Deno.test("biome reports a parse error with line and column, for lint and format", async () => {
  const biome = await engine("biome");
  const file = await fixture("biome/syntax.ts", "typescript");
  await assertSyntaxError(() => biome.lint!(file, defaultSettings()), 1);
  await assertSyntaxError(() => biome.format!(file, defaultSettings()), 1);
});
