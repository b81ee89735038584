import { parse } from "@ast-grep/napi";
import { loadRuleSet } from "../lib/rules/load.ts";
import { foldedMatcher } from "../lib/rules/_prefilter.ts";
import { splitRule } from "../lib/rules/_split.ts";
const set = await loadRuleSet("/x", { dirs: [] });
const N = 50;
for (const [lang, parser] of [["typescript", "TypeScript"], ["python", "python"]]) {
  const rules = set.rules.filter(r => r.language === lang);
  const fold = foldedMatcher(rules, parser)!;
  const empty = parse(parser, "x").root();
  let t = performance.now();
  for (let i = 0; i < N; i++) empty.find(fold);
  console.log(lang, "fold", ((performance.now() - t) / N).toFixed(2), "ms");
  let sum = 0;
  for (const r of rules) {
    const w = splitRule(r).wide;
    const t = performance.now();
    for (let i = 0; i < N; i++) empty.find(w);
    const ms = (performance.now() - t) / N; sum += ms;
    console.log("   ", r.id, ms.toFixed(2), JSON.stringify(w).slice(0, 100));
  }
  console.log("  sum", sum.toFixed(2));
}
