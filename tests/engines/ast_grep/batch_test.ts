/**
 * The batch path (`lintBatch`, the engine's `lintMany`: one `ast-grep scan`
 * process for many files) against the per-file napi path (`lintWithRules`, the
 * engine's `lint`): identical diagnostics, file by file, over the built-in rules'
 * own test cases, the rules fixture repository, the rules bench corpus and user
 * rules exercising every configuration knob; and the fallbacks (no command line,
 * a failing process, text that is not what is on disk) never lose a file.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join, relative } from "node:path";
import { astGrepEngine } from "../../../lib/engines/ast_grep/mod.ts";
import { runExecutable, runHost } from "../../../lib/engines/host.ts";
import { type EngineSettings, EngineUnavailableError, type SourceFile } from "../../../lib/engines/types.ts";
import { AST_GREP_CLI_VERSION, astGrepExecutable, materialize } from "../../../lib/engines/ast_grep/_cli_bin.ts";
import { type BatchOptions, type BatchStats, lintBatch, startBatch } from "../../../lib/engines/ast_grep/batch.ts";
import { cliParserOf } from "../../../lib/engines/ast_grep/_cli_config.ts";
import { lintWithRules } from "../../../lib/engines/ast_grep/diagnose.ts";
import { loadRuleSet } from "../../../lib/rules/load.ts";
import type { RuleSet } from "../../../lib/rules/types.ts";
import { scanBlocks, scanText } from "../../../lib/engines/ast_grep/scan.ts";
import { rulesForFile, scannedText } from "../../../lib/engines/ast_grep/select.ts";
import { ensureLanguages } from "../../../lib/engines/ast_grep/napi.ts";
import { writeRulesCorpus } from "../../bench/_rules_corpus.ts";
import { FIXTURE_REPO, type RepoFile, repoFiles, tempTree } from "../../rules/_helpers.ts";
import { tempDir } from "../../_helpers/temp.ts";

const available = (await astGrepExecutable()) !== undefined;
/** A command line that the tests' `run` stands in for. */
const FAKE = { path: "/sg", launcher: "/shim" };
const cliTest = (name: string, fn: () => Promise<void>) => Deno.test({ name, ignore: !available, fn });

/** Asserts that both paths give the same diagnostics for every file; returns the batch's stats. */
async function assertParity(
  set: RuleSet,
  files: RepoFile[],
  options: BatchOptions = {},
): Promise<BatchStats & { diagnostics: number }> {
  equal(set.errors.length, 0, JSON.stringify(set.errors));
  const { results, stats } = await lintBatch(set, files, options);
  equal(results.length, files.length);
  let diagnostics = 0;
  await ensureLanguages();
  for (const [i, file] of files.entries()) {
    const expected = await lintWithRules(set, file);
    const actual = results[i];
    ok(!(actual instanceof Error), `${file.relPath}: ${actual}`);
    deepEqual(actual, expected, `${file.relPath} differs`);
    // The literal pre-filter loses nothing: every rule run unfiltered finds as much.
    const text = scannedText(file);
    const unfiltered = text === undefined ? 0 : [...rulesForFile(set, file)].reduce(
      (n, [parser, rules]) =>
        n +
        (file.language === "html" && parser !== "Html"
          ? scanBlocks(text, parser, rules, false)
          : scanText(text, parser, rules)).length,
      0,
    );
    equal(expected.length, unfiltered, `${file.relPath}: the pre-filter dropped a finding`);
    diagnostics += expected.length;
  }
  return { ...stats, diagnostics };
}

async function filesOf(root: string): Promise<RepoFile[]> {
  return (await repoFiles(root)).filter((f) => !f.relPath.startsWith(".poly/"));
}

