import { parse } from "@ast-grep/napi";
import { loadRuleSet } from "../lib/rules/load.ts";
import { foldedMatcher } from "../lib/rules/_prefilter.ts";
import { splitRule } from "../lib/rules/_split.ts";
import { writeRulesCorpus } from "../tests/bench/_rules_corpus.ts";
const set = await loadRuleSet("/x", { dirs: [] });
const tsRules = set.rules.filter(r => r.language === "typescript"), pyRules = set.rules.filter(r => r.language === "python");
const ts = foldedMatcher(tsRules, "TypeScript")!;
const py = foldedMatcher(pyRules, "python")!;
const dir = await Deno.makeTempDir();
const paths = await writeRulesCorpus(dir, 100);
const tsRoots = [], pyRoots = [];
for (const p of paths) { const t = await Deno.readTextFile(p); if (p.endsWith(".ts")) tsRoots.push(parse("TypeScript", t).root()); else pyRoots.push(parse("python", t).root()); }
let t = performance.now();
for (let i = 0; i < 100; i++) { tsRoots[i].find(ts); pyRoots[i].find(py); }
console.log("fold alternating per file", ((performance.now() - t) / 200).toFixed(2), "ms");
t = performance.now();
for (let i = 0; i < 100; i++) tsRoots[i].find(ts);
console.log("fold ts grouped", ((performance.now() - t) / 100).toFixed(2), "ms");
t = performance.now();
for (let i = 0; i < 100; i++) pyRoots[i].find(py);
console.log("fold py grouped", ((performance.now() - t) / 100).toFixed(2), "ms");
for (const r of pyRules) { const w = splitRule(r).wide; const t = performance.now(); for (let i = 0; i < 100; i++) pyRoots[i].find(w); console.log("  ", r.id, ((performance.now() - t) / 100).toFixed(2)); }
