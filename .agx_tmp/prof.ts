import { parse } from "@ast-grep/napi";
import { loadRuleSet } from "../lib/rules/load.ts";
import { rulesForFile } from "../lib/rules/scan.ts";
import { napiLang } from "../lib/rules/_langs.ts";
import { writeRulesCorpus } from "../tests/bench/_rules_corpus.ts";
const dir = await Deno.makeTempDir();
const paths = await writeRulesCorpus(dir, 200);
const set = await loadRuleSet(dir, { dirs: [] });
const files = await Promise.all(paths.map(async (p) => ({ path: p, language: p.endsWith(".ts") ? "typescript" : "python", text: await Deno.readTextFile(p) } as any)));
let t = performance.now();
const groups = files.map((f) => rulesForFile(set, f));
console.log("rulesForFile", (performance.now() - t).toFixed(0));
t = performance.now();
const roots = files.map((f, i) => parse(napiLang([...groups[i].keys()][0]), f.text).root());
console.log("parse", (performance.now() - t).toFixed(0));
t = performance.now();
let n = 0;
for (let i = 0; i < files.length; i++) for (const r of [...groups[i].values()][0]) n += roots[i].findAll(r.matcher).length;
console.log("findAll", (performance.now() - t).toFixed(0), n);
t = performance.now();
for (let i = 0; i < files.length; i++) for (const r of [...groups[i].values()][0]) { const ms = roots[i].findAll(r.matcher); for (const m of ms) { m.range(); } }
console.log("findAll+range", (performance.now() - t).toFixed(0));
// per rule cost
const byRule = new Map();
for (let i = 0; i < files.length; i++) for (const r of [...groups[i].values()][0]) { const s = performance.now(); roots[i].findAll(r.matcher); byRule.set(r.id, (byRule.get(r.id) ?? 0) + performance.now() - s); }
console.log([...byRule].sort((a,b)=>b[1]-a[1]).map(([k,v])=>k+"="+v.toFixed(0)).join(" "));
