/**
 * A rule applies to the file extensions of its `language`, exactly as `ast-grep scan` chooses
 * them (issue 21, issue 27): TypeScript → .ts .mts .cts, Tsx → .tsx, JavaScript → .js .mjs
 * .cjs .jsx, Python → .py .pyi (not .pyw), ... The real `poly lint` process on
 * tests/engines/testdata/parity/ast-grep-rule-language (its README gives ast-grep's verdict),
 * on both of poly's paths (the command line's batch and napi).
 */
import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { copyFixture, runPoly } from "../_helpers/cli.ts";
import { parserFor } from "../../lib/engines/ast_grep/languages.ts";

const NATIVE = [
  "src.cjs:only-js-debugger:2:3",
  "src.cts:only-ts-debugger:2:3",
  "src.js:only-js-debugger:2:3",
  "src.jsx:only-js-debugger:2:3",
  "src.mjs:only-js-debugger:2:3",
  "src.mts:only-ts-debugger:2:3",
  "src.ts:only-ts-debugger:2:3",
  "src.tsx:only-tsx-debugger:2:3",
  "tool.py:only-py-breakpoint:2:5",
];

async function fixture(): Promise<string> {
  const dir = await copyFixture("../tests/engines/testdata/parity/ast-grep-rule-language");
  await Deno.mkdir(join(dir, ".git"));
  await Deno.writeTextFile(
    join(dir, "poly.toml"),
    '[rules]\ndirs = ["rules"]\n\n[tools.biome]\nenabled = false\n\n[tools.ruff]\nenabled = false\n\n[tools.oxlint]\nenabled = false\n',
  );
  return dir;
}

async function found(dir: string, args: string[]): Promise<string[]> {
  const out = await runPoly(["lint", "--no-cache", "--no-workspace", "--format", "json", ...args], { cwd: dir });
  const doc = JSON.parse(out.stdout) as {
    results: {
      path: string;
      diagnostics?: { engine: string; code?: string; span?: { start_line: number; start_col: number } }[];
    }[];
  };
  return doc.results.flatMap((r) =>
    (r.diagnostics ?? []).filter((d) => d.engine === "ast-grep" && d.code?.startsWith("only-")).map((d) =>
      `${r.path}:${d.code}:${d.span?.start_line}:${d.span?.start_col}`
    )
  ).sort();
}

Deno.test("parserFor() takes a rule language's file extensions as ast-grep maps them", () => {
  const at = (
    lang: Parameters<typeof parserFor>[0],
    path: string,
    language: Parameters<typeof parserFor>[1]["language"],
  ) => parserFor(lang, { path, language });
  equal(at("typescript", "a.ts", "typescript"), "TypeScript");
  equal(at("typescript", "a.cts", "typescript"), "TypeScript");
  equal(at("typescript", "a.tsx", "typescript"), undefined);
  equal(at("typescript", "a.js", "javascript"), undefined);
  equal(at("tsx", "a.tsx", "typescript"), "Tsx");
  equal(at("tsx", "a.jsx", "javascript"), undefined);
  equal(at("javascript", "a.jsx", "javascript"), "JavaScript");
  equal(at("javascript", "a.mjs", "javascript"), "JavaScript");
  equal(at("python", "a.pyw", "python"), undefined);
  equal(at("python", "a.pyi", "python"), "python");
  equal(at("bash", "run", "shell"), undefined);
});

Deno.test("poly lint applies each rule to its language's extensions only, as ast-grep scan does (command-line batch)", async () => {
  deepEqual(await found(await fixture(), []), NATIVE);
});

Deno.test("poly lint applies each rule to its language's extensions only, as ast-grep scan does (napi, file by file)", async () => {
  const dir = await fixture();
  const files = NATIVE.map((n) => n.split(":")[0]).concat(["tool.pyw"]);
  const one: string[] = [];
  for (const f of files) one.push(...await found(dir, [f]));
  deepEqual(one.sort(), NATIVE);
});

Deno.test("parserFor() compares extensions as written, as ast-grep does (A.TS gets no TypeScript rule)", () => {
  equal(parserFor("typescript", { path: "A.TS", language: "typescript" }), undefined);
  equal(parserFor("javascript", { path: "b.Js", language: "javascript" }), undefined);
});
