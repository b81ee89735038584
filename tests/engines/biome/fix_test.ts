/**
 * Parity of biome's two fix paths: the native command line (one `check --write`
 * process over copies of a batch's texts, `Biome.fixMany`) and the WebAssembly
 * module (`fix`, one file at a time) must give identical fixed texts, the same
 * count of fixed issues, and — what the batch also gives — the findings `lint`
 * gives for each fixed text: for safe fixes and assist actions, files with
 * nothing to fix, parse errors, Unicode, CRLF, BOM, JSON and CSS, a
 * `tsconfig.json` beside a `.tsx` file, a manifest's dependencies and a
 * configuration's globs. A failing or missing command line loses no file.
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { Biome } from "../../../lib/engines/biome/mod.ts";
import { configuration } from "../../../lib/engines/biome/_shared.ts";
import { fixNative, projectFile } from "../../../lib/engines/biome/_fix.ts";
import { biomeCommand } from "../../../lib/engines/biome/_bin.ts";
import { findExecutable } from "../../../lib/fs/executable.ts";
import {
  EngineRefusal,
  type EngineSettings,
  type FixOutput,
  type Language,
  type LintOutput,
  type Settled,
  type SourceFile,
  SourceSyntaxError,
} from "../../../lib/engines/types.ts";
import { settings } from "../_harness.ts";
import { tempDir } from "../../_helpers/temp.ts";

const available = findExecutable(Deno.build.os === "windows" ? "node" : "sh") !== undefined &&
  (await biomeCommand()) !== undefined;
const ignore = !available;

/** relPath → text, and the language poly would give it. Nothing is read from disk: the copies are the texts. */
const CASES: [string, string, Language][] = [
  ["src/const.ts", "let a = 1;\nlet b = 'x';\nexport { a, b };\n", "typescript"],
  ["src/imports.ts", 'import { z } from "./z";\nimport { a } from "./a";\nexport { a, z };\n', "typescript"],
  ["src/unsafe.ts", "export const a: any = 1;\nif (a == 2) { debugger; }\n", "typescript"],
  ["src/clean.ts", "export function d(n: number): number {\n  return n + 1;\n}\n", "typescript"],
  [
    "src/several.ts",
    'import { b } from "./b";\nimport { a } from "./a";\nlet x = a + b;\nexport { x };\n',
    "typescript",
  ],
  ["src/unicode.ts", 'let é = "😀";\nlet 😀x = é;\nexport { é, 😀x };\n', "typescript"],
  ["src/crlf.ts", "let a = 1;\r\nlet b = 2;\r\nexport { a, b };\r\n", "typescript"],
  ["src/bom.ts", "\uFEFFlet c = 3;\nexport { c };\n", "typescript"],
  ["src/empty.ts", "", "typescript"],
  ["src/comp.tsx", "export const C = () => <div><img src='x' /></div>;\nlet y = 1;\nexport { y };\n", "typescript"],
  ["src/plain.js", "var v = 1;\nlet w = v;\nmodule.exports = { w };\n", "javascript"],
  ["data/data.json", '{"a": 1, "a": 2}\n', "json"],
  ["style/a.css", "a { color: red; color: blue; }\n", "css"],
  // A tsconfig.json beside a .tsx file: it governs no other copy (the WebAssembly path lints each file alone).
  ["web/tsconfig.json", '{ "compilerOptions": { "jsx": "react" } }\n', "json"],
  [
    "web/page.tsx",
    'export const P = () => <div tabIndex={1} dangerouslySetInnerHTML={{ __html: "x" }} />;\n',
    "typescript",
  ],
  ["package.json", '{ "name": "x", "dependencies": { "react": "18" } }\n', "json"],
  // Parse errors: the WebAssembly path fixes (or refuses) these; both paths give the same.
  ["bad/syntax.ts", "let = ;\nlet a = 1;\n", "typescript"],
  ["bad/syntax.json", '{"a": 1,, }\n', "json"],
];

function sources(cases: [string, string, Language][], root = "/nonexistent"): SourceFile[] {
  return cases.map(([relPath, text, language]) => ({ path: `${root}/${relPath}`, relPath, language, text }));
}

function wasmOnly(): Biome {
  const engine = new Biome();
  engine.native = { command: null };
  return engine;
}

