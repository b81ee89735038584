import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { assertGolden } from "../_helpers/cli.ts";
import { FORMATTER_OWNED_RULES, markdownlint } from "../../lib/engines/markdownlint/mod.ts";
import { diagnosticsJson, fixture, GOLDEN, settings } from "./_harness.ts";

/** Every rule on, as markdownlint's own default: the formatter-owned ones turned back on through poly.toml keys. */
const ALL_ON = Object.fromEntries(Object.keys(FORMATTER_OWNED_RULES).map((id) => [id, true]));

Deno.test("markdownlint lint() matches the golden diagnostics", async () => {
  const out = await (await markdownlint.load()).lint!(
    await fixture("markdownlint/bad.md", "markdown"),
    settings(ALL_ON),
  );
  await assertGolden(join(GOLDEN, "markdownlint", "bad.md.json"), diagnosticsJson(out.diagnostics));
});

Deno.test("markdownlint fix() applies its fixes and the result matches the golden text", async () => {
  const engine = await markdownlint.load();
  const file = await fixture("markdownlint/bad.md", "markdown");
  const out = await engine.fix!(file, settings(ALL_ON));
  equal(out.fixed > 0, true);
  await assertGolden(join(GOLDEN, "markdownlint", "bad.md.fixed"), out.text);
  const again = await engine.lint!({ ...file, text: out.text }, settings(ALL_ON));
  equal(again.diagnostics.filter((d) => d.fix).length, 0);
  // The findings it found in the text it left are lint()'s, so a fix run does not lint the text again.
  deepEqual(out.lint, again);
  const clean = { ...file, text: out.text };
  deepEqual(await engine.fix!(clean, settings(ALL_ON)), { text: out.text, fixed: 0, lint: again });
});

Deno.test("markdownlint fix() fixes what its own fixes leave (parity/markdownlint-fix-passes): nothing fixable left", async () => {
  const engine = await markdownlint.load();
  const file = await fixture("../../tests/engines/testdata/parity/markdownlint-fix-passes/tab.md", "markdown");
  const out = await engine.fix!(file, settings(ALL_ON));
  // markdownlint-cli2 --fix stops after one pass at "text " (MD010's fix leaves MD009's trailing space).
  equal(out.text, "# Title\n\ntext\nmore\n");
  equal(out.fixed, 2);
  deepEqual(out.lint, { diagnostics: [] });
});

Deno.test("markdownlint lint() honours ignore, aliases, rule options and line_length", async () => {
  const engine = await markdownlint.load();
  const file = await fixture("markdownlint/bad.md", "markdown");
  const out = await engine.lint!(
    file,
    settings({ ignore: ["ul-style"], rules: { MD009: { level: "off" }, MD022: { level: "warning" } } }),
  );
  equal(out.diagnostics.some((d) => d.code?.startsWith("MD004")), false);
  equal(out.diagnostics.some((d) => d.code?.startsWith("MD009")), false);
  const md022 = out.diagnostics.filter((d) => d.code?.startsWith("MD022"));
  equal(md022.length > 0 && md022.every((d) => d.severity === "warning"), true, "MD022 re-levelled, not dropped");
  const long = { ...file, text: "# T\n\n" + "word ".repeat(20).trim() + "\n" };
  equal((await engine.lint!(long, settings())).diagnostics.length, 0);
  equal((await engine.lint!(long, settings({}, { line_length: 80 }))).diagnostics.length, 0, "MD013 is off by default");
  equal(
    (await engine.lint!(long, settings({ MD013: true }, { line_length: 80 }))).diagnostics[0]?.code,
    "MD013/line-length",
  );
});