/** Where a snippet of each rule language goes so the built-in `files`/`ignores` globs let its rule apply. */
const SNIPPET_PATHS: Record<string, (name: string) => string[]> = {
  typescript: (n) => [`src/${n}.ts`, `src/${n}.mts`],
  tsx: (n) => [`src/${n}.tsx`],
  javascript: (n) => [`src/${n}.js`, `src/${n}.mjs`, `src/${n}.jsx`],
  python: (n) => [`lib/${n}.py`],
  go: (n) => [`pkg/${n}.go`],
  rust: (n) => [`crates/core/src/${n}.rs`],
  bash: (n) => [`tools/${n}.sh`],
  yaml: (n) => [`.github/workflows/${n}.yml`],
  dockerfile: (n) => [`docker/${n}/Dockerfile`],
};

cliTest("parity: the built-in rules' own test cases, as files of every extension their language covers", async () => {
  const builtin = await loadRuleSet("/nonexistent-config-dir", { dirs: [] });
  const byId = new Map(builtin.rules.map((r) => [r.id, r]));
  const tree: Record<string, string> = {};
  const invalid: [string, string][] = [];
  for (const test of builtin.tests) {
    const rule = byId.get(test.id)!;
    const place = SNIPPET_PATHS[rule.language];
    ok(place, `no place for ${rule.language} snippets`);
    for (const [kind, list] of [["valid", test.valid], ["invalid", test.invalid]] as const) {
      for (const [n, snippet] of list.entries()) {
        const paths = place(`${test.id}-${kind}${n}`);
        for (const p of paths) tree[p] = snippet;
        if (kind === "invalid") invalid.push([paths[0], test.id]);
      }
    }
  }
  const dir = await tempTree(tree);
  try {
    const set = await loadRuleSet(dir, { dirs: [] });
    const files = await filesOf(dir);
    const stats = await assertParity(set, files);
    // The snippets were placed where their rules apply: every invalid one is found.
    const { results } = await lintBatch(set, files);
    for (const [path, id] of invalid) {
      const i = files.findIndex((f) => f.relPath === path);
      const found = results[i] as { code?: string }[];
      ok(found.some((d) => d.code === id), `${path}: no ${id}`);
    }
    ok(stats.viaCli > files.length / 2, `only ${stats.viaCli} of ${files.length} files went through the command line`);
    equal(stats.failures, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

cliTest("parity: the rules fixture repository with its user rule", async () => {
  const set = await loadRuleSet(FIXTURE_REPO, { dirs: [".poly/rules"] });
  const stats = await assertParity(set, await filesOf(FIXTURE_REPO));
  ok(stats.diagnostics > 30);
  ok(stats.viaCli >= 10, JSON.stringify(stats));
});

cliTest("parity: the rules bench corpus (small), built-in pack", async () => {
  const dir = await tempDir({ prefix: "poly-rules-corpus-" });
  try {
    await writeRulesCorpus(dir, 60);
    const set = await loadRuleSet(dir, { dirs: [] });
    const stats = await assertParity(set, await filesOf(dir));
    // Python files go to the command line at once (one Python rule has no word of its own);
    // TypeScript files wait for their text, which rules most of them out.
    ok(stats.ruledOut > 0, JSON.stringify(stats));
    equal(stats.viaCli + stats.ruledOut, 120, JSON.stringify(stats));
    equal(stats.viaNapi, 0);
    equal(stats.processes, 2);
    ok(stats.diagnostics > 5);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** User rules that exercise every knob, and files that exercise every route. */
const USER_RULES: Record<string, string> = {
  ".poly/rules/foo-call.yml": `id: foo-call
language: TypeScript
severity: warning
message: "call of \`$F\` with $$$ARGS (missing: $NOPE)"
note: |
  Call something else.
url: https://example.com/foo
rule:
  pattern: $F($$$ARGS)
constraints:
  F:
    regex: ^foo
`,
  ".poly/rules/off-by-default.yml": `id: off-by-default
language: TypeScript
severity: off
message: "\`let\` found"
rule:
  kind: lexical_declaration
  regex: ^let
`,
  ".poly/rules/disabled.yml": `id: disabled-rule
language: TypeScript
severity: error
rule:
  pattern: console.log($$$A)
`,
  ".poly/rules/drop-arg.yml": `id: drop-arg
language: TypeScript
severity: info
message: drop the \`bar\` call
rule:
  pattern: bar($A)
  inside:
    kind: arguments
fix:
  template: ""
  expandEnd:
    regex: ^,$
`,
  ".poly/rules/wrap.yml": `id: wrap-debugger
language: TypeScript
severity: hint
rule:
  kind: debugger_statement
fix: |
  if (DEBUG) {
    debugger;
  }
`,
  ".poly/rules/js-only.yml": `id: js-alert
language: JavaScript
severity: warning
message: alert($X)
rule:
  pattern: alert($X)
`,
  ".poly/rules/tsx-only.yml": `id: tsx-self-closing
language: Tsx
severity: info
message: self-closing <$N>
rule:
  kind: jsx_self_closing_element
  has:
    field: name
    pattern: $N
`,
  ".poly/rules/py-utils.yml": `id: py-open-call
language: Python
severity: warning
message: "\`$FN\` opens $$$ARGS"
files:
  - "lib/**"
ignores:
  - "lib/vendor/**"
utils:
  opener:
    any:
      - pattern: open($$$ARGS)
      - pattern: io.open($$$ARGS)
rule:
  matches: opener
  pattern: $FN($$$ARGS)
`,
  ".poly/rules/yaml-key.yml": `id: yaml-latest
language: YAML
severity: warning
message: "\`latest\` tag in $K"
rule:
  kind: block_mapping_pair
  has:
    field: value
    regex: ":latest$"
  all:
    - has:
        field: key
        pattern: $K
`,
  ".poly/rules/sh-eval.yml": `id: sh-eval
language: Bash
severity: error
rule:
  kind: command
  has:
    field: name
    regex: ^eval$
`,
  ".poly/rules/go-panic.yml": `id: go-panic
language: Go
severity: warning
message: panic($$$A)
rule:
  pattern: panic($$$A)
`,
  ".poly/rules/rs-println.yml": `id: rs-println
language: Rust
severity: info
rule:
  pattern: println!($$$A)
fix: eprintln!($$$A)
`,
  ".poly/rules/html-img.yml": `id: html-img-alt
language: HTML
severity: warning
rule:
  kind: element
  has:
    kind: start_tag
    has:
      kind: tag_name
      regex: ^img$
`,
  ".poly/rules/css-important.yml": `id: css-important
language: CSS
severity: info
rule:
  kind: declaration
  has:
    kind: important
`,
};

const CODE: Record<string, string> = {
  "src/a.ts": 'const s = "é😀";  foo(1, 2)\r\nlet x = [bar(1), 2]\r\n  debugger;\r\nconsole.log("x")\r\n',
  "src/b.tsx": 'export const A = () => <div><Img src="x" /><br/>{foo("é")}</div>;\n',
  "src/c.js": "alert(1);\nfoo(2);\nlet y = [bar(3),\n  4];\n",
  "src/d.mjs": "function f() {\n    debugger;\n}\nfoo(bar(1), baz)\n",
  "src/-dash.ts": "foo(0)\n",
  "src/we ird, x: y.ts": "foo(9)\n",
  "src/suppressed.ts": "// ast-grep-ignore\nfoo(1)\nfoo(2)\n",
  "src/bom.ts": "\ufefffoo(1)\n",
  "src/UPPER.TS": "foo(1)\n",
  "src/crlf-only.ts": "\r\n\r\nfoo(\r\n  1,\r\n  2)\r\n",
  "src/lib.test.ts": "foo(5);\nconsole.log(1);\n",
  "bin/tool": '#!/usr/bin/env node\nalert("hi");\nfoo(1);\n',
  "lib/x.py": 'with open("f") as f:\n    print(f.read())\n\ndef g(a=[]):\n    return a == None\n',
  "lib/vendor/y.py": 'open("g")\n',
  "lib/skip/z.py": 'open("h")\n',
  "other/w.py": 'open("i")\nio.open("j")\n',
  "lib/uni.py": 'x = "ünï"  # 😀\nopen("k", "r")\n',
  "Dockerfile": "FROM alpine:latest\nRUN curl -s https://x | sh && eval $X\n",
  ".github/workflows/ci.yml": "on: pull_request_target\njobs:\n  t:\n    permissions: write-all\n" +
    "    container: node:latest\n    steps:\n      - run: echo ${{ github.event.issue.title }}\n",
  "deploy.yaml": "image: app:latest\n",
  "main.go": 'package main\n\nfunc main() {\n\tpanic("x")\n\tdefer f()\n}\n',
  "crates/core/src/lib.rs": 'pub fn f() {\n    println!("{}", 1);\n    let x = y.unwrap();\n}\n',
  "run.sh": '#!/bin/sh\neval "$1"\nrm -rf $DIR/\nchmod 777 x\n',
  "page.html": "<html><head><script>foo(1); debugger;</script><style>b { color: red !important }</style></head>\n" +
    '<body><img src="x.png"><p>hi</p></body></html>\n',
  "style.css": "a { color: red !important; margin: 0 }\n",
};

async function userTree(): Promise<string> {
  return await tempTree({ ...USER_RULES, ...CODE });
}

const USER_TABLE = {
  dirs: [".poly/rules"],
  overrides: {
    "foo-call": { severity: "error" },
    "off-by-default": { enabled: true },
    "disabled-rule": { enabled: false },
    "py-open-call": { ignores: ["lib/skip/**"] },
    "js-no-debugger": { severity: "info" },
    "py-compare-none": { severity: "off" },
  },
};

cliTest(
  "parity: user rules with severity overrides, a disabled rule, utils, files/ignores, fixes, every route",
  async () => {
    const dir = await userTree();
    const outside = await tempTree({ "far.ts": "foo(1)\n", "far.py": 'open("x")\n' });
    try {
      const set = await loadRuleSet(dir, USER_TABLE);
      const files = [...await filesOf(dir), ...await filesOf(outside)];
      // The same file twice in one batch: scanned once, reported for both.
      const stats = await assertParity(set, [...files, files[0]]);
      ok(stats.viaCli >= 18, JSON.stringify(stats));
      // The Dockerfile and the suppression comment take the napi path (an upper-case extension gets no rule).
      ok(stats.viaNapi >= 2, JSON.stringify(stats));
      equal(stats.failures, 0);
      const { results } = await lintBatch(set, files);
      const codes = (rel: string) =>
        (results[files.findIndex((f) => f.relPath === rel)] as { code: string; severity: string }[])
          .map((d) => `${d.code}:${d.severity}`);
      ok(codes("src/a.ts").includes("foo-call:error"));
      ok(codes("src/a.ts").includes("off-by-default:warning"));
      ok(!codes("src/a.ts").some((c) => c.startsWith("disabled-rule")));
      ok(codes("src/c.js").includes("js-alert:warning"));
      ok(codes("lib/x.py").includes("py-open-call:warning"));
      ok(!codes("lib/x.py").some((c) => c.startsWith("py-compare-none")));
      deepEqual(codes("lib/vendor/y.py"), []);
      deepEqual(codes("lib/skip/z.py"), []);
      deepEqual(codes("other/w.py"), []);
      deepEqual(codes("src/suppressed.ts"), ["foo-call:error", "foo-call:error"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
      await Deno.remove(outside, { recursive: true });
    }
  },
);

cliTest("parity holds across several processes (small argument chunks)", async () => {
  const dir = await userTree();
  try {
    const set = await loadRuleSet(dir, USER_TABLE);
    const stats = await assertParity(set, await filesOf(dir), { chunkBytes: 40 });
    ok(stats.processes > 5, JSON.stringify(stats));
    equal(stats.failures, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fallback: without the command line every file takes the napi path, with the same results", async () => {
  const dir = await userTree();
  try {
    const set = await loadRuleSet(dir, USER_TABLE);
    const stats = await assertParity(set, await filesOf(dir), { executable: null });
    equal(stats.viaCli, 0);
    ok(stats.unavailable);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fallback: no sh, a crashing process, garbage output: no file is lost", async () => {
  const dir = await userTree();
  try {
    const set = await loadRuleSet(dir, USER_TABLE);
    const files = await filesOf(dir);
    const missing = await assertParity(set, files, {
      executable: FAKE,
      run: () => Promise.reject(new EngineUnavailableError("sh not found on PATH")),
    });
    equal(missing.viaCli, 0);
    equal(missing.unavailable, "sh not found on PATH");
    const crash = await assertParity(set, files, {
      executable: FAKE,
      run: () => Promise.resolve({ code: 101, stdout: '{"file":"src/a.ts"', stderr: "thread 'main' panicked" }),
    });
    equal(crash.viaCli, 0);
    equal(crash.failures, 1);
    // Exit 0 but nothing reported as scanned: nothing is taken as clean.
    const silent = await assertParity(set, files, {
      executable: FAKE,
      run: () => Promise.resolve({ code: 0, stdout: "", stderr: "" }),
    });
    equal(silent.viaCli, 0);
    // Exit 0, every file reported scanned, output that is not JSON lines.
    const scanned = files.map((f) =>
      `sg: entity|file|${relative(dir, f.path)}: language=TypeScript,appliedRuleCount=1`
    );
    const garbled = await assertParity(set, files, {
      executable: FAKE,
      run: () => Promise.resolve({ code: 0, stdout: "{not json\n", stderr: scanned.join("\n") }),
    });
    equal(garbled.viaCli, 0);
    equal(garbled.failures, 1);
    // The command line refuses the rule set: napi now, and no process for this rule set later.
    const refusing = {
      executable: FAKE,
      run: () => Promise.resolve({ code: 8, stdout: "", stderr: "Error: Cannot parse rule /tmp/x/rules.yml\n" }),
    };
    const refused = await assertParity(set, files, refusing);
    deepEqual([refused.viaCli, refused.processes, refused.failures], [0, 1, 1]);
    const later = await assertParity(set, files, refusing);
    deepEqual([later.viaCli, later.processes], [0, 0]);
    ok(later.unavailable?.includes("refused"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

cliTest("fallback: a file whose text is not what is on disk, or that is not on disk, is scanned by napi", async () => {
  const dir = await userTree();
  try {
    const set = await loadRuleSet(dir, USER_TABLE);
    await Deno.writeTextFile(join(dir, "changed.ts"), "foo(1);\nfoo(2);\n");
    const files: RepoFile[] = [
      // Changed since it was read: the command line's offsets do not fit this text.
      { path: join(dir, "changed.ts"), relPath: "changed.ts", language: "typescript", text: "  foo(1);\n  foo(2);\n" },
      { path: join(dir, "gone.ts"), relPath: "gone.ts", language: "typescript", text: "foo(3);\n" },
      { path: join(dir, "lib", "x.py"), relPath: "lib/x.py", language: "python", text: CODE["lib/x.py"] },
    ];
    const stats = await assertParity(set, files);
    equal(stats.viaCli, 1, JSON.stringify(stats)); // lib/x.py only
    equal(stats.viaNapi, 2, JSON.stringify(stats));
    // One process before the texts are read (lib/x.py), one after (the TypeScript files, whose
    // user rule can be ruled out by the text); a missing file is named in an ERROR line: no second pass.
    equal(stats.processes, 2);
    // Not UTF-8 on disk: the command line skips it silently (the summary counts it), so a
    // second pass with per-file tracing finds out which file, and napi scans it.
    await Deno.writeFile(
      join(dir, "latin1.ts"),
      new Uint8Array([...new TextEncoder().encode('foo("'), 0xe9, 0x22, 0x29]),
    );
    const skipped = await assertParity(set, [
      { path: join(dir, "latin1.ts"), relPath: "latin1.ts", language: "typescript", text: 'foo("é")' },
      files[2],
    ]);
    deepEqual([skipped.viaCli, skipped.viaNapi, skipped.processes, skipped.failures], [1, 1, 3, 0]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

cliTest(
  "empty files (a package's `__init__.py`): the summary's skipped count is theirs, so no second pass",
  async () => {
    const dir = await userTree();
    try {
      const set = await loadRuleSet(dir, USER_TABLE);
      await Deno.writeTextFile(join(dir, "lib", "__init__.py"), "");
      await Deno.writeTextFile(join(dir, "lib", "empty.py"), "");
      const python = (relPath: string): RepoFile => ({
        path: join(dir, relPath),
        relPath,
        language: "python",
        text: Deno.readTextFileSync(join(dir, relPath)),
      });
      const files = [python("lib/x.py"), python("lib/__init__.py"), python("lib/empty.py")];
      const stats = await assertParity(set, files);
      // One process, counted with two files skipped: the two empty ones, which take the napi path.
      deepEqual([stats.viaCli, stats.viaNapi, stats.processes, stats.failures], [1, 2, 1, 0], JSON.stringify(stats));
      // An empty file beside one that is not UTF-8: two skipped, one of them empty, so the chunk is traced file by file.
      await Deno.writeFile(
        join(dir, "lib", "latin1.py"),
        new Uint8Array([...new TextEncoder().encode('x = "'), 0xe9, 0x22]),
      );
      const mixed = await assertParity(set, [
        files[0],
        files[1],
        { path: join(dir, "lib", "latin1.py"), relPath: "lib/latin1.py", language: "python", text: 'x = "é"' },
      ]);
      deepEqual([mixed.viaCli, mixed.viaNapi, mixed.processes, mixed.failures], [1, 2, 2, 0], JSON.stringify(mixed));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

/** One file per extension the command line maps, each with a finding of its language's user rule. */
const BY_EXTENSION: Record<string, string> = {
  "e/a.ts": "foo(1)\n",
  "e/a.mts": "foo(1)\n",
  "e/a.cts": "foo(1)\n",
  "e/a.tsx": "foo(<br/>)\n",
  "e/a.js": "alert(1)\n",
  "e/a.mjs": "alert(1)\n",
  "e/a.cjs": "alert(1)\n",
  "e/a.jsx": "alert(<br/>)\n",
  "lib/e.py": 'open("x")\n',
  "lib/e.pyi": 'open("x")\n',
  "e/a.go": "package a\n\nfunc f() { panic(1) }\n",
  "e/a.rs": 'fn f() { println!("x"); }\n',
  "e/a.sh": "eval x\n",
  "e/a.bash": "eval x\n",
  "e/a.yml": "image: a:latest\n",
  "e/a.yaml": "image: a:latest\n",
  "e/a.html": '<img src="x">\n',
  "e/a.htm": '<img src="x">\n',
  "e/a.css": "a { color: red !important }\n",
};

cliTest("every extension the command line maps is scanned with the parser poly uses (one finding each)", async () => {
  const dir = await tempTree({ ...USER_RULES, ...BY_EXTENSION });
  try {
    const set = await loadRuleSet(dir, { dirs: [".poly/rules"], builtin: false });
    const files = await filesOf(dir);
    equal(files.length, Object.keys(BY_EXTENSION).length);
    for (const file of files) ok(cliParserOf(file.path), file.relPath);
    const stats = await assertParity(set, files);
    // All through the command line: one process at once, one for the files whose texts decide once read; the HTML
    // files' embedded blocks (JavaScript's and CSS's rules) through napi as well.
    deepEqual([stats.viaCli, stats.viaNapi, stats.processes], [files.length, 2, 2], JSON.stringify(stats));
    const { results } = await lintBatch(set, files);
    for (const [i, file] of files.entries()) ok((results[i] as unknown[]).length > 0, `${file.relPath}: no finding`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

cliTest("the engine: batch.lint is set, lintMany equals lint file by file, in input order", async () => {
  equal(astGrepEngine.batch?.lint, true);
  const engine = await astGrepEngine.load();
  const settings: EngineSettings = {
    defaults: { line_length: 120, line_ending: "lf", final_newline: true, trim_trailing_whitespace: true },
    tool: {},
    configDir: FIXTURE_REPO,
    rules: { dirs: [".poly/rules"], overrides: { "ts-no-eval": { severity: "error" } } },
  };
  const files: SourceFile[] = (await filesOf(FIXTURE_REPO)).reverse();
  const many = await engine.lintMany!(files, settings);
  equal(many.length, files.length);
  for (const [i, file] of files.entries()) deepEqual(many[i], await engine.lint!(file, settings), file.relPath);
  ok(many.some((r) => !(r instanceof Error) && r.diagnostics.some((d) => d.code === "ts-no-eval")));
  // Without a configDir each file's directory stands in for it, as in lint(): one batch per rule set.
  const loose: EngineSettings = { ...settings, configDir: undefined, rules: { dirs: [] } };
  const perDir = await engine.lintMany!(files, loose);
  for (const [i, file] of files.entries()) deepEqual(perDir[i], await engine.lint!(file, loose), file.relPath);
});

cliTest("startBatch(): started on paths alone, finished with a subset in any order, equals lintBatch()", async () => {
  const set = await loadRuleSet(FIXTURE_REPO, { dirs: [".poly/rules"] });
  const files = await filesOf(FIXTURE_REPO);
  const refs = files.map(({ path, language }) => ({ path, language }));
  const started = startBatch(set, refs);
  await started.ready;
  const extra: RepoFile = {
    path: join(FIXTURE_REPO, "not-started.ts"),
    relPath: "not-started.ts",
    language: "typescript",
    text: "debugger;\n",
  };
  const subset = [...files.filter((_, i) => i % 3 !== 1), extra].reverse();
  const { results, stats } = await started.finish(subset);
  // One process on the paths, one at finish for the files whose texts had to be read first.
  equal(stats.processes, 2, JSON.stringify(stats));
  ok(stats.viaCli > 5, JSON.stringify(stats));
  for (const [i, file] of subset.entries()) deepEqual(results[i], await lintWithRules(set, file), file.relPath);
  ok((results[subset.indexOf(extra)] as unknown[]).length > 0, "the file it was not started on is scanned too");
  const idle = startBatch(set, refs.slice(0, 3));
  deepEqual((await idle.finish([])).results, [], "finish([]) only waits");
});

cliTest("startBatch(): files whose text decides are scanned once all of them are offered, before finish", async () => {
  const dir = await tempTree({
    "src/a.ts": "function f() {\n  debugger;\n}\n",
    "src/b.ts": "export const x = 1;\n",
    "lib/c.py": "def f():\n    print(1)\n",
  });
  try {
    const set = await loadRuleSet(dir, { dirs: [] });
    const files = await filesOf(dir);
    const executable = (await astGrepExecutable())!;
    const calls: string[][] = [];
    const run = (args: string[], cwd: string) => {
      calls.push(args);
      return runExecutable(executable, args, { cwd });
    };
    const started = startBatch(set, files.map(({ path, language }) => ({ path, language })), { run });
    await started.ready;
    // At once: the Python file (a Python rule has no word of its own, so no text can rule it out).
    // (Paths are relative to the folder the process's files share.)
    deepEqual(calls.map((args) => args.slice(args.indexOf("--") + 1)), [["c.py"]]);
    for (const file of files) started.offer(file);
    // The last TypeScript file offered starts a process on those its text lets through: a.ts, not b.ts.
    for (let i = 0; i < 500 && calls.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    deepEqual(calls[1]?.slice(calls[1].indexOf("--") + 1), ["a.ts"]);
    const { results, stats } = await started.finish(files);
    deepEqual(results, (await lintBatch(set, files)).results);
    deepEqual([stats.viaCli, stats.ruledOut, stats.processes], [2, 1, 2], JSON.stringify(stats));
    ok(results.every((r) => !(r instanceof Error)));
    ok((results[files.findIndex((f) => f.relPath === "src/a.ts")] as unknown[]).length > 0);
    deepEqual(results[files.findIndex((f) => f.relPath === "src/b.ts")], []);
    // The configuration folder is gone once the batch is finished.
    const config = calls[0][calls[0].indexOf("-c") + 1];
    ok(!(await Deno.stat(config).then(() => true, () => false)), `${config} is left behind`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

cliTest("startBatch(): a file whose text turns out to carry a suppression comment is scanned by napi", async () => {
  // The command line honours `ast-grep-ignore` and napi does not: started on the path alone,
  // the command line scans the file and reports nothing; the text read shows the comment.
  const dir = await tempTree({ "src/s.ts": "// ast-grep-ignore\ndebugger;\n", "src/t.ts": "debugger;\n" });
  try {
    const set = await loadRuleSet(dir, { dirs: [] });
    const files = await filesOf(dir);
    const started = startBatch(set, files.map(({ path, language }) => ({ path, language })));
    const { results, stats } = await started.finish(files);
    deepEqual([stats.viaCli, stats.viaNapi], [1, 1], JSON.stringify(stats));
    for (const [i, file] of files.entries()) {
      deepEqual(results[i], await lintWithRules(set, file), file.relPath);
      ok((results[i] as unknown[]).length > 0, `${file.relPath}: no finding`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

cliTest("the engine: startLintMany() equals lintMany(); without a configDir it runs lintMany() at finish", async () => {
  const engine = await astGrepEngine.load();
  const settings: EngineSettings = {
    defaults: { line_length: 120, line_ending: "lf", final_newline: true, trim_trailing_whitespace: true },
    tool: {},
    configDir: FIXTURE_REPO,
    rules: { dirs: [".poly/rules"] },
  };
  const files: SourceFile[] = await filesOf(FIXTURE_REPO);
  const refs = files.map(({ path, relPath, language }) => ({ path, relPath, language }));
  const started = engine.startLintMany!(refs, settings);
  await started.ready;
  deepEqual(await started.finish(files), await engine.lintMany!(files, settings));
  const loose: EngineSettings = { ...settings, configDir: undefined, rules: { dirs: [] } };
  deepEqual(await engine.startLintMany!(refs, loose).finish(files), await engine.lintMany!(files, loose));
});

Deno.test("cliParserOf() follows the generated sgconfig.yml: ast-grep's languages by extension, exact lower-case", () => {
  equal(cliParserOf("/x/a.ts"), "TypeScript");
  equal(cliParserOf("/x/a.tsx"), "Tsx");
  equal(cliParserOf("/x/a.cjs"), "JavaScript");
  equal(cliParserOf("/x/a.jsx"), "JavaScript");
  equal(cliParserOf("/x/a.pyw"), undefined);
  equal(cliParserOf("/x/a.pyi"), "python");
  equal(cliParserOf("/x/a.yaml"), "yaml");
  equal(cliParserOf("/x/A.TS"), undefined);
  equal(cliParserOf("/x/Dockerfile"), undefined);
  equal(cliParserOf("/x/.bashrc"), undefined);
  equal(cliParserOf("/x/tool"), undefined);
  equal(cliParserOf("/x/a.constructor"), undefined);
});

cliTest("a compiled poly's copy of the command line (shim, detect-libc, platform binary) runs", async () => {
  const dest = join(await tempDir({ prefix: "poly-sg-copy-" }), "ast-grep-cli");
  try {
    const executable = await materialize(dest);
    deepEqual(await materialize(dest), executable, "a finished copy is reused");
    const direct = await runExecutable(executable, ["--version"]);
    equal(direct.code, 0, direct.stderr);
    equal(direct.stdout.trim(), `ast-grep ${AST_GREP_CLI_VERSION}`);
    // The shim Windows starts through node finds the copied binary too.
    const viaNode = await runHost("node", [executable.launcher, "--version"]);
    equal(viaNode.code, 0, viaNode.stderr);
    equal(viaNode.stdout.trim(), `ast-grep ${AST_GREP_CLI_VERSION}`);
  } finally {
    await Deno.remove(join(dest, ".."), { recursive: true });
  }
});
