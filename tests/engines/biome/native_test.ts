/**
 * Parity of biome's two lint paths: the native command line (one process for a
 * batch, `Biome.lintMany`) and the WebAssembly module (one file at a time) must
 * give identical results — code, severity, message, span, engine, url, and the
 * parse error with its line and column — for the biome fixtures and a varied set
 * of files (every language biome lints, syntax errors, Unicode, CRLF, lone CR,
 * BOM, control characters, suppressions, empty files, many findings), under
 * several settings. Files biome will not process natively must still get their
 * WebAssembly result, and a native failure must lose no file.
 *
 * @module
 */
import { inProcessWith } from "../../_helpers/isolated.ts";
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { Biome } from "../../../lib/engines/biome/mod.ts";
import { configuration } from "../../../lib/engines/biome/_shared.ts";
import {
  biomeLineStarts,
  lintNative,
  mirrorSafe,
  nativeSafe,
  processedFiles,
  toIndex,
} from "../../../lib/engines/biome/_native.ts";
import { biomeCommand, materialize } from "../../../lib/engines/biome/_bin.ts";
import { findExecutable } from "../../../lib/fs/executable.ts";
import { EngineError, type Language, type Settled, type SourceFile } from "../../../lib/engines/types.ts";
import type { LintOutput } from "../../../lib/engines/types.ts";
import { FIXTURES, settings } from "../_harness.ts";
import { tempDir } from "../../_helpers/temp.ts";

const available = findExecutable("node") !== undefined && (await biomeCommand()) !== undefined;
const ignore = !available;

const many = Array.from({ length: 150 }, (_, i) =>
  [
    `let v${i} = ${i};`,
    `if (v${i} == ${i}) { debugger; }`,
    `var w${i}: any = "é${i}😀" + v${i};`,
    `export function f${i}(a: any) { return a != null ? a : w${i}; }`,
  ][i % 4]).join("\n") + "\n";

