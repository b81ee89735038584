/**
 * One process, many runs (what `poly mcp` and `poly daemon` do): whatever a run
 * memoizes for speed must not outlive the inputs it came from.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLint } from "../../lib/run/mod.ts";
import type { Report } from "../../lib/report/schema.ts";
import { tempDir } from "../_helpers/temp.ts";

const RULE = (severity: string, message: string) =>
  `id: user-no-alert\nlanguage: TypeScript\nseverity: ${severity}\nmessage: ${message}\nrule:\n  pattern: alert($$$A)\n`;

function alerts(report: Report): string[] {
  return report.results.flatMap((r) =>
    (r.diagnostics ?? []).filter((d) => d.code === "user-no-alert").map((d) => `${r.path}:${d.severity}:${d.title}`)
  );
}

Deno.test("a resident process sees user rule files edited, added and removed between runs", async () => {
  const root = await tempDir({ prefix: "poly-resident-" });
  await Deno.mkdir(join(root, ".git"));
  await Deno.mkdir(join(root, ".poly", "rules"), { recursive: true });
  await Deno.writeTextFile(join(root, "poly.toml"), '[cache]\ndir = ".poly-cache"\n');
  await Deno.writeTextFile(join(root, "a.ts"), 'alert("hi");\n');
  const rule = join(root, ".poly", "rules", "no-alert.yml");
  const run = () => runLint({ paths: [], cwd: root, jobs: 1 });

  await Deno.writeTextFile(rule, RULE("warning", "first"));
  assert.deepEqual(alerts(await run()), ["a.ts:warning:first"]);
  assert.deepEqual(alerts(await run()), ["a.ts:warning:first"]);

  await Deno.writeTextFile(rule, RULE("error", "second, and longer"));
  assert.deepEqual(alerts(await run()), ["a.ts:error:second, and longer"]);

  await Deno.remove(rule);
  assert.deepEqual(alerts(await run()), []);

  await Deno.writeTextFile(join(root, ".poly", "rules", "again.yml"), RULE("info", "third"));
  assert.deepEqual(alerts(await run()), ["a.ts:info:third"]);
  await Deno.remove(root, { recursive: true });
});
