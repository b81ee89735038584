import { parse } from "@ast-grep/napi";
import { ensureLanguages, napiLang } from "/work/main/lib/rules/_langs.ts";
await ensureLanguages();
const [lang, src] = Deno.args;
function walk(n: any, d = 0) { console.log(" ".repeat(d) + n.kind() + (n.isLeaf() ? " " + JSON.stringify(n.text()) : "")); for (const c of n.children()) walk(c, d + 1); }
walk(parse(napiLang(lang as any), src).root());