/** What the WebAssembly path gives for a file: its fix, and the findings `lint` gives for the fixed text. */
async function wasmFix(engine: Biome, file: SourceFile, s: EngineSettings): Promise<Settled<FixOutput>> {
  try {
    const out = await engine.fix(file, s);
    return { ...out, lint: await engine.lint({ ...file, text: out.text }, s) };
  } catch (e) {
    return e as Error;
  }
}

function plain(result: Settled<FixOutput>): unknown {
  if (result instanceof Error) return { error: result.message, name: result.name };
  return result;
}

function assertSame(files: SourceFile[], native: Settled<FixOutput>[], wasm: Settled<FixOutput>[]): void {
  equal(native.length, files.length);
  files.forEach((f, i) => {
    const a = plain(native[i]);
    const b = plain(wasm[i]);
    // A file the native path leaves to the WebAssembly path has no findings of the fixed text from the batch.
    const withoutLint = (x: unknown) => {
      if (!x || typeof x !== "object" || !("lint" in x)) return x;
      const { lint: _lint, ...rest } = x;
      return rest;
    };
    const nativeLint = native[i] instanceof Error ? undefined : (native[i] as FixOutput).lint;
    deepEqual(
      nativeLint ? a : withoutLint(a),
      nativeLint ? b : withoutLint(b),
      `${f.relPath}: native ${JSON.stringify(a)} and WebAssembly ${JSON.stringify(b)} differ`,
    );
  });
}

const SETTINGS = [
  settings(),
  settings({ ignore: ["useConst"] }),
  settings({ configuration: { linter: { rules: { style: { useTemplate: "error" } } } } }),
];

const files = sources(CASES);

Deno.test("projectFile(): package.json and tsconfig/jsconfig files, in any folder", () => {
  for (const yes of ["package.json", "a/package.json", "tsconfig.json", "a/tsconfig.build.json", "jsconfig.json"]) {
    ok(projectFile(yes), yes);
  }
  for (const no of ["a/package.json.bak", "mypackage.json", "src/tsconfig.ts", "a.json"]) ok(!projectFile(no), no);
});

Deno.test({
  name: "biome native fixMany() equals the WebAssembly path on every case, under several settings",
  ignore,
  async fn() {
    const wasm = wasmOnly();
    for (const s of SETTINGS) {
      const runs: number[] = [];
      const native = new Biome();
      native.native = { onRun: (r) => runs.push(r.files) };
      const a = await native.fixMany(files, s);
      const b = await Promise.all(files.map((f) => wasmFix(wasm, f, s)));
      assertSame(files, a, b);
      // The fix over the copies, the project files apart, and once more for the changed ones as they were.
      equal(runs.length, 3, `three processes: ${runs}`);
      equal(runs[0], files.length - 2, "every file but the two project files in the first process");
      equal(runs[2], 2, "the project files in a process of their own");
    }
  },
});

Deno.test({
  name: "biome native fixMany() counts from the findings a check found (linted): no second process, the same results",
  ignore,
  async fn() {
    const s = settings();
    // The files that parse: a check caches the syntax error of one that does not, not findings to count from.
    const all = await new Biome().lintMany(files, s);
    const parsed = files.filter((_, i) => !(all[i] instanceof Error));
    ok(parsed.length >= 12 && parsed.length < files.length, `${parsed.length}`);
    const linted = all.filter((r): r is LintOutput => !(r instanceof Error));
    const runs: number[] = [];
    const engine = new Biome();
    engine.native = { onRun: (r) => runs.push(r.files) };
    const told = await engine.fixMany(parsed, s, linted);
    equal(runs.length, 2, `the fix over the copies and the project files apart, nothing linted again: ${runs}`);
    deepEqual(told.map(plain), (await new Biome().fixMany(parsed, s)).map(plain));
    // Some known, some not: only the others are linted as they were.
    runs.length = 0;
    const half = linted.map((r, i) => parsed[i].relPath === "src/const.ts" ? undefined : r);
    const mixed = await engine.fixMany(parsed, s, half);
    deepEqual(mixed.map(plain), told.map(plain));
    equal(runs.length, 3, `${runs}`);
    equal(runs[1], 1, "src/const.ts alone linted as it was");
  },
});