/** name (a path under the case directory) → content, and the language poly would give it. */
const CASES: [string, string, Language][] = [
  ["many.ts", many, "typescript"],
  [
    "unicode.ts",
    'const s = "é😀👩‍👩‍👧中文e\u0301"; var x = 1 == 2; debugger;\nconst 变量 = "ＡＢＣ"; if (变量 == "x") {}\n',
    "typescript",
  ],
  ["crlf.ts", "let a = 1;\r\ndebugger;\r\nif (a == 2) {\r\n  var b = 😀;\r\n}\r\n", "typescript"],
  ["crlf_ok.ts", "let a = 1;\r\n\r\ndebugger;\r\nif (a == 2) { a = 3; }\r\nexport { a };\r\n", "typescript"],
  ["lone_cr.ts", "let a = 1;\rdebugger;\rif (a == 2) {}\r\nconst é = 1 == 1;\r", "typescript"],
  ["bom.ts", "\uFEFFdebugger; let a = 1; if (a == 2) {}\nlet b = 2;\n", "typescript"],
  ["bom_crlf.ts", "\uFEFFlet a = 1;\r\ndebugger;\r\n", "typescript"],
  ["bom_syntax.ts", "\uFEFFlet = ;\n", "typescript"],
  ["empty.ts", "", "typescript"],
  ["blank.ts", "\n\n   \n", "typescript"],
  ["tabs.ts", "\t\tdebugger;\n\tlet  x\t= 1 == 2;\n", "typescript"],
  ["control.ts", 'const re = /\\x01/;\nconst t = "a\u000bb\u0001c"; debugger;\nconst u = /\u0001/;\n', "typescript"],
  ["syntax_many.ts", "let = ;\nfunction (\n{{\nconst x = ;\n", "typescript"],
  ["syntax_unicode.ts", 'const s = "😀"; const 😀x = 1;\n', "typescript"],
  ["syntax_crlf.ts", "let a = 1;\r\nlet = ;\r\n", "typescript"],
  [
    "suppress.ts",
    [
      "// biome-ignore lint/suspicious/noDebugger: ok",
      "debugger;",
      "// biome-ignore lint/suspicious/noDoubleEquals: unused here",
      "const a = 1;",
      "// biome-ignore lint: no reason and no rule",
      "debugger;",
      "// biome-ignore lint/nonsense/noSuchRule: x",
      "debugger;",
      "export { a };",
      "",
    ].join("\n"),
    "typescript",
  ],
  ["types.d.ts", "declare const x: any;\nexport declare function f(a: any): void;\n", "typescript"],
  ["mod.mts", "export let a = 1; debugger;\n", "typescript"],
  ["mod.cts", "let a = 1 == 2; export = a;\n", "typescript"],
  [
    "comp.tsx",
    [
      'import { useEffect, useState } from "react";',
      "export function C({ a }: { a: number }) {",
      "  const [s, setS] = useState(0);",
      "  if (a) { useEffect(() => { setS(a); }, []); }",
      '  return <div onClick={() => {}}><img src="x" /><a href="#">x</a><button>b</button>{s}</div>;',
      "}",
      "",
    ].join("\n"),
    "typescript",
  ],
  ["plain.js", "var x = 1;\nif (x = 2) {}\nfunction f() { return arguments; }\nx == null;\n", "javascript"],
  ["comp.jsx", 'export const A = () => <div><img src="x" /><a>y</a><label>l</label></div>;\n', "javascript"],
  ["mod.mjs", "export const a = { b: 1, b: 2 }; debugger;\n", "javascript"],
  ["common.cjs", "module.exports = { a: 1, a: 2 };\n", "javascript"],
  ["data.json", '{"a": 1, "a": 2, "é😀": {"x": [1, 2], "x": null}}\n', "json"],
  ["bad.json", '{"a": 1, // no comments here\n "b": [1, 2,]}\n', "json"],
  [
    "tsconfig.json",
    '{\n  // comments are fine here\n  "compilerOptions": {"strict": true, "strict": false},\n}\n',
    "json",
  ],
  ["conf.jsonc", '/* c */ {"a": 1, "a": 2}\r\n', "json"],
  ["empty.json", "", "json"],
  [
    "style.css",
    '@import "a.css";\na { color: red; color: blue; }\nb { colr: red; width: 10pxx; }\n.é😀 { colr: red }\n@import "b.css";\n',
    "css",
  ],
  ["bad.css", "a { color: red\n", "css"],
  ["crlf.css", "a {\r\n  color: red;\r\n  color: blue;\r\n}\r\n", "css"],
  ["schema.graphql", "query Q {\n  a\n  a\n  b(x: 1, x: 2)\n}\n", "graphql"],
  ["bad.graphql", "query {\n", "graphql"],
  // biome's own configuration files are linted as files (the `$schema` check as the command line makes it), and
  // one beside other files configures nothing for them: `nested/x.ts` keeps its findings.
  ["conf/biome.json", '{"$schema": "https://biomejs.dev/schemas/1.0.0/schema.json", "nope": 1}\n', "json"],
  [
    "pinned/biome.json",
    '{"$schema": "https://biomejs.dev/schemas/2.5.14/schema.json", "root": true, "root": false}\n',
    "json",
  ],
  ["nested/biome.jsonc", '{\n  "root": false,\n  // off\n  "linter": { "enabled": false }\n}\n', "json"],
  ["nested/x.ts", "let a = 1;\nif (a == 2) { debugger; }\nexport { a };\n", "typescript"],
  // The script biome lints in a Vue, Svelte or Astro file: the WebAssembly module places findings in it, the command
  // line in the whole file (mod.ts `embeddedStart`).
  [
    "sfc/a.vue",
    '<template>\n  <p>{{ a }}</p>\n</template>\n<script setup lang="ts">\nimport { ref } from "vue";\nconst a = 1;\n' +
    'if (a == 2) { debugger; }\n</script>\n<script lang="ts">\nvar z = 1 == 1;\n</script>\n',
    "vue",
  ],
  ["sfc/b.vue", '<!-- <script> -->\n<SCRIPT lang="ts">\r\nconst q = "é😀" == "x";\r\n</SCRIPT>\r\n', "vue"],
  [
    "sfc/c.svelte",
    '<script>\n  import { onMount } from "svelte";\n  let x = 1;\n  if (x == 2) { debugger; }\n</script>\n',
    "svelte",
  ],
  ["sfc/d.svelte", "<script>let x = 1 == 2;</script>\n<p>{x}</p>\n", "svelte"],
  [
    "sfc/e.svelte",
    '<script lang="ts" generics="T extends Record<string, unknown>">\n  let { data }: { data: T } = $props();\n  ' +
    "let y = 1 == 2;\n</script>\n",
    "svelte",
  ],
  ["sfc/f.astro", '\n---\nimport x from "y";\nif (1 == 2) { debugger; }\n---\n<p>hi</p>\n', "astro"],
];

