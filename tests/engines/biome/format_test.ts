/**
 * Parity of biome's two format paths: the native command line (one process over
 * copies of a batch's texts, `Biome.formatMany`) and the WebAssembly module (one
 * file at a time) must give identical formatted text — or the identical parse
 * error with its line and column — for every language biome formats, well-known
 * files (`package.json`, `tsconfig.json`, `.vscode/settings.json`), Unicode,
 * CRLF, lone CR, BOM, empty files, under several settings. Files the command line
 * will not take, and a failing command line, lose no file.
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { Biome } from "../../../lib/engines/biome/mod.ts";
import { configuration } from "../../../lib/engines/biome/_shared.ts";
import { formatNative } from "../../../lib/engines/biome/_format.ts";
import { placeOf } from "../../../lib/engines/biome/_copies.ts";
import { biomeCommand } from "../../../lib/engines/biome/_bin.ts";
import { findExecutable } from "../../../lib/fs/executable.ts";
import {
  EngineError,
  type Language,
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
  ["src/a.ts", "const a  =  1\nlet   b= 'x'\nexport   { a, b }\n", "typescript"],
  ["src/ok.ts", "export const ok = 1;\n", "typescript"],
  [
    "src/long.ts",
    `export const xs = [${Array.from({ length: 40 }, (_, i) => `"item${i}"`).join(", ")}];\n`,
    "typescript",
  ],
  ["src/unicode.ts", 'const é = "😀"  ;   export {é}\n', "typescript"],
  ["src/crlf.ts", "const a = 1\r\nconst  b = 2\r\nexport { a, b }\r\n", "typescript"],
  ["src/lone_cr.ts", "const a = 1\rconst  b = 2\rexport { a, b }\r", "typescript"],
  ["src/bom.ts", "\uFEFFconst  c=3\nexport {c}\n", "typescript"],
  ["src/empty.ts", "", "typescript"],
  ["src/blank.ts", "\n\n  \n", "typescript"],
  ["src/types.d.ts", "declare   const x:any\n", "typescript"],
  ["src/comp.tsx", "export const C = () => <div   className='a'><span>{1+1}</span></div>\n", "typescript"],
  ["src/plain.js", "function f( a,b ){return a+b}\n", "javascript"],
  ["src/comp.jsx", "export const A=()=><div><img src='x'/></div>\n", "javascript"],
  ["src/mod.mjs", "export default {a:1,b:[1,2,3]}\n", "javascript"],
  ["src/common.cjs", "module.exports={a:1}\n", "javascript"],
  ["data/data.json", '{"a":1,"b":[1,2,3],"c":{"d":null}}', "json"],
  ["data/conf.jsonc", '/* c */ {"a": 1,\n// line\n"b": 2,}\n', "json"],
  ["package.json", '{"name":"x","files":["a","b"],"scripts":{"t":"x"}}', "json"],
  ["tsconfig.json", '{\n  // comments are fine here\n  "compilerOptions": {"strict": true,},\n}\n', "json"],
  [".vscode/settings.json", '{\n  // a comment\n  "editor.tabSize": 2,\n}\n', "json"],
  ["style/a.css", "a{color:red;background:blue}\n.b   .c{margin:0 0 0 0}\n", "css"],
  ["style/crlf.css", "a {\r\n  color: red;\r\n}\r\n", "css"],
  ["schema.graphql", "query Q{a b(x:1){c}}\n", "graphql"],
  // Parse errors: both paths report them (each with its line and column).
  ["bad/syntax.ts", "let = ;\n", "typescript"],
  ["bad/syntax.json", '{"a": 1,, }\n', "json"],
  ["bad/syntax.css", "a { color: red\n", "css"],
  ["bad/several.ts", "const a = {\n  ...\n}\nlet = ;\nfunction (\n", "typescript"],
  ["bad/unicode.ts", 'const é = "😀";\r\nconst 😀 = 1;\r\nlet = ;\r\n', "typescript"],
  ["bad/bom.js", "\uFEFFconst a = {\n  ...\n}\n", "javascript"],
  ["bad/graph.graphql", "query Q { a(\n", "graphql"],
];

/** Files the command line is not given, or gives no result for: they take the WebAssembly path. */
const FALLBACK_CASES: [string, string, Language][] = [
  ["../outside.ts", "const  a=1\n", "typescript"],
  ["/abs/path.ts", "const  a=1\n", "typescript"],
  ['quo"te.ts', "const  a=1\n", "typescript"],
  ["conf/biome.json", '{"formatter":{"enabled":true}}', "json"],
  ["node_modules/dep/index.ts", "const  a=1\n", "typescript"],
  ["package-lock.json", '{"a":1}', "json"],
  ["big.ts", Array.from({ length: 52_000 }, (_, i) => `export const a${i} = ${i}`).join("\n") + "\n", "typescript"],
];

function sources(cases: [string, string, Language][]): SourceFile[] {
  return cases.map(([relPath, text, language]) => ({ path: `/nonexistent/${relPath}`, relPath, language, text }));
}

