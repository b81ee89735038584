import { equal, rejects } from "node:assert/strict";
import type { MagoOptions } from "../../lib/config/native/mago.ts";
import { mago } from "../../lib/engines/mago/mod.ts";
import type { EngineSettings } from "../../lib/engines/types.ts";
import { fixture, formatGoldenTests, formatSyntaxErrorTest, settings } from "./_harness.ts";

formatGoldenTests(mago, [{ fixture: "mago/unformatted.php", language: "php" }]);
formatSyntaxErrorTest(mago, { fixture: "mago/syntax.php", language: "php" }, { line: 3, column: 10 });

Deno.test("mago format() honours Mago settings", async () => {
  const file = await fixture("mago/unformatted.php", "php");
  const out = await (await mago.load()).format!(file, settings({ "single-quote": true }));
  equal(out.includes("'Hello, '"), true, out);
});

/** A PHP file of `text`, as a run gives it to the engine. */
function phpFile(text: string) {
  return { path: "/r/a.php", relPath: "a.php", language: "php" as const, text };
}

/** Settings under a repository's mago.toml (as lib/config/native/mago.ts reads it), poly.toml's `tool` on top. */
function magoToml(options: Partial<MagoOptions>, tool: Record<string, unknown> = {}): EngineSettings {
  const full: MagoOptions = { settings: {}, paths: [], excludes: [], extensions: ["php"], glob: {}, ...options };
  return { ...settings(tool), native: { files: [], options: full as unknown as Record<string, unknown>, root: "/" } };
}

Deno.test("under a mago.toml its settings govern over Mago's defaults, [defaults] not beneath, poly.toml on top", async () => {
  const engine = await mago.load();
  const file = phpFile("<?php\nfunction f() { return 1; }");
  // [defaults] asks for width 120 and a final newline; the mago.toml's tabs and Mago's own output govern.
  equal(
    await engine.format!(file, magoToml({ settings: { "use-tabs": true } })),
    "<?php\n\nfunction f()\n{\n\treturn 1;\n}\n",
  );
  equal(
    await engine.format!(file, magoToml({ settings: { "use-tabs": true } }, { "use-tabs": false, "tab-width": 2 })),
    "<?php\n\nfunction f()\n{\n  return 1;\n}\n",
  );
  // php-version decides the layout: PHP 8.4 drops the parentheses around `new` in a member access.
  const chained = { ...file, text: "<?php\n$a = (new Foo())->bar();\n" };
  equal(await engine.format!(chained, magoToml({ phpVersion: "8.3" })), "<?php\n\n$a = (new Foo())->bar();\n");
  equal(await engine.format!(chained, magoToml({ phpVersion: "8.4" })), "<?php\n\n$a = new Foo()->bar();\n");
  equal(
    await engine.format!(chained, magoToml({ phpVersion: "8.4" }, { php_version: "8.3" })),
    chained.text.replace("\n", "\n\n"),
  );
});

Deno.test("[parser] enable-short-tags = false cannot be honoured for a file with a short open tag", async () => {
  const engine = await mago.load();
  const file = phpFile('<?xml version="1.0"?>\n<?php echo 1;\n');
  await rejects(async () => await engine.format!(file, magoToml({ noShortTags: true })), /enable-short-tags = false/);
  const plain = { ...file, text: "<?php\necho 1;\n" };
  equal(await engine.format!(plain, magoToml({ noShortTags: true })), "<?php\n\necho 1;\n");
});
