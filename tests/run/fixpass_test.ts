/**
 * The fix pre-pass (lib/run/fixpass.ts): a lint fix run hands biome's files to
 * its batch (one native `check --write` over copies) and gives the same report,
 * and writes the same files, as fixing them one by one on the WebAssembly path;
 * it keeps the fixes and the findings in the fixed texts in the cache; a
 * preview writes nothing; a Vue or Astro file is fixed whole.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLint } from "../../lib/run/mod.ts";
import type { Report } from "../../lib/report/schema.ts";
import { biome } from "../../lib/engines/biome/mod.ts";
import type { Biome } from "../../lib/engines/biome/mod.ts";
import { biomeCommand } from "../../lib/engines/biome/_bin.ts";
import { loadEngine } from "../../lib/engines/registry.ts";
import { astGrepEngine } from "../../lib/engines/ast_grep/mod.ts";
import type { ProposedChange } from "../../lib/run/types.ts";
import { stable, workspace } from "./_workspace.ts";

const ignore = (await biomeCommand()) === undefined;

const FILES: Record<string, string> = {
  "poly.toml": '[cache]\ndir = ".poly-cache"\n',
  "src/const.ts": "let a = 1;\nlet b = 'x';\nexport { a, b };\n",
  "src/imports.ts": 'import { z } from "./z";\nimport { a } from "./a";\nexport { a, z };\n',
  "src/unsafe.ts": "export const a: any = 1;\nif (a == 2) { debugger; }\n",
  "src/clean.ts": "export function d(n: number): number {\n  return n + 1;\n}\n",
  "src/bad.ts": "let = ;\nlet a = 1;\n",
  "src/crlf.ts": "let a = 1;\r\nlet b = 2;\r\nexport { a, b };\r\n",
  "web/tsconfig.json": '{ "compilerOptions": { "jsx": "react" } }\n',
  "web/page.tsx": "let n = 1;\nexport const P = () => <div tabIndex={n} />;\n",
  "data.json": '{"a": 1, "a": 2}\n',
  "a.py": "import os\nx = 1\n",
};

async function texts(root: string, files: Record<string, string>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const rel of Object.keys(files)) out[rel] = await Deno.readTextFile(join(root, rel));
  return out;
}

/** Runs `fn` with `target[key]` set to `value` (deleted for undefined), as it was again afterwards. */
async function patched<T extends object, K extends keyof T, R>(
  target: T,
  key: K,
  value: T[K] | undefined,
  fn: () => Promise<R>,
): Promise<R> {
  const saved = target[key];
  if (value === undefined) delete target[key];
  else target[key] = value;
  try {
    return await fn();
  } finally {
    target[key] = saved;
  }
}

Deno.test({
  name: "a lint fix run gives the same report and files whether biome fixes in a batch or file by file",
  ignore,
  async fn() {
    const batched = await workspace(FILES, "poly-fixpass-");
    const single = await workspace(FILES, "poly-fixpass-");
    const engine = await loadEngine(biome) as Biome;
    const runs: number[] = [];
    const a = await patched(
      engine,
      "native",
      { onRun: (r) => runs.push(r.files) },
      () => runLint({ paths: [], cwd: batched, fix: true, noCache: true, jobs: 1 }),
    );
    // biome's native command line missing: every fix on the WebAssembly path, file by file.
    const b = await patched(
      engine,
      "native",
      { command: null },
      () => runLint({ paths: [], cwd: single, fix: true, noCache: true, jobs: 1 }),
    );
    assert.deepEqual(stable(a), stable(b));
    assert.deepEqual(await texts(batched, FILES), await texts(single, FILES));
    assert.ok(a.summary.fixed! >= 5, `fixed ${a.summary.fixed}`);
    assert.equal(
      await Deno.readTextFile(join(batched, "src/const.ts")),
      "const a = 1;\nconst b = 'x';\n\nexport { a, b };\n",
    );
    assert.equal(await Deno.readTextFile(join(batched, "a.py")), "x = 1\n", "ruff fixed the Python file in the pool");
    // Nine biome files: one process fixes seven, one the project file apart, one lints the changed ones as they were.
    assert.equal(runs.length, 3, `processes: ${runs}`);
    // Honest: the file that does not parse is a syntax-error finding, never clean.
    const bad = a.results.find((r) => r.path === "src/bad.ts");
    assert.ok(bad?.diagnostics?.some((d) => d.code === "parse"), JSON.stringify(bad));
  },
});

