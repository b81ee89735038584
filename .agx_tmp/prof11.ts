import { parse } from "@ast-grep/napi";
import { loadRuleSet } from "../lib/rules/load.ts";
import { foldedMatcher } from "../lib/rules/_prefilter.ts";
import { writeRulesCorpus } from "../tests/bench/_rules_corpus.ts";
const set = await loadRuleSet("/x", { dirs: [] });
const ts = foldedMatcher(set.rules.filter(r => r.language === "typescript"), "TypeScript")!;
const py = foldedMatcher(set.rules.filter(r => r.language === "python"), "python")!;
const dir = await Deno.makeTempDir();
const paths = await writeRulesCorpus(dir, 100);
const texts = await Promise.all(paths.map(p => Deno.readTextFile(p)));
let tf = 0;
for (let k = 0; k < texts.length; k++) {
  const isTs = paths[k].endsWith(".ts");
  const root = parse(isTs ? "TypeScript" : "python", texts[k]).root();
  const t = performance.now();
  root.find(isTs ? ts : py);
  tf += performance.now() - t;
}
console.log("parse-then-find per file", (tf / texts.length).toFixed(2), "ms");
