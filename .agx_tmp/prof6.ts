import { parse } from "@ast-grep/napi";
import { loadRuleSet } from "../lib/rules/load.ts";
import { rulesForFile } from "../lib/rules/scan.ts";
import { foldedMatcher } from "../lib/rules/_prefilter.ts";
import { napiLang } from "../lib/rules/_langs.ts";
import { writeRulesCorpus } from "../tests/bench/_rules_corpus.ts";
const dir = await Deno.makeTempDir();
const paths = await writeRulesCorpus(dir, 300);
const set = await loadRuleSet(dir, { dirs: [] });
const files = await Promise.all(paths.map(async (p) => ({ path: p, language: p.endsWith(".ts") ? "typescript" : "python", text: await Deno.readTextFile(p) } as any)));
let tp = 0, tf = 0, tr = 0, dirty = 0;
for (const f of files) {
  for (const [parser, rules] of rulesForFile(set, f)) {
    let t = performance.now();
    const root = parse(napiLang(parser), f.text).root();
    tp += performance.now() - t; t = performance.now();
    const fm = foldedMatcher(rules, parser)!; t = performance.now(); const hit = root.find(fm);
    tf += performance.now() - t; t = performance.now();
    if (hit) { dirty++; for (const r of rules) root.findAll(r.matcher); }
    tr += performance.now() - t;
  }
}
console.log({ parse: tp.toFixed(0), fold: tf.toFixed(0), rules: tr.toFixed(0), dirty, files: files.length });