Deno.test({
  name: "a lint fix run keeps the batch's fixes and the findings in the fixed texts: a check then misses nothing",
  ignore,
  async fn() {
    // The file that does not parse among them, and one biome refuses: the syntax error, and the refusal, are kept as
    // a check's lint of them.
    const files = { ...FILES, "package-lock.json": '{ "lockfileVersion": 3 }\n' };
    const root = await workspace(files, "poly-fixpass-");
    const fixed = await runLint({ paths: [], cwd: root, fix: true });
    assert.ok(fixed.summary.fixed! > 0);
    const check = await runLint({ paths: [], cwd: root });
    assert.equal(check.summary.cache!.misses, 0, JSON.stringify(check.summary.cache));
    assert.deepEqual(check.summary.diagnostics, fixed.summary.diagnostics);
    // The same texts again (an edit undone): fixed from the cache, to the same bytes.
    const after = await texts(root, files);
    for (const [rel, text] of Object.entries(files)) await Deno.writeTextFile(join(root, rel), text);
    const again = await runLint({ paths: [], cwd: root, fix: true });
    assert.equal(again.summary.cache!.misses, 0, JSON.stringify(again.summary.cache));
    assert.deepEqual(await texts(root, files), after);
    assert.deepEqual(stable(again), stable(fixed));
  },
});

Deno.test({
  name: "a lint fix run after a check counts biome's fixes from the check's findings: same report, no second lint",
  ignore,
  async fn() {
    const checked = await workspace(FILES, "poly-fixpass-");
    const cold = await workspace(FILES, "poly-fixpass-");
    const engine = await loadEngine(biome) as Biome;
    await runLint({ paths: [], cwd: checked, jobs: 1 });
    const runs: number[] = [];
    const a = await patched(
      engine,
      "native",
      { onRun: (r) => runs.push(r.files) },
      () => runLint({ paths: [], cwd: checked, fix: true, jobs: 1 }),
    );
    const b = await runLint({ paths: [], cwd: cold, fix: true, jobs: 1 });
    assert.deepEqual(stable(a), stable(b));
    assert.deepEqual(await texts(checked, FILES), await texts(cold, FILES));
    // The fix over the copies and the project file apart; the changed files' findings before came from the check.
    assert.equal(runs.length, 2, `processes: ${runs}`);
  },
});

Deno.test({
  name: "a lint fix preview proposes the batch's fixes and writes nothing",
  ignore,
  async fn() {
    const root = await workspace(FILES, "poly-fixpass-");
    const proposed: ProposedChange[] = [];
    await runLint({
      paths: [],
      cwd: root,
      fix: true,
      preview: true,
      noCache: true,
      onProposed: (change) => proposed.push(change),
    });
    assert.deepEqual(await texts(root, FILES), FILES, "nothing written");
    const constTs = proposed.find((c) => c.relPath === "src/const.ts");
    assert.equal(constTs?.after, "const a = 1;\nconst b = 'x';\n\nexport { a, b };\n");
    assert.ok(!proposed.some((c) => c.relPath === "src/clean.ts"));
  },
});

Deno.test({
  name: "a lint fix run fixes a Vue or Astro file's script in place, its template kept",
  ignore,
  async fn() {
    const files = {
      ".git/HEAD": "ref: refs/heads/main\n",
      "page.astro": "---\nimport B from './b.astro';\nimport A from './a.astro';\n---\n\n<A /><B />\n",
      "comp.vue":
        "<script setup>\nimport B from './b.vue';\nimport A from './a.vue';\n</script>\n<template>\n  <A /><B />\n</template>\n",
    };
    const root = await workspace(files, "poly-fixpass-");
    const report = await runLint({ paths: [], cwd: root, fix: true, noCache: true });
    assert.equal(report.summary.fixed, 2);
    assert.equal(
      await Deno.readTextFile(join(root, "page.astro")),
      "---\nimport A from './a.astro';\nimport B from './b.astro';\n---\n\n<A /><B />\n",
    );
    assert.equal(
      await Deno.readTextFile(join(root, "comp.vue")),
      "<script setup>\nimport A from './a.vue';\nimport B from './b.vue';\n</script>\n<template>\n  <A /><B />\n</template>\n",
    );
  },
});