/** Fixture files, linted where they lie. */
const FIXTURE_CASES: [string, Language][] = [
  ["biome/bad.ts", "typescript"],
  ["biome/syntax.ts", "typescript"],
  ["biome/unformatted.ts", "typescript"],
  ["oxlint/bad.ts", "typescript"],
  ["oxlint/syntax.ts", "typescript"],
];

/**
 * Files biome's command line will not process (protected, in node_modules, over 1 MiB, an awkward path), or would
 * only because it is named on it (JSON below a `node_modules/` folder deeper down, which `biome lint .` never walks).
 */
const FALLBACK_CASES: [string, string, Language][] = [
  ["package-lock.json", '{"a": 1, "a": 2}\n', "json"],
  ["node_modules/dep/index.ts", "debugger;\n", "typescript"],
  ["fixtures/node_modules/dep/package.json", '{"name": "dep", "name": "again"}\n', "json"],
  ["big.ts", Array.from({ length: 52_000 }, (_, i) => `export const a${i} = ${i};`).join("\n") + "\n", "typescript"],
  ['quo"te.ts', "debugger;\n", "typescript"],
  // `biome lint` runs no assist action, so it calls this suppression unused; the WebAssembly path runs them.
  [
    "assist_suppressed.ts",
    '// biome-ignore assist/source/organizeImports: kept\nimport { b } from "b";\nimport { a } from "a";\nexport const x = [a, b];\n',
    "typescript",
  ],
];

function read(path: string, relPath: string, language: Language): SourceFile {
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(Deno.readFileSync(path));
  return { path, relPath, language, text };
}

async function writeCases(root: string, cases: [string, string, Language][]): Promise<SourceFile[]> {
  const out: SourceFile[] = [];
  for (const [name, text, language] of cases) {
    const path = join(root, name);
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, text);
    out.push(read(path, name, language));
  }
  return out;
}

/** A comparable form of one result. */
function plain(result: Settled<LintOutput>): unknown {
  if (result instanceof EngineError) {
    return { error: result.message, line: result.line, column: result.column, name: result.name };
  }
  if (result instanceof Error) return { error: result.message, name: result.name };
  return JSON.parse(JSON.stringify(result));
}

function assertSame(files: SourceFile[], native: Settled<LintOutput>[], wasm: Settled<LintOutput>[]): void {
  equal(native.length, files.length);
  equal(wasm.length, files.length);
  files.forEach((f, i) => {
    deepEqual(native[i].constructor, wasm[i].constructor, `${f.relPath}: result kind`);
    const [a, b] = [plain(native[i]), plain(wasm[i])];
    deepEqual(a, b, `${f.relPath}: native ${JSON.stringify(a)} differs from WebAssembly ${JSON.stringify(b)}`);
  });
}

const SETTINGS = [
  settings(),
  settings({ ignore: ["noDebugger"], select: ["suspicious", "correctness", "style/useConst", "parse"] }),
  settings({ rules: { noDoubleEquals: { level: "warning" }, useConst: { level: "off" } } }, { line_length: 80 }),
  settings({
    configuration: {
      linter: {
        rules: {
          style: "warn",
          suspicious: "error",
          complexity: "info",
          nursery: "warn",
          a11y: "error",
          correctness: { noUndeclaredVariables: "error", noUnusedImports: "warn" },
        },
      },
      javascript: { globals: ["describe"] },
    },
  }, { line_ending: "crlf", indent_width: 4 }),
];