/** A comparable form of one result. */
function plain(result: Settled<string>): unknown {
  if (result instanceof EngineError) {
    const diagnostics = result instanceof SourceSyntaxError ? result.diagnostics : undefined;
    return { error: result.message, line: result.line, column: result.column, name: result.name, diagnostics };
  }
  if (result instanceof Error) return { error: result.message, name: result.name };
  return result;
}

function wasmOnly(): Biome {
  const engine = new Biome();
  engine.native = { command: null };
  return engine;
}

function assertSame(files: SourceFile[], native: Settled<string>[], wasm: Settled<string>[]): void {
  equal(native.length, files.length);
  equal(wasm.length, files.length);
  files.forEach((f, i) => {
    deepEqual(
      plain(native[i]),
      plain(wasm[i]),
      `${f.relPath}: native ${JSON.stringify(plain(native[i]))} and WebAssembly ${
        JSON.stringify(plain(wasm[i]))
      } differ`,
    );
  });
}

const SETTINGS = [
  settings(),
  settings({}, { line_length: 40 }),
  settings({ indentStyle: "tab" }, { line_ending: "crlf" }),
  settings({}, { indent_width: 4, line_ending: "auto" }),
  settings({ configuration: { javascript: { formatter: { quoteStyle: "single", semicolons: "asNeeded" } } } }),
];

const files = sources(CASES);
const fallbacks = sources(FALLBACK_CASES);

Deno.test("placeOf(): plain relative paths only, never a biome configuration file biome would read as one", () => {
  equal(placeOf("src/a.ts"), "src/a.ts");
  equal(placeOf(".vscode/settings.json"), ".vscode/settings.json");
  for (const bad of ["../a.ts", "/a.ts", "a//b.ts", "./a.ts", "a/./b.ts", "C:/a.ts", 'q"a.ts', "a\\b.ts", "a\nb.ts"]) {
    equal(placeOf(bad), undefined, bad);
  }
  for (const config of ["biome.json", "x/biome.jsonc", "x/.biome.json"]) equal(placeOf(config), undefined, config);
  // At the top, beside the generated biome.json (which wins), any other is a file like another.
  for (const file of ["biome.jsonc", ".biome.json", ".biome.jsonc"]) equal(placeOf(file), file);
});

Deno.test({
  name: "biome native formatMany() equals the WebAssembly path on every case, under several settings",
  ignore,
  async fn() {
    const wasm = wasmOnly();
    for (const s of SETTINGS) {
      const direct = await formatNative(files, configuration(s, "format"));
      const fell = files.filter((_, i) => direct[i] === undefined).map((f) => f.relPath);
      deepEqual(fell, [], "every file has a native result, its parse errors too");
      const runs: number[] = [];
      const native = new Biome();
      native.native = { onRun: (r) => runs.push(r.files) };
      const a = await native.formatMany(files, s);
      deepEqual(runs, [files.length], "one process for the batch");
      const b = await Promise.all(files.map((f) => wasm.format(f, s).catch((e: Error) => e)));
      assertSame(files, a, b);
    }
  },
});

Deno.test({
  name: "biome native formatMany() formats (changes made, clean files kept, parse errors with positions)",
  ignore,
  async fn() {
    const results = await new Biome().formatMany(files, settings());
    const by = new Map(files.map((f, i) => [f.relPath, results[i]]));
    equal(by.get("src/a.ts"), 'const a = 1;\nlet b = "x";\nexport { a, b };\n');
    equal(by.get("src/ok.ts"), "export const ok = 1;\n");
    ok((by.get("package.json") as string).includes('"files": [\n'), "package.json arrays are expanded");
    const error = by.get("bad/syntax.ts");
    ok(error instanceof EngineError, "a parse error is an error");
    equal(error.line, 1);
  },
});

Deno.test({
  name: "biome formatMany(): files the command line does not take get their WebAssembly result",
  ignore,
  async fn() {
    const all = [...files.slice(0, 3), ...fallbacks];
    const direct = await formatNative(all, configuration(settings(), "format"));
    deepEqual(
      all.filter((_, i) => direct[i] === undefined).map((f) => f.relPath),
      fallbacks.map((f) => f.relPath),
    );
    const wasm = wasmOnly();
    const expected = await Promise.all(all.map((f) => wasm.format(f, settings()).catch((e: Error) => e)));
    assertSame(all, await new Biome().formatMany(all, settings()), expected);
  },
});

