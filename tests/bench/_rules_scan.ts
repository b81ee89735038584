/**
 * The poly side of the rules bench, run as its own process: loads the rule set
 * for DIR and lints every .ts and .py file under DIR/src and DIR/pkg with the
 * ast-grep engine's library, then prints `{"findings": N, "engine_ms": T}`.
 *
 * Usage: deno run -P=test tests/bench/_rules_scan.ts DIR
 *
 * @module
 */
import { join } from "node:path";
import { lintWithRules } from "../../lib/rules/diagnose.ts";
import { loadRuleSet } from "../../lib/rules/load.ts";

const dir = Deno.args[0];
const start = performance.now();
const set = await loadRuleSet(dir, { dirs: [] });
let findings = 0;
for (const [sub, ext, language] of [["src", ".ts", "typescript"], ["pkg", ".py", "python"]] as const) {
  for await (const entry of Deno.readDir(join(dir, sub))) {
    if (!entry.name.endsWith(ext)) continue;
    const path = join(dir, sub, entry.name);
    const text = await Deno.readTextFile(path);
    findings += (await lintWithRules(set, { path, language, text })).length;
  }
}
console.log(JSON.stringify({ findings, engine_ms: Math.round(performance.now() - start) }));
