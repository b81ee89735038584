import { loadRuleSet, formatLoadError } from "/work/main/lib/rules/load.ts";
import { testRules } from "/work/main/lib/rules/test.ts";
const set = await loadRuleSet(Deno.args[0] ?? "/tmp/agx", {});
for (const e of [...set.errors, ...set.testErrors]) console.log("LOAD", formatLoadError(e));
const r = await testRules(set);
for (const x of r.results) if (x.status !== "passed") console.log(x.status, x.id, JSON.stringify(x.failures));
for (const e of r.errors) console.log("ERR", formatLoadError(e));
console.log(JSON.stringify(r.summary), set.rules.length, "rules", new Set(set.rules.map(r=>r.language)).size, "langs");