Deno.test({
  name: "biome fix: a fix that would leave a file that parses one that does not is not applied, on both paths",
  ignore,
  async fn() {
    // noUselessEscapeInString's fix turns `'<\/style>'` into `'</style>'`, which ends the `<style>` element early.
    const text = "<h1>x</h1>\n<style>\n  .a {\n    content: '<\\/style>';\n  }\n</style>\n";
    const html: SourceFile = { path: "/nonexistent/page.html", relPath: "page.html", language: "html", text };
    const s = settings();
    const checked = await new Biome().lint(html, s);
    deepEqual(checked.diagnostics.map((d) => d.code), ["suspicious/noUselessEscapeInString"]);
    const expected = { text, fixed: 0, lint: checked };
    deepEqual(await wasmOnly().fix(html, s), expected, "WebAssembly: kept, its findings those of the text as read");
    deepEqual((await new Biome().fixMany([html], s))[0], expected, "native: the same");
    // Nothing to fix: the findings it found come back too, so the pipeline does not lint the text again.
    const clean = files.find((f) => f.relPath === "src/clean.ts")!;
    deepEqual(await wasmOnly().fix(clean, s), { text: clean.text, fixed: 0, lint: await new Biome().lint(clean, s) });
  },
});

Deno.test({
  name: "biome fix: a file biome cannot parse is not fixed, on both paths (parity/biome-fix-unparsed)",
  ignore,
  async fn() {
    const path = new URL("../testdata/parity/biome-fix-unparsed/decorated.ts", import.meta.url).pathname;
    const file: SourceFile = {
      path,
      relPath: "decorated.ts",
      language: "typescript",
      text: Deno.readTextFileSync(path),
    };
    const s = settings();
    const native = (await new Biome().fixMany([file], s))[0];
    ok(native instanceof SourceSyntaxError, String(native));
    const wasm = await wasmOnly().fix(file, s).catch((e) => e);
    ok(wasm instanceof SourceSyntaxError, String(wasm));
    // Its findings are the check's: the parse error and the rules' findings in the text as read.
    const codes = (native as SourceSyntaxError).diagnostics.map((d) => d.code).sort();
    deepEqual(
      codes,
      (await new Biome().lint(file, s).catch((e) => e)).diagnostics.map((d: { code: string }) => d.code).sort(),
    );
    ok(codes.includes("parse") && codes.includes("complexity/useArrowFunction"), String(codes));
  },
});

Deno.test({
  name: "biome native fixMany() fixes (safe fixes and assist actions, counted; unsafe ones left as findings)",
  ignore,
  async fn() {
    const direct = await fixNative(files, configuration(settings(), "fix"));
    const by = new Map(files.map((f, i) => [f.relPath, direct[i]]));
    equal(by.get("src/const.ts")?.text, "const a = 1;\nconst b = 'x';\n\nexport { a, b };\n");
    ok(by.get("src/imports.ts")?.text.startsWith('import { a } from "./a";\nimport { z } from "./z";'));
    equal(by.get("src/clean.ts")?.text, CASES[3][1], "nothing to fix");
    equal(by.get("src/clean.ts")?.before, undefined, "and not linted twice");
    // A file that does not parse: its findings as read, the parse error among them (the caller keeps it as it is).
    ok(by.get("bad/syntax.ts")?.before?.some((d) => d.category === "parse"), JSON.stringify(by.get("bad/syntax.ts")));
    const results = await new Biome().fixMany(files, settings());
    const of = new Map(files.map((f, i) => [f.relPath, results[i] as FixOutput]));
    equal(of.get("src/const.ts")!.fixed, 2);
    equal(of.get("src/clean.ts")!.fixed, 0);
    const unsafe = of.get("src/unsafe.ts")!;
    equal(unsafe.fixed, 0);
    deepEqual(unsafe.lint!.diagnostics.map((d) => d.code).sort(), [
      "suspicious/noDebugger",
      "suspicious/noDoubleEquals",
      "suspicious/noExplicitAny",
    ]);
  },
});

