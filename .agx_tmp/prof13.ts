import { parse } from "@ast-grep/napi";
import { loadRuleSet } from "../lib/rules/load.ts";
import { foldedMatcher } from "../lib/rules/_prefilter.ts";
import { writeRulesCorpus } from "../tests/bench/_rules_corpus.ts";
const set = await loadRuleSet("/x", { dirs: [] });
const ts = foldedMatcher(set.rules.filter(r => r.language === "typescript"), "TypeScript")!;
const dir = await Deno.makeTempDir();
const paths = (await writeRulesCorpus(dir, 150)).filter(p => p.endsWith(".ts"));
const texts = paths.map(p => Deno.readTextFileSync(p));
let a = 0, b = 0, c = 0, d = 0;
for (const x of texts) {
  let t = performance.now();
  const root = parse("TypeScript", x).root();
  a += performance.now() - t; t = performance.now();
  root.find(ts);
  b += performance.now() - t; t = performance.now();
  root.find(ts);
  c += performance.now() - t; t = performance.now();
  root.find({ rule: { kind: "debugger_statement" } });
  d += performance.now() - t;
}
const n = texts.length;
console.log({ parse: (a / n).toFixed(2), find1: (b / n).toFixed(2), find2: (c / n).toFixed(2), kindfind: (d / n).toFixed(2) });
