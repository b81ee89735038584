/**
 * poly's markdownlint defaults: the rules a formatter owns are off (markdownlint's
 * `style/prettier` set, as trunk ships it), and poly.toml turns any back on.
 */
import { deepEqual, equal } from "node:assert/strict";
import prettier from "markdownlint/style/prettier" with { type: "json" };
import {
  FORMATTER_OWNED_RULES,
  markdownlint,
  markdownlintConfig,
  markdownlintDefaults,
} from "../../lib/engines/markdownlint/mod.ts";
import { settings } from "./_harness.ts";
import type { SourceFile } from "../../lib/engines/types.ts";

const doc = (text: string): SourceFile => ({ path: "/x/README.md", relPath: "README.md", language: "markdown", text });
const codes = async (text: string, tool: Record<string, unknown> = {}, lineLength = 80) =>
  (await (await markdownlint.load()).lint!(doc(text), settings(tool, { line_length: lineLength }))).diagnostics
    .map((d) => d.code!.split("/")[0]);

Deno.test("FORMATTER_OWNED_RULES is markdownlint's own style/prettier set (the one trunk ships)", () => {
  const upstream = Object.keys(prettier).filter((k) => k !== "comment").sort();
  deepEqual(Object.values(FORMATTER_OWNED_RULES).sort(), upstream);
});

Deno.test("markdownlint lint() leaves prose line length and formatter-owned spacing alone by default", async () => {
  const long = "# Title\n\n" + "word ".repeat(40).trim() + "  \n\n\n## Next\n";
  deepEqual(await codes(long), []);
  // Content rules stay on: a skipped heading level is still found.
  deepEqual(await codes("# Title\n\n### Deep\n"), ["MD001"]);
});

Deno.test("markdownlintConfig(): poly.toml keys and rules tables turn a formatter-owned rule back on, by id or alias", async () => {
  const long = "# Title\n\n" + "word ".repeat(40).trim() + "\n";
  deepEqual(await codes(long, { MD013: true }), ["MD013"]);
  deepEqual(await codes(long, { "line-length": true }), ["MD013"]);
  deepEqual(await codes(long, { rules: { MD013: { level: "warning" } } }), ["MD013"]);
  deepEqual(await codes(long, { rules: { "line-length": { code_blocks: false } } }), ["MD013"]);
  deepEqual(await codes(long, { MD013: true }, 400), [], "[defaults] line_length still applies");
  deepEqual(await codes("# Title\n\n### Deep\n", { rules: { MD001: { level: "off" } } }), []);
});

Deno.test("markdownlintConfig() starts from a given base (the hook for a repository's own .markdownlint file)", () => {
  const config = markdownlintConfig(settings({ MD001: false }), { default: true, MD013: { line_length: 100 } });
  deepEqual(config, { default: true, MD013: { line_length: 100 }, MD001: false });
  equal((markdownlintDefaults(90).MD013 as { line_length: number }).line_length, 90);
});
