import { parse } from "@ast-grep/napi";
import { loadRuleSet } from "../lib/rules/load.ts";
import { foldedMatcher } from "../lib/rules/_prefilter.ts";
const set = await loadRuleSet("/x", { dirs: [] });
const ts = foldedMatcher(set.rules.filter(r => r.language === "typescript"), "TypeScript")!;
const py = foldedMatcher(set.rules.filter(r => r.language === "python"), "python")!;
const e1 = parse("TypeScript", "x").root(), e2 = parse("python", "x").root();
const N = 30;
let t = performance.now();
for (let i = 0; i < N; i++) { e1.find(ts); e2.find(py); }
console.log("alternating", ((performance.now() - t) / N / 2).toFixed(2), "ms");
t = performance.now();
for (let i = 0; i < N; i++) { e1.find(ts); }
for (let i = 0; i < N; i++) { e2.find(py); }
console.log("grouped", ((performance.now() - t) / N / 2).toFixed(2), "ms");
const p1 = { rule: { pattern: "console.$M($$$A)" } }, p2 = { rule: { pattern: "foo.$M($$$A)" } };
t = performance.now();
for (let i = 0; i < 200; i++) { e1.find(p1); e1.find(p2); }
console.log("two TS patterns alternating", ((performance.now() - t) / 400 * 1000).toFixed(1), "us");
t = performance.now();
for (let i = 0; i < 200; i++) { e1.find(p1); e2.find({ rule: { pattern: "print($$$A)" } }); }
console.log("TS/py patterns alternating", ((performance.now() - t) / 400 * 1000).toFixed(1), "us");
