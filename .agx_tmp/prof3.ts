import { parse } from "@ast-grep/napi";
const empty = parse("TypeScript", "").root();
const big = parse("TypeScript", "const a = 1;\n".repeat(60)).root();
function bench(name: string, root: any, cfg: any) {
  const t = performance.now();
  for (let i = 0; i < 2000; i++) root.findAll(cfg);
  console.log(name, ((performance.now() - t) / 2000 * 1000).toFixed(1), "us/call");
}
bench("kind/empty", empty, { rule: { kind: "debugger_statement" } });
bench("pattern/empty", empty, { rule: { pattern: "console.$M($$$A)" } });
bench("pattern+constraint/empty", empty, { rule: { pattern: "console.$M($$$A)" }, constraints: { M: { regex: "^(log|debug)$" } } });
bench("kind/60lines", big, { rule: { kind: "debugger_statement" } });
bench("pattern/60lines", big, { rule: { pattern: "console.$M($$$A)" } });
bench("regex-only/60lines", big, { rule: { kind: "call_expression", regex: "^eval" } });