let root: string;
let files: SourceFile[] = [];
let fallbacks: SourceFile[] = [];

async function setup(): Promise<void> {
  if (files.length) return;
  root = await tempDir({ prefix: "poly-biome-parity-" });
  const base = join(root, "a dir é");
  files = await writeCases(base, CASES);
  for (const [rel, language] of FIXTURE_CASES) files.push(read(join(FIXTURES, rel), rel, language));
  fallbacks = await writeCases(base, FALLBACK_CASES);
}

function wasmOnly(): Biome {
  const engine = new Biome();
  engine.native = { command: null };
  return engine;
}

Deno.test({
  name: "biome native lintMany() equals the WebAssembly path on every case, under several settings",
  ignore,
  async fn() {
    await setup();
    const wasm = wasmOnly();
    for (const s of SETTINGS) {
      const direct = await lintNative(files, configuration(s, "lint"));
      const missing = files.filter((_, i) => direct[i] === undefined).map((f) => f.relPath);
      deepEqual(missing, [], `every case is linted natively (none fell back): ${missing}`);
      const runs: number[] = [];
      const native = new Biome();
      native.native = { onRun: (r) => runs.push(r.files) };
      const a = await native.lintMany(files, s);
      deepEqual(runs, [files.length], "one process for the batch");
      assertSame(files, a, await wasm.lintMany(files, s));
    }
  },
});

Deno.test({
  name: "biome native lintMany() covers what it is meant to (findings, parse errors, clean files)",
  ignore,
  async fn() {
    await setup();
    const results = await new Biome().lintMany(files, settings());
    const by = new Map(files.map((f, i) => [f.relPath, results[i]]));
    const codes = (name: string) => ((by.get(name) as LintOutput).diagnostics ?? []).map((d) => d.code);
    ok(codes("many.ts").length > 200, "many findings");
    ok(codes("unicode.ts").includes("suspicious/noDoubleEquals"));
    ok(codes("data.json").includes("suspicious/noDuplicateObjectKeys"));
    ok(codes("style.css").includes("suspicious/noDuplicateProperties"));
    ok(codes("suppress.ts").some((c) => c?.startsWith("suppressions/")), "suppression diagnostics are kept");
    equal(codes("empty.ts").length, 0);
    deepEqual(codes("conf/biome.json").includes("deserialize"), true, "another release's $schema is reported");
    deepEqual(codes("pinned/biome.json"), ["suspicious/noDuplicateObjectKeys"], "the pinned release's is not");
    ok(codes("nested/x.ts").includes("suspicious/noDebugger"), "a biome.jsonc beside a file configures nothing");
    for (const name of ["syntax_many.ts", "syntax_unicode.ts", "bad.json", "bad.css", "bad.graphql", "bom_syntax.ts"]) {
      ok(by.get(name) instanceof EngineError, `${name} is a parse error`);
    }
    const uni = (by.get("unicode.ts") as LintOutput).diagnostics.find((d) => d.code === "suspicious/noDoubleEquals");
    deepEqual(uni?.span, { start_line: 1, start_col: 40, end_line: 1, end_col: 42 }, "UTF-16 columns");
  },
});

Deno.test({
  name: "biome lintMany(): files biome's command line skips get their WebAssembly result, never a clean one",
  ignore,
  async fn() {
    await setup();
    const all = [...files.slice(0, 3), ...fallbacks];
    const direct = await lintNative(all, configuration(settings(), "lint"));
    deepEqual(
      all.filter((_, i) => direct[i] === undefined).map((f) => f.relPath),
      fallbacks.map((f) => f.relPath),
    );
    const results = await new Biome().lintMany(all, settings());
    assertSame(all, results, await wasmOnly().lintMany(all, settings()));
    const quoted = results[all.findIndex((f) => f.relPath.startsWith("quo"))] as LintOutput;
    equal(quoted.diagnostics[0]?.code, "suspicious/noDebugger");
  },
});