Deno.test({
  name: "biome formatMany(): a crashing or missing native program, or path-dependent settings, lose no file",
  ignore,
  async fn() {
    const dir = await tempDir({ prefix: "poly-biome-fmt-crash-" });
    try {
      const some = files.slice(0, 6);
      const wasm = wasmOnly();
      const expected = await Promise.all(some.map((f) => wasm.format(f, settings()).catch((e: Error) => e)));
      const crash = `${dir}/crash`;
      await Deno.writeTextFile(crash, "#!/bin/sh\nprintf 'half a report'\nexit 101\n", { mode: 0o755 });
      const crashing = new Biome();
      crashing.native = { command: { binary: crash, script: crash, env: {} } };
      assertSame(some, await crashing.formatMany(some, settings()), expected);
      const absent = new Biome();
      absent.native = { command: { binary: `${dir}/absent`, script: `${dir}/absent`, env: {} } };
      assertSame(some, await absent.formatMany(some, settings()), expected);
      const runs: number[] = [];
      const scoped = new Biome();
      scoped.native = { onRun: (r) => runs.push(r.files) };
      const overrides = settings({ configuration: { overrides: [{ includes: ["**/*.ts"] }] } });
      const want = await Promise.all(some.map((f) => wasm.format(f, overrides).catch((e: Error) => e)));
      assertSame(some, await scoped.formatMany(some, overrides), want);
      deepEqual(runs, [], "globs without the configuration's directory stay on the WebAssembly path");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** Files at their own paths below `root`, as a run under a repository's configuration gives them. */
function below(root: string, cases: [string, string, Language][]): SourceFile[] {
  return cases.map(([rel, text, language]) => ({ path: `${root}/${rel}`, relPath: `app/${rel}`, language, text }));
}

Deno.test({
  name: "biome formatMany(): a configuration's globs match below its directory on the native path, as on WebAssembly",
  ignore,
  async fn() {
    const root = "/nonexistent/repo/app";
    const some: SourceFile[] = [
      ...below(root, [
        ["src/a.ts", "function f(){return 1}\n", "typescript"],
        ["legacy/b.ts", "function f(){return 1}\n", "typescript"],
        ["legacy/deep/c.js", "const o={a:1}\n", "javascript"],
        ["package.json", '{"name":"x","files":["a"]}', "json"],
        ["biome.jsonc", '{"formatter":{"enabled":false}, // on\n"x":[1]}\n', "json"],
      ]),
      // Outside the configuration's directory: no place among the copies.
      { path: "/nonexistent/repo/other.ts", relPath: "other.ts", language: "typescript", text: "const  a=1\n" },
    ];
    const configuration = {
      formatter: { indentStyle: "space" },
      overrides: [
        { includes: ["legacy/**"], formatter: { indentStyle: "tab" } },
        { includes: ["**/package.json"], json: { formatter: { expand: "never" } } },
      ],
    };
    const s = { ...settings({ configuration }), native: { files: [], options: {}, root } };
    const direct = await formatNative(some, configuration, {}, root);
    deepEqual(some.filter((_, i) => direct[i] === undefined).map((f) => f.relPath), ["other.ts"]);
    ok((direct[1] as string).includes("\treturn 1;"), "the override for legacy/** applied natively");
    ok((direct[0] as string).includes("  return 1;"), "and not beside it");
    const runs: number[] = [];
    const native = new Biome();
    native.native = { onRun: (r) => runs.push(r.files) };
    const wasm = wasmOnly();
    const want = await Promise.all(some.map((f) => wasm.format(f, s).catch((e: Error) => e)));
    assertSame(some, await native.formatMany(some, s), want);
    deepEqual(runs, [some.length - 1], "one process for the files below the configuration's directory");
  },
});

Deno.test({
  name: "biome formatMany(): a commonjs manifest makes .js files scripts on the native path, as on WebAssembly",
  ignore,
  async fn() {
    const root = "/nonexistent/repo";
    const script: [string, string, Language][] = [
      ["pkg/lib/old.js", "with (Math) {  x=cos(PI) }\n", "javascript"],
      ["pkg/lib/new.mjs", "export  const a=1\n", "javascript"],
    ];
    const manifest = {
      files: [{ path: `${root}/pkg/package.json`, hash: "h" }],
      options: { type: "commonjs" },
      root: `${root}/pkg`,
    };
    const wasm = wasmOnly();
    for (const [s, parses] of [[{ ...settings(), manifest }, true], [settings(), false]] as const) {
      // Under no configuration file: the paths relative to the run, the manifest's too.
      const some = script.map(([rel, text, language]) => ({ path: `${root}/${rel}`, relPath: rel, language, text }));
      const direct = await formatNative(some, configuration(s, "format"), {}, undefined, s.manifest);
      equal(typeof direct[0] === "string", parses, `old.js ${parses ? "parses as a script" : "is a module"} natively`);
      if (!parses) ok(direct[0] instanceof SourceSyntaxError, "and its parse error is found natively");
      const want = await Promise.all(some.map((f) => wasm.format(f, s).catch((e: Error) => e)));
      equal(want[0] instanceof EngineError, !parses, "the WebAssembly path agrees");
      assertSame(some, await new Biome().formatMany(some, s), want);
    }
    // The manifest outside the run: every file to the WebAssembly path.
    const far = { ...manifest, files: [{ path: "/elsewhere/package.json", hash: "h" }] };
    const some = below(root, script);
    deepEqual(await formatNative(some, {}, {}, root, far), [undefined, undefined]);
  },
});
