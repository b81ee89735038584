/**
 * `poly rules list` / `poly rules test` and `poly lint` with rules, through the
 * real command line.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { assertGolden, copyFixture, runPoly, runPolyWithin } from "../_helpers/cli.ts";
import type { RulesDocument } from "../../lib/rules/report.ts";
import { GOLDEN, tempTree } from "./_helpers.ts";
import { tempDir } from "../_helpers/temp.ts";

Deno.test("poly rules test: the built-in pack's own tests pass", async () => {
  const dir = await tempTree({});
  const run = await runPoly(["rules", "test"], { cwd: dir });
  equal(run.code, 0, run.stdout + run.stderr);
  match(run.stdout, /^PASS js-no-debugger \(4 valid, 2 invalid\)$/m);
  match(run.stdout, /^\d+ passed, 0 failed, 0 without tests$/m);
});

Deno.test("poly rules list --format json: every rule with sources, severities and overrides", async () => {
  const repo = await copyFixture("rules/repo");
  await Deno.writeTextFile(
    join(repo, "poly.toml"),
    '[rules.overrides."js-no-eval"]\nseverity = "error"\n\n[rules.overrides."py-print-in-library"]\nenabled = false\n',
  );
  const run = await runPoly(["rules", "list", "--format", "json"], { cwd: repo });
  equal(run.code, 0, run.stderr);
  const doc = JSON.parse(run.stdout) as RulesDocument;
  const entry = (id: string) => doc.rules.find((r) => r.id === id)!;
  deepEqual(
    { ...entry("no-alert") },
    {
      id: "no-alert",
      language: "typescript",
      source: "user",
      default_severity: "info",
      severity: "info",
      enabled: true,
      file: ".poly/rules/no-alert.yml",
      line: 2,
      message: "`alert` blocks the page",
      fixable: false,
      url: null,
    },
  );
  deepEqual([entry("js-no-eval").default_severity, entry("js-no-eval").severity], ["warning", "error"]);
  deepEqual([entry("py-print-in-library").enabled, entry("py-print-in-library").severity], [false, "off"]);
  equal(entry("js-no-debugger").file, "builtin:javascript/js-no-debugger.yml");
  equal(entry("ts-no-debugger").file, "builtin:typescript/ts-no-debugger.yml");
  deepEqual(doc.dirs, [".poly/rules"]);
  equal(doc.summary.user, 1);
  equal(doc.summary.total, doc.summary.builtin + 1);
  equal(doc.errors.length, 0);

  const toon = await runPoly(["rules", "list", "--format", "toon"], { cwd: repo });
  equal(toon.code, 0);
  match(
    toon.stdout,
    /^rules\[\d+\]\{id,language,source,default_severity,severity,enabled,file,line,message,fixable,url\}:$/m,
  );
  match(toon.stdout, /^ {2}no-alert,typescript,user,info,info,true,\.poly\/rules\/no-alert\.yml,2,/m);
});

Deno.test("poly rules test --dir: a failing user test case exits 1 and names the snippet", async () => {
  const dir = await tempTree({
    "mine/no-alert.yml": "id: mine-no-alert\nlanguage: JavaScript\nrule:\n  pattern: alert($A)\n",
    "mine/no-alert-test.yml": 'id: mine-no-alert\nvalid: ["notify(1)"]\ninvalid: ["alert(1)", "window.alert(1, 2)"]\n',
  });
  const run = await runPoly(["rules", "test", "--dir", "mine", "--format", "json"], { cwd: dir });
  equal(run.code, 1, run.stderr);
  const doc = JSON.parse(run.stdout) as RulesDocument;
  const result = doc.tests!.results.find((r) => r.id === "mine-no-alert")!;
  equal(result.status, "failed");
  deepEqual(result.failures.map((f) => [f.kind, f.index, f.reason]), [["invalid", 1, "no match"]]);
  const human = await runPoly(["rules", "test", "--dir", "mine"], { cwd: dir });
  equal(human.code, 1);
  match(
    human.stdout,
    /^FAIL mine-no-alert \(1 valid, 2 invalid\)\n {2}invalid\[1\] no match: "window\.alert\(1, 2\)"$/m,
  );
});

Deno.test("poly rules list: a broken rule file exits 2 with file:line:col, the rest still listed", async () => {
  const dir = await tempTree({
    ".poly/rules/bad.yml": "id: bad\nlanguage: Go\nrule:\n  pattern: 'func ('\n",
    ".poly/rules/ok.yml": "id: ok-rule\nlanguage: Go\nrule:\n  pattern: panic($A)\n",
  });
  const run = await runPoly(["rules", "list"], { cwd: dir });
  equal(run.code, 2);
  match(run.stdout, /^error: \.poly\/rules\/bad\.yml:4:12: rule "bad": pattern "func \(" does not parse as go/m);
  match(run.stdout, /^ok-rule +go +user /m);
  match(run.stdout, /^js-no-debugger +javascript +builtin /m);
  match(run.stdout, /^ts-no-debugger +typescript +builtin /m);
});

Deno.test("poly lint --format json: ast-grep findings across the fixture repository (golden)", async () => {
  const repo = await copyFixture("rules/repo");
  const run = await runPoly(["lint", "--format", "json", "--no-workspace", "."], { cwd: repo });
  const report = JSON.parse(run.stdout) as {
    results: { path: string; diagnostics?: { engine: string; code: string }[] }[];
  };
  const ours: Record<string, string[]> = {};
  for (const r of report.results) {
    const codes = (r.diagnostics ?? []).filter((d) => d.engine === "ast-grep").map((d) => d.code);
    if (codes.length) ours[r.path] = codes;
  }
  ok(run.code === 1, `exit ${run.code}: error-severity findings expected\n${run.stderr}`);
  await assertGolden(join(GOLDEN, "lint_e2e.json"), JSON.stringify(ours, null, 2) + "\n");
});

Deno.test("poly lint --fix writes rule fixes atomically and reports them as fixed", async () => {
  const repo = await copyFixture("rules/repo");
  const run = await runPoly(["lint", "--fix", "--format", "json", "--no-workspace", "install.sh", "src/app.test.ts"], {
    cwd: repo,
  });
  const report = JSON.parse(run.stdout) as { results: { path: string; fixed?: number }[]; summary: { fixed?: number } };
  const fixed = Object.fromEntries(report.results.map((r) => [r.path, r.fixed ?? 0]));
  ok((fixed["install.sh"] ?? 0) >= 2, JSON.stringify(report.results));
  ok((fixed["src/app.test.ts"] ?? 0) >= 1, JSON.stringify(report.results));
  const script = await Deno.readTextFile(join(repo, "install.sh"));
  match(script, /rm -rf "?\$\{PREFIX:\?\}"?\/lib\/tool/);
  match(script, /exec tool "\$@"/);
  match(await Deno.readTextFile(join(repo, "src/app.test.ts")), /^describe\("run"/m);
});

Deno.test({
  name: "poly lint: a broken rule file is a run-level error (exit 2) and the other rules still report",
  fn: async () => {
    const dir = await tempTree({
      ".poly/rules/bad.yml": "id: bad\nlanguage: Cobol\nrule:\n  pattern: x\n",
      "a.ts": "debugger;\n",
    });
    const run = await runPoly(["lint", "--format", "json", "--no-workspace", "."], { cwd: dir });
    equal(run.code, 2, run.stdout);
    const report = JSON.parse(run.stdout) as { errors: { path: string; message: string }[]; results: unknown[] };
    ok(
      report.errors.some((e) =>
        e.path === ".poly/rules/bad.yml" && /2:11: rule "bad": unknown language/.test(e.message)
      ),
    );
    ok(JSON.stringify(report.results).includes("ts-no-debugger"));
  },
});

Deno.test({
  name: "poly lint: editing a user rule file invalidates cached rule results",
  fn: async () => {
    const rule = "id: no-alert\nlanguage: TypeScript\nseverity: info\nmessage: alert\nrule:\n  pattern: alert($$$A)\n";
    const dir = await tempTree({ ".poly/rules/no-alert.yml": rule, "a.ts": "alert(1);\n" });
    const lint = async () => {
      const run = await runPoly(["lint", "--format", "json", "--no-workspace", "a.ts"], { cwd: dir });
      const report = JSON.parse(run.stdout) as { results: { diagnostics?: { code: string; severity: string }[] }[] };
      return report.results.flatMap((r) => r.diagnostics ?? []).find((d) => d.code === "no-alert")?.severity;
    };
    equal(await lint(), "info");
    await Deno.writeTextFile(join(dir, ".poly/rules/no-alert.yml"), rule.replace("severity: info", "severity: error"));
    equal(await lint(), "error");
  },
});

Deno.test("poly lint remembers where the parser libraries are, and asks the packages again when one is gone", async () => {
  const repo = await copyFixture("rules/repo");
  const home = await tempDir({ prefix: "poly-parsers-home-" });
  const env = { POLY_CACHE_HOME: home };
  const lint = () => runPoly(["lint", "--format", "json", "--no-workspace", "--no-cache", "."], { cwd: repo, env });
  const first = await lint();
  const memoDir = join(home, "rules");
  const memos = [...Deno.readDirSync(memoDir)].filter((e) => e.name.startsWith("parsers-")).map((e) => e.name);
  equal(memos.length, 1, `one parsers memo: ${memos}`);
  const path = join(memoDir, memos[0]);
  const remembered = JSON.parse(await Deno.readTextFile(path)) as Record<string, { libraryPath: string }>;
  deepEqual(Object.keys(remembered).sort(), ["bash", "go", "python", "rust", "yaml"]);
  for (const { libraryPath } of Object.values(remembered)) ok(Deno.statSync(libraryPath).isFile, libraryPath);
  // A later run answered from the memo finds the same; one naming a library that is gone asks again.
  const second = await lint();
  remembered.python.libraryPath = join(home, "gone", "parser.so");
  await Deno.writeTextFile(path, JSON.stringify(remembered));
  const third = await lint();
  for (const run of [first, second, third]) equal(run.code, 1, run.stderr);
  const results = (run: { stdout: string }) => JSON.stringify((JSON.parse(run.stdout) as { results: unknown }).results);
  equal(results(second), results(first));
  equal(results(third), results(first));
  const again = JSON.parse(await Deno.readTextFile(path)) as Record<string, { libraryPath: string }>;
  ok(Deno.statSync(again.python.libraryPath).isFile, "the memo is written again with the real library");
});

Deno.test({
  name: "poly lint: a user rule's catastrophically backtracking regex finishes (linear-time engine) and still matches",
  fn: async () => {
    // `(a+)+b` backtracks exponentially on a run of `a` without a `b` in a backtracking engine:
    // 30 characters took over a minute. As a top-level `regex` beside `kind`, and as a constraint.
    const a30 = "a".repeat(30);
    const dir = await tempTree({
      ".poly/rules/redos.yml": "id: redos\nlanguage: JavaScript\nseverity: error\nmessage: slow\n" +
        'rule:\n  kind: string\n  regex: "(a+)+b"\n',
      ".poly/rules/redos-constraint.yml": "id: redos-constraint\nlanguage: JavaScript\nseverity: warning\n" +
        'message: slow\nrule:\n  pattern: f($A)\nconstraints:\n  A:\n    regex: "^\\"(a|aa)+c"\n',
      "a.js": `export const s = "${a30}";\nexport const b = "${a30}b";\nf("${a30}");\nf("${a30}c");\n`,
    });
    const run = await runPolyWithin(30_000, ["lint", "--format", "json", "--no-workspace", "--no-cache", "a.js"], {
      cwd: dir,
    });
    equal(run.timedOut, false, `poly lint still running after 30 s (${run.ms} ms)`);
    const report = JSON.parse(run.stdout) as {
      results: { diagnostics?: { code: string; span: { start_line: number } }[] }[];
    };
    const hits = report.results.flatMap((r) => r.diagnostics ?? []).filter((d) => d.code.startsWith("redos"))
      .map((d) => `${d.code}:${d.span.start_line}`).sort();
    deepEqual(hits, ["redos-constraint:4", "redos:2"]);
  },
});

Deno.test("poly rules list names the poly file for an unknown override, not an engine's file beside it", async () => {
  // A package.json (biome's manifest) and an .editorconfig are sources of the configuration too, listed after it.
  const dir = await tempTree({
    "poly.toml": '[rules]\n\n[rules.overrides."js-no-debuger"]\nseverity = "off"\n',
    "package.json": '{ "name": "x" }\n',
    ".editorconfig": "root = true\n",
  });
  await Deno.mkdir(join(dir, ".git"));
  const run = await runPoly(["rules", "list", "--format", "json"], { cwd: dir });
  equal(run.code, 2, run.stderr);
  const doc = JSON.parse(run.stdout) as RulesDocument;
  deepEqual(doc.errors.map((e) => [e.path, e.line, e.column]), [["poly.toml", 3, 8]]);
  match(doc.errors[0].message, /unknown rule id "js-no-debuger": did you mean "js-no-debugger"\?/);
});
