import { parse, parseAsync } from "@ast-grep/napi";
import { ensureLanguages } from "../lib/rules/_langs.ts";
import { writeRulesCorpus } from "../tests/bench/_rules_corpus.ts";
await ensureLanguages();
const dir = await Deno.makeTempDir();
const paths = (await writeRulesCorpus(dir, 200));
const ts = await Promise.all(paths.filter(p=>p.endsWith(".ts")).map(p => Deno.readTextFile(p)));
const py = await Promise.all(paths.filter(p=>p.endsWith(".py")).map(p => Deno.readTextFile(p)));
for (const [name, lang, texts] of [["ts", "TypeScript", ts], ["py", "python", py]] as const) {
  let t = performance.now();
  for (const x of texts) parse(lang, x).root().kind();
  console.log(name, "parse+kind", ((performance.now() - t) / texts.length).toFixed(2), "ms");
  t = performance.now();
  for (const x of texts) parse(lang, x).root().find({rule: {kind: "ERROR"}});
  console.log(name, "parse+find ERROR", ((performance.now() - t) / texts.length).toFixed(2), "ms");
  t = performance.now();
  await Promise.all(texts.map(x => parseAsync(lang, x)));
  console.log(name, "parseAsync all", ((performance.now() - t) / texts.length).toFixed(2), "ms");
}