const RULE_FILES: Record<string, string> = {
  "src/dbg.ts": "export function f(): number {\n  debugger;\n  return 1;\n}\n",
  "src/eval.ts": 'export const g = eval("1");\n',
  "src/plain.ts": "export const p = 1;\n",
  "src/const.ts": "let a = 1;\nexport { a };\n",
  "src/both.ts": "let b = 1;\nexport function h(): number {\n  debugger;\n  return b;\n}\n",
};

Deno.test({
  name: "a lint fix run lints the rule pack's files in one batch: a file whose findings carry no fix is left to it",
  ignore,
  async fn() {
    const batched = await workspace(RULE_FILES, "poly-fixpass-");
    const single = await workspace(RULE_FILES, "poly-fixpass-");
    const rules = await loadEngine(astGrepEngine);
    const fix = rules.fix!;
    const fixedOneByOne: string[] = [];
    const counted: typeof fix = (file, settings) => (fixedOneByOne.push(file.relPath), fix(file, settings));
    const a = await patched(
      rules,
      "fix",
      counted,
      () => runLint({ paths: [], cwd: batched, fix: true, noCache: true, jobs: 1 }),
    );
    // Fixed one by one: the files whose findings carry a fix, and the one biome changed first.
    assert.deepEqual(fixedOneByOne.sort(), ["src/both.ts", "src/const.ts", "src/dbg.ts"]);
    // Without its batch lint, every file is fixed and linted by the rule pack one by one.
    const b = await patched(
      rules,
      "lintMany",
      undefined,
      () => runLint({ paths: [], cwd: single, fix: true, noCache: true, jobs: 1 }),
    );
    assert.deepEqual(stable(a), stable(b));
    assert.deepEqual(await texts(batched, RULE_FILES), await texts(single, RULE_FILES));
    assert.equal(
      await Deno.readTextFile(join(batched, "src/dbg.ts")),
      "export function f(): number {\n  return 1;\n}\n",
      "the rule pack's fix applied in the pool",
    );
    const evalResult = a.results.find((r) => r.path === "src/eval.ts");
    assert.ok(evalResult?.diagnostics?.some((d) => d.code === "ts-no-eval"), JSON.stringify(evalResult));
  },
});

Deno.test({
  name: "a lint fix run checks a file no fixing engine changes as a check run does (ESLint configured, not installed)",
  ignore,
  async fn() {
    const files: Record<string, string> = {
      "package.json": '{ "name": "x", "devDependencies": { "eslint": "9" } }\n',
      "eslint.config.mjs": "export default [];\n",
      "src/a.ts": "export const a = 1;\n",
      "src/dbg.ts": "export function f(): number {\n  debugger;\n  return 1;\n}\n",
      "README.md": "# Title\n\nSome text.\n",
    };
    const checkRoot = await workspace(files, "poly-fixpass-");
    const fixRoot = await workspace(files, "poly-fixpass-");
    const check = await runLint({ paths: [], cwd: checkRoot, noCache: true, jobs: 1 });
    const fixed = await runLint({ paths: [], cwd: fixRoot, fix: true, noCache: true, jobs: 1 });
    assert.equal(fixed.summary.fixed, 1);
    const relative = (report: Report) =>
      JSON.parse(JSON.stringify(report.results).replaceAll(checkRoot, "ROOT").replaceAll(fixRoot, "ROOT"));
    const unfixed = (report: Report) => relative(report).filter((r: { path: string }) => r.path !== "src/dbg.ts");
    assert.deepEqual(unfixed(fixed), unfixed(check));
    const a = fixed.results.find((r) => r.path === "src/a.ts");
    assert.ok(a?.skipped?.includes("ESLint") || a?.skipped?.includes("bwrap"), JSON.stringify(a));
    assert.equal(
      await Deno.readTextFile(join(fixRoot, "src/dbg.ts")),
      "export function f(): number {\n  return 1;\n}\n",
    );
  },
});
