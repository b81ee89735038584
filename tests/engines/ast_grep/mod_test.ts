/**
 * The ast-grep engine over the fixture repository: golden diagnostics across
 * every rule language, golden fix output, and the engine contract (spans,
 * UTF-8 fix offsets, settings from the pipeline).
 */
import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { astGrepEngine } from "../../../lib/engines/ast_grep/mod.ts";
import type { EngineSettings } from "../../../lib/engines/types.ts";
import { fixWithRules, lintWithRules } from "../../../lib/engines/ast_grep/diagnose.ts";
import { loadRuleSet } from "../../../lib/rules/load.ts";
import { assertGolden } from "../../_helpers/cli.ts";
import { FIXTURE_REPO, GOLDEN, repoFiles } from "../../rules/_helpers.ts";

const settings = (configDir: string): EngineSettings => ({
  defaults: { line_length: 120, line_ending: "lf", final_newline: true, trim_trailing_whitespace: true },
  tool: {},
  configDir,
  rules: { dirs: [".poly/rules"] },
});

Deno.test("lint() reports every rule language of the fixture repository (golden)", async () => {
  const set = await loadRuleSet(FIXTURE_REPO, { dirs: [".poly/rules"] });
  equal(set.errors.length, 0, JSON.stringify(set.errors));
  const byFile: Record<string, unknown> = {};
  for (const file of await repoFiles(FIXTURE_REPO)) {
    const diagnostics = await lintWithRules(set, file);
    if (diagnostics.length) byFile[file.relPath] = diagnostics;
  }
  const codes = new Set(Object.values(byFile).flat().map((d) => (d as { code: string }).code.split("-")[0]));
  for (const prefix of ["js", "py", "go", "rs", "sh", "gha", "docker", "no"]) {
    ok(codes.has(prefix), `no ${prefix}-* finding`);
  }
  await assertGolden(join(GOLDEN, "diagnostics.json"), JSON.stringify(byFile, null, 2) + "\n");
});

Deno.test("fix() applies rule fixes until stable (golden)", async () => {
  const set = await loadRuleSet(FIXTURE_REPO, { dirs: [".poly/rules"] });
  const parts: string[] = [];
  for (const file of await repoFiles(FIXTURE_REPO)) {
    const out = await fixWithRules(set, file);
    if (out.fixed === 0) {
      equal(out.text, file.text);
      continue;
    }
    parts.push(`=== ${file.relPath} (${out.fixed} fixed) ===\n${out.text}`);
    // Nothing fixable is left, and a second run changes nothing.
    const again = await fixWithRules(set, { ...file, text: out.text });
    equal(again.fixed, 0, `${file.relPath} not stable after fixing`);
    const remaining = await lintWithRules(set, { ...file, text: out.text });
    equal(remaining.filter((d) => d.fix).length, 0);
  }
  await assertGolden(join(GOLDEN, "fixed.txt"), parts.join("\n"));
});

Deno.test("lint() gives 1-based UTF-16 spans and UTF-8 byte offsets for fixes", async () => {
  const text = 'const s = "é😀"; debugger;\n';
  const set = await loadRuleSet("/nonexistent-config-dir", {});
  const [d] = await lintWithRules(set, { path: "/x/a.ts", language: "typescript", text });
  equal(d.code, "ts-no-debugger");
  const col16 = text.indexOf("debugger") + 1;
  equal(d.span?.start_col, col16);
  const bytes = new TextEncoder().encode(text.slice(0, text.indexOf("debugger"))).length;
  equal(d.fix?.[0].start_byte, bytes);
  equal(d.fix?.[0].end_byte, bytes + "debugger;".length);
});

Deno.test("the engine spec reads settings.rules and settings.configDir from the pipeline", async () => {
  equal(astGrepEngine.id, "ast-grep");
  equal(astGrepEngine.crossCutting, true);
  const engine = await astGrepEngine.load();
  const path = join(FIXTURE_REPO, "src", "warn.ts");
  const file = { path, relPath: "src/warn.ts", language: "typescript" as const, text: await Deno.readTextFile(path) };
  const out = await engine.lint!(file, settings(FIXTURE_REPO));
  equal(out.diagnostics.map((d) => d.code).join(","), "no-alert");
  const none = await engine.lint!(file, { ...settings(FIXTURE_REPO), rules: { dirs: [], builtin: true } });
  equal(none.diagnostics.length, 0);
  const modules = await astGrepEngine.moduleUrls();
  ok(modules.some((m) => m.endsWith(".node")), "napi binding listed");
  ok(modules.filter((m) => m.endsWith(".so")).length >= 5, "parser libraries listed");
});

Deno.test("lint() honours files/ignores globs relative to the config directory", async () => {
  const set = await loadRuleSet(FIXTURE_REPO, { dirs: [] });
  const script = {
    path: join(FIXTURE_REPO, "scripts", "report.py"),
    language: "python" as const,
    text: 'print("x")\n',
  };
  equal((await lintWithRules(set, script)).length, 0);
  const lib = { ...script, path: join(FIXTURE_REPO, "pkg", "report.py") };
  equal((await lintWithRules(set, lib)).map((d) => d.code).join(), "py-print-in-library");
  // Workflow rules apply only under .github/workflows.
  const wf = "on: push\njobs:\n  a:\n    steps:\n      - uses: foo/bar@main\n";
  const outside = { path: join(FIXTURE_REPO, "config", "x.yml"), language: "yaml" as const, text: wf };
  equal((await lintWithRules(set, outside)).length, 0);
  const inside = { ...outside, path: join(FIXTURE_REPO, ".github", "workflows", "x.yml") };
  equal((await lintWithRules(set, inside)).map((d) => d.code).join(), "gha-unpinned-action");
});
