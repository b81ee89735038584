import { parse } from "@ast-grep/napi";
import { loadRuleSet } from "../lib/rules/load.ts";
import { foldedMatcher } from "../lib/rules/_prefilter.ts";
const set = await loadRuleSet("/x", { dirs: [] });
for (const [lang, parser] of [["typescript", "TypeScript"], ["python", "python"]]) {
  const rules = set.rules.filter(r => r.language === lang);
  const fold = foldedMatcher(rules, parser)!;
  const empty = parse(parser, "x").root();
  let t = performance.now();
  for (let i = 0; i < 20; i++) empty.find(JSON.parse(JSON.stringify(fold)));
  console.log(lang, "fold compile (fresh obj)", ((performance.now() - t) / 20).toFixed(2), "ms");
  t = performance.now();
  for (let i = 0; i < 20; i++) empty.find(fold);
  console.log(lang, "fold compile (same obj)", ((performance.now() - t) / 20).toFixed(2), "ms");
  for (const r of rules) {
    const t = performance.now();
    for (let i = 0; i < 20; i++) empty.find(JSON.parse(JSON.stringify(r.matcher)));
    console.log("   ", r.id, ((performance.now() - t) / 20).toFixed(2));
  }
}