Deno.test({
  name: "biome fixMany(): a crashing or missing native program, or refused files, lose no file",
  ignore,
  async fn() {
    const dir = await tempDir({ prefix: "poly-biome-fix-crash-" });
    try {
      const some = files.slice(0, 6);
      const wasm = wasmOnly();
      const expected = await Promise.all(some.map((f) => wasmFix(wasm, f, settings())));
      const crash = `${dir}/crash`;
      await Deno.writeTextFile(crash, "#!/bin/sh\nprintf 'half a report'\nexit 101\n", { mode: 0o755 });
      const crashing = new Biome();
      crashing.native = { command: { binary: crash, script: crash, env: {} } };
      assertSame(some, await crashing.fixMany(some, settings()), expected);
      const absent = new Biome();
      absent.native = { command: { binary: `${dir}/absent`, script: `${dir}/absent`, env: {} } };
      assertSame(some, await absent.fixMany(some, settings()), expected);
      // Files biome refuses by its own rules are refused on both paths, with the reason.
      const refused = sources([
        ["node_modules/dep/index.ts", "let a = 1;\n", "typescript"],
        ["package-lock.json", '{"a": 1}', "json"],
      ]);
      for (const result of await new Biome().fixMany(refused, settings())) ok(result instanceof EngineRefusal);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "biome fixMany(): a manifest's dependencies and a configuration's globs apply natively, as on WebAssembly",
  ignore,
  async fn() {
    const root = "/nonexistent/repo";
    const some = sources([
      [
        "app/hooks.tsx",
        'import { useEffect } from "react";\nexport function H({ a }) {\n  useEffect(() => {\n    console.log(a);\n  }, []);\n  let z = 1;\n  return z;\n}\n',
        "typescript",
      ],
      ["app/legacy/old.ts", "let q = 1;\nexport { q };\n", "typescript"],
      ["app/new.ts", "let q = 1;\nexport { q };\n", "typescript"],
    ], root);
    const manifest = {
      files: [{ path: `${root}/app/package.json`, hash: "h" }],
      options: { dependencies: { react: "18" } },
      root: `${root}/app`,
    };
    const overrides = {
      overrides: [{ includes: ["legacy/**"], linter: { rules: { style: { useConst: "off" } } } }],
    };
    const cases: EngineSettings[] = [
      { ...settings(), manifest },
      { ...settings({ configuration: overrides }), native: { files: [], options: {}, root: `${root}/app` } },
    ];
    const wasm = wasmOnly();
    for (const s of cases) {
      const runs: number[] = [];
      const native = new Biome();
      native.native = { onRun: (r) => runs.push(r.files) };
      const a = await native.fixMany(some, s);
      ok(runs.length > 0, "the native path ran");
      const b = await Promise.all(some.map((f) => wasmFix(wasm, f, s)));
      assertSame(some, a, b);
      ok(a.every((r) => !(r instanceof Error) && r.lint), "each file had a native result");
    }
    const [hooks] = await new Biome().fixMany(some, cases[0]);
    ok(
      (hooks as FixOutput).lint!.diagnostics.some((d) => d.code === "correctness/useExhaustiveDependencies"),
      "react's rules run under the manifest's dependencies",
    );
    const [, old, fresh] = await new Biome().fixMany(some, cases[1]);
    ok((old as FixOutput).text.startsWith("let q = 1;"), "the override for legacy/** applied natively");
    ok((fresh as FixOutput).text.startsWith("const q = 1;"), "and not beside it");
  },
});

Deno.test({
  name: "biome fix: Vue, Svelte and Astro files are fixed whole natively, and left as they are on WebAssembly",
  ignore,
  async fn() {
    const templates = sources([
      ["e.astro", "---\nimport B from './b.astro';\nimport A from './a.astro';\n---\n\n<A /><B />\n", "astro"],
      [
        "f.vue",
        "<script setup>\nimport B from './b.vue';\nimport A from './a.vue';\n</script>\n<template>\n  <A /><B />\n</template>\n",
        "vue",
      ],
      [
        "g.svelte",
        "<script>\nimport B from './b.svelte';\nimport A from './a.svelte';\n</script>\n\n<A /><B />\n",
        "svelte",
      ],
    ]);
    const native = await new Biome().fixMany(templates, settings());
    templates.forEach((file, i) => {
      const out = native[i] as FixOutput;
      equal(out.fixed, 1, file.relPath);
      const before = file.text.indexOf("import B");
      const after = out.text.indexOf("import A");
      equal(out.text.slice(0, after), file.text.slice(0, before), `${file.relPath}: what leads to the script is kept`);
      ok(
        out.text.endsWith(file.text.slice(file.text.lastIndexOf("import A") + 30)),
        `${file.relPath}: the template too`,
      );
      ok(out.text.indexOf("import A") < out.text.indexOf("import B"), `${file.relPath}: its imports sorted`);
    });
    // The module's fixFile returns the script alone: written back it would replace the file. Never used for these.
    const wasm = wasmOnly();
    for (const file of templates) deepEqual(await wasm.fix(file, settings()), { text: file.text, fixed: 0 });
  },
});

Deno.test({
  name: "biome fixGroups(): a monorepo's packages share one process, each file under its own manifest, as fixMany each",
  ignore,
  async fn() {
    const root = "/nonexistent/mono";
    const hooks =
      'import { useEffect } from "react";\nexport function H({ a }) {\n  useEffect(() => {\n    console.log(a);\n  }, []);\n  let z = 1;\n  return z;\n}\n';
    const web = sources([["web/src/hooks.tsx", hooks, "typescript"], [
      "web/src/b.ts",
      "let b = 1;\nexport { b };\n",
      "typescript",
    ]], root);
    const cli = sources([["cli/src/hooks.tsx", hooks, "typescript"], [
      "cli/old.js",
      "with (Math) { x = cos(PI); }\n",
      "javascript",
    ]], root);
    const manifest = (at: string, options: Record<string, unknown>) => ({
      files: [{ path: `${root}/${at}/package.json`, hash: "h" }],
      options,
      root: `${root}/${at}`,
    });
    const groups = [
      { files: web, settings: { ...settings(), manifest: manifest("web", { dependencies: { react: "18" } }) } },
      { files: cli, settings: { ...settings(), manifest: manifest("cli", { type: "commonjs" }) } },
      { files: sources([["top.ts", "let t = 1;\nexport { t };\n", "typescript"]], root), settings: settings() },
    ];
    const runs: number[] = [];
    const shared = new Biome();
    shared.native = { onRun: (r) => runs.push(r.files) };
    const together = await shared.fixGroups(groups);
    equal(runs[0], 5, `one process fixed the five files: ${runs}`);
    const alone = await Promise.all(groups.map((g) => new Biome().fixMany(g.files, g.settings)));
    deepEqual(together.map((r) => r.map(plain)), alone.map((r) => r.map(plain)));
    const lint = (r: Settled<FixOutput>) => (r as FixOutput).lint!.diagnostics.map((d) => d.code);
    ok(lint(together[0][0]).includes("correctness/useExhaustiveDependencies"), "react's rules under web's manifest");
    ok(!lint(together[1][0]).includes("correctness/useExhaustiveDependencies"), "not under cli's");
    ok(!(together[1][1] instanceof Error) && (together[1][1] as FixOutput).lint, "cli/old.js is a script there");
  },
});

Deno.test({
  name: "biome fix applies the assist actions the configuration enables, on both paths (organizeImports off is kept)",
  ignore,
  async fn() {
    const file = sources([[
      "src/order.ts",
      'import { z } from "./z";\nimport { a } from "./a";\nlet q = 1;\nexport { a, z, q };\n',
      "typescript",
    ]])[0];
    const off = { assist: { actions: { source: { organizeImports: "off" } } } };
    const cases: [EngineSettings, boolean][] = [
      [settings(), true],
      [settings({ configuration: off }), false],
      [settings({ configuration: { assist: { enabled: false } } }), false],
      // The repository's own biome file, as lib/config/native/ reads it.
      [{ ...settings(), native: { files: [], options: off, root: "/nonexistent" } }, false],
    ];
    const wasm = wasmOnly();
    for (const [s, sorts] of cases) {
      const [native] = await new Biome().fixMany([file], s);
      const single = await wasm.fix(file, s);
      equal((native as FixOutput).text, single.text);
      equal((native as FixOutput).fixed, single.fixed);
      const text = single.text;
      equal(text.indexOf("./a") < text.indexOf("./z"), sorts, `${JSON.stringify(s.tool)}: ${text}`);
      ok(text.includes("const q = 1;"), "lint's safe fixes either way");
    }
  },
});