Deno.test({
  name: "biome's files.maxSize goes to the command line: a file over it is refused on both paths alike",
  ignore,
  async fn() {
    await setup();
    const some = files.slice(0, 6);
    const big = some.find((f) => f.relPath === "many.ts")!;
    const limited = settings({ configuration: { files: { maxSize: 1000, ignoreUnknown: true } } });
    ok(nativeSafe(configuration(limited, "lint")), "a size limit names no path");
    ok(!nativeSafe(configuration(settings({ configuration: { files: { includes: ["**"] } } }), "lint")));
    const direct = await lintNative(some, configuration(limited, "lint"));
    deepEqual(some.filter((_, i) => direct[i] === undefined).map((f) => f.relPath), [big.relPath]);
    const results = await new Biome().lintMany(some, limited);
    assertSame(some, results, await wasmOnly().lintMany(some, limited));
    const refused = results[some.indexOf(big)];
    ok(refused instanceof Error && /over biome's files\.maxSize \(1000 bytes\)/.test(refused.message), String(refused));
  },
});

Deno.test({
  name: "biome lintMany(): a crashing or missing native program, or path-dependent settings, lose no file",
  ignore,
  async fn() {
    await setup();
    const some = files.slice(0, 8);
    const expected = (await wasmOnly().lintMany(some, settings())).map(plain);
    const dir = await tempDir({ prefix: "poly-biome-crash-" });
    try {
      const crash = join(dir, "crash");
      await Deno.writeTextFile(crash, "#!/bin/sh\nprintf 'half a report'\nexit 101\n", { mode: 0o755 });
      const crashing = new Biome();
      crashing.native = { command: { binary: crash, script: crash, env: {} } };
      deepEqual((await crashing.lintMany(some, settings())).map(plain), expected, "a crash");
      const absent = new Biome();
      const missing = join(dir, "absent");
      absent.native = { command: { binary: missing, script: missing, env: {} } };
      deepEqual((await absent.lintMany(some, settings())).map(plain), expected, "a missing executable");
      // No sh (or node) on PATH, in a process of its own (PATH is shared by every test module running beside this one).
      const noShell = await inProcessWith(
        { PATH: dir },
        `
        const { Biome } = await import(REPO + "/lib/engines/biome/mod.ts");
        const files = ${JSON.stringify(some)};
        const settings = ${JSON.stringify(settings())};
        const results = await new Biome().lintMany(files, settings);
        console.log(JSON.stringify(results.map((r) => r instanceof Error ? { error: r.message } : r)));
      `,
      );
      deepEqual(
        noShell,
        expected.map((r) => (r as { error?: string }).error ? { error: (r as { error: string }).error } : r),
        "no sh on PATH",
      );
      const runs: number[] = [];
      const scoped = new Biome();
      scoped.native = { onRun: (r) => runs.push(r.files) };
      const overrides = settings({
        configuration: { overrides: [{ includes: ["**/*.ts"], linter: { enabled: true } }] },
      });
      ok(!nativeSafe(configuration(overrides, "lint")));
      assertSame(some, await scoped.lintMany(some, overrides), await wasmOnly().lintMany(some, overrides));
      deepEqual(runs, [], "path-dependent configuration stays on the WebAssembly path");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "biome lintMany() splits a long path list into several processes with the same results",
  ignore,
  async fn() {
    await setup();
    const runs: number[] = [];
    const chunked = new Biome();
    chunked.native = { chunkBytes: 2_000, onRun: (r) => runs.push(r.files) };
    const twice = [...files, files[0]];
    const results = await chunked.lintMany(twice, settings());
    ok(runs.length > 1, `several processes (${runs.join(", ")})`);
    equal(runs.reduce((a, b) => a + b, 0), files.length, "each distinct path once");
    assertSame(twice, results, await wasmOnly().lintMany(twice, settings()));
  },
});

Deno.test({
  name: "biome materialize() copies a runnable command line (what a compiled poly does)",
  ignore,
  async fn() {
    await setup();
    const dest = join(await tempDir({ prefix: "poly-biome-home-" }), "engines", "biome");
    try {
      const command = await materialize(dest);
      deepEqual(await materialize(dest), command, "a finished copy is reused");
      const direct = await lintNative(files.slice(0, 2), configuration(settings(), "lint"), { command });
      ok(direct.every((d) => d !== undefined && d.length > 0));
    } finally {
      await Deno.remove(join(dest, "..", ".."), { recursive: true });
    }
  },
});

Deno.test("biome native position helpers: biome's lines (\\n, \\r\\n, lone \\r) and scalar-value columns", () => {
  const text = "a\r\nb\rc😀d\n";
  const starts = biomeLineStarts(text);
  deepEqual(starts, [0, 3, 5, 10]);
  // A text without `\r` (the usual case) takes another path: only `\n` ends its lines.
  deepEqual(biomeLineStarts("a\n\nbc😀\nd"), [0, 2, 3, 8]);
  deepEqual(biomeLineStarts(""), [0]);
  deepEqual(biomeLineStarts("\r"), [0, 1], "a lone \\r at the end still ends a line");
  equal(toIndex(text, starts, 3, 2), 6, "after c");
  equal(toIndex(text, starts, 3, 3), 8, "after the astral character (2 UTF-16 units)");
  equal(toIndex(text, starts, 4, 1), 10, "the empty last line");
  equal(toIndex(text, starts, 5, 1), undefined);
  equal(toIndex(text, starts, 1, 9), undefined, "past the end of its line");
  deepEqual([...processedFiles("x\n  i Files processed:\n  \n  - /a b.ts\n  - /c.ts\n  \n\n VERBOSE\n")], [
    "/a b.ts",
    "/c.ts",
  ]);
  equal(processedFiles("no list").size, 0);
});

Deno.test({
  name: "biome startLintGroups(): started before the files are read, finished with any subset, equals lintMany()",
  ignore,
  async fn() {
    await setup();
    const all = [...files, ...fallbacks];
    const runs: number[] = [];
    const early = new Biome();
    early.native = { onRun: (r) => runs.push(r.files) };
    const [started] = early.startLintGroups([{
      files: all.map(({ path, relPath, language }) => ({ path, relPath, language })),
      settings: settings(),
    }]);
    // Settles once the process has started (the pre-pass waits for that before it reads files).
    await started.ready;
    // A subset, out of order (files that were skipped or answered by the cache are left out).
    const subset = all.filter((_, i) => i % 3 !== 1).reverse();
    const results = await started.finish(subset);
    deepEqual(runs.length, 1, "one process, started before finish()");
    assertSame(subset, results, await wasmOnly().lintMany(subset, settings()));
    const [idle] = new Biome().startLintGroups([{ files: files.slice(0, 2), settings: settings() }]);
    deepEqual(await idle.finish([]), [], "finish([]) only waits");
    const off = new Biome();
    off.native = { command: null };
    const [none] = off.startLintGroups([{ files: files.slice(0, 2), settings: settings() }]);
    await none.ready; // no process at all: ready settles all the same
  },
});

Deno.test({
  name: "a repository's biome configuration with overrides is applied natively below its own folder, as on WebAssembly",
  ignore,
  async fn() {
    // A repository whose biome.json has globs (relative to its folder), with a package whose manifest turns on
    // biome's react domain, nested below the repository's own manifest: poly's configuration pipeline gives each
    // file its settings, as a run does.
    const repo = await tempDir({ prefix: "poly-biome-mirror-" });
    const tree: Record<string, string> = {
      ".git/HEAD": "",
      "package.json": '{"name":"root","private":true}\n',
      // A root `biome.jsonc` (linted beside the private folder's own `biome.json`), its `$schema` an older release's.
      "biome.jsonc": "// the repository's own\n" + JSON.stringify({
        $schema: "https://biomejs.dev/schemas/2.0.0/schema.json",
        linter: { rules: { recommended: true } },
        overrides: [
          { includes: ["src/**"], linter: { rules: { suspicious: { noDebugger: "off" } } } },
          { includes: ["**/legacy/**"], linter: { rules: { suspicious: { noDoubleEquals: "off" } } } },
          { includes: ["**/package.json"], json: { formatter: { expand: "always" } } },
        ],
      }),
      "src/a.ts": "debugger;\nexport const a = 1 == 2;\n",
      "lib/b.ts": "debugger;\nexport const b = 1 == 2;\n",
      "packages/ui/package.json": '{"name":"ui","dependencies":{"react":"^19.0.0"}}\n',
      "packages/ui/legacy/c.ts": "export const c = 1 == 2;\ndebugger;\n",
      "packages/ui/src/view.jsx":
        'import { useEffect } from "react";\nexport function View({ a }) {\n  useEffect(() => { console.log(a); }, []);\n  return null;\n}\n',
      "packages/ui/data.json": '{"a": 1, "a": 2}\n',
      "report-0.json": '{"a": 1, "a": 2}\n',
    };
    for (const [rel, text] of Object.entries(tree)) {
      await Deno.mkdir(join(repo, rel, ".."), { recursive: true });
      await Deno.writeTextFile(join(repo, rel), text);
    }
    const { openConfig } = await import("../../../lib/config/load.ts");
    const { narrowToFile, planLint } = await import("../../../lib/run/plan.ts");
    const configs = await openConfig({ cwd: repo });
    const groups = new Map<EngineSettingsOf, SourceFile[]>();
    for (const rel of Object.keys(tree).filter((r) => !r.startsWith(".git"))) {
      const language: Language = /\.jsonc?$/.test(rel) ? "json" : rel.endsWith(".jsx") ? "javascript" : "typescript";
      const path = join(repo, rel);
      const plan = narrowToFile(planLint(language, await configs.forDir(join(path, ".."))), path, "lint");
      const s = plan.engines.find((e) => e.id === "biome")!.settings;
      groups.set(s, [...groups.get(s) ?? [], read(path, rel, language)]);
    }
    const by = new Map<string, Settled<LintOutput>>();
    for (const [s, list] of groups) {
      ok(!nativeSafe(configuration(s, "lint")) && mirrorSafe(configuration(s, "lint")), "the configuration has globs");
      const direct = await lintNative(list, configuration(s, "lint"), {}, s.manifest, s.native?.root);
      deepEqual(
        list.filter((_, i) => direct[i] === undefined).map((f) => f.relPath),
        list.filter((f) => f.relPath === "report-0.json").map((f) => f.relPath),
        "natively linted: all but a root file named like the private folder's (manifests as their copies)",
      );
      const results = await new Biome().lintMany(list, s);
      assertSame(list, results, await wasmOnly().lintMany(list, s));
      list.forEach((f, i) => by.set(f.relPath, results[i]));
    }
    const codes = (rel: string) => ((by.get(rel) as LintOutput).diagnostics ?? []).map((d) => d.code).sort();
    deepEqual(codes("src/a.ts"), ["suspicious/noDoubleEquals"], "src/** turns noDebugger off");
    deepEqual(codes("lib/b.ts"), ["suspicious/noDebugger", "suspicious/noDoubleEquals"]);
    deepEqual(codes("packages/ui/legacy/c.ts"), ["suspicious/noDebugger"], "**/legacy/** turns noDoubleEquals off");
    ok(codes("packages/ui/src/view.jsx").includes("correctness/useExhaustiveDependencies"), "react's domain is on");
    deepEqual(codes("report-0.json"), ["suspicious/noDuplicateObjectKeys"]);
    // Its $schema names another release, and `recommended` is deprecated: biome's checks of a configuration file.
    deepEqual(codes("biome.jsonc"), ["deserialize", "deserialize"], "the root configuration is linted as a file");
    // What the mirror cannot stand for stays on the WebAssembly path: other paths, an override's own assist switch.
    for (
      const other of [{ files: { includes: ["src/**"] } }, { extends: ["./base.json"] }, {
        overrides: [{ assist: {} }],
      }]
    ) {
      ok(!mirrorSafe({ linter: { enabled: true }, ...other }), JSON.stringify(other));
    }
    equal(
      await Deno.readTextFile(join(repo, "report-0.json")),
      tree["report-0.json"],
      "the repository's file is untouched",
    );
  },
});

type EngineSettingsOf = import("../../../lib/engines/types.ts").EngineSettings;
