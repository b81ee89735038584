/**
 * The real `poly lint` process on fixture repositories: exit codes and every
 * output format against golden files.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertGolden, copyFixture, REPO, runPoly } from "../_helpers/cli.ts";
import { validateReport } from "../_helpers/report_schema.ts";

const GOLDEN = join(REPO, "tests", "e2e", "golden");

/** Replaces what differs between runs (pid, executable path, temp dir) in a JSON report. */
export function normalizeJson(text: string, dir: string): string {
  const doc = JSON.parse(text);
  doc.poly.pid = 0;
  doc.poly.executable = "<executable>";
  return JSON.stringify(doc, null, 2).replaceAll(dir, "<dir>") + "\n";
}

async function lintIn(fixture: string, args: string[]) {
  const dir = await copyFixture(`e2e/${fixture}`);
  const run = await runPoly(["lint", "--no-workspace", "--no-cache", ...args], { cwd: dir });
  return { dir, ...run };
}

Deno.test("poly lint exits 0 on a clean repository", async () => {
  const { code, stderr } = await lintIn("clean", ["--format", "json"]);
  assert.equal(code, 0, stderr);
});

Deno.test("poly lint exits 1 on error-severity findings, and each format matches its golden file", async () => {
  for (const format of ["json", "toon", "human", "sarif", "github"]) {
    const { code, stdout, stderr, dir } = await lintIn("findings", ["--format", format]);
    assert.equal(code, 1, `${format}: ${stderr}`);
    let text = stdout;
    if (format === "json") {
      assert.deepEqual(validateReport(JSON.parse(stdout)), []);
      text = normalizeJson(stdout, dir);
    } else {
      text = text.replaceAll(dir, "<dir>").replace(/"pid": \d+/g, '"pid": 0').replace(/pid: \d+/g, "pid: 0")
        .replace(/executable: .*$/gm, "executable: <executable>")
        .replace(/"executable": "[^"]*"/g, '"executable": "<executable>"');
    }
    await assertGolden(join(GOLDEN, `lint_findings.${format}`), text);
  }
});

Deno.test("poly lint exits 1 on a syntax error, a diagnostic with its line (ruff's invalid-syntax), not an error", async () => {
  const { code, stdout } = await lintIn("broken", ["--format", "json"]);
  assert.equal(code, 1);
  const doc = JSON.parse(stdout);
  assert.deepEqual(validateReport(doc), []);
  assert.equal(doc.summary.errored, 0);
  assert.deepEqual(doc.errors, []);
  const record = doc.results.find((r: { path: string }) => r.path === "syntax.py");
  assert.equal(record.diagnostics[0].code, "invalid-syntax");
  assert.equal(record.diagnostics[0].span.start_line, 1);
  assert.equal(doc.summary.checked, 2, "both files are checked");
});

Deno.test("poly lint exits 2 when nothing could be checked, and says why", async () => {
  const { code, stdout } = await lintIn("unknown", ["--format", "json"]);
  assert.equal(code, 2);
  const doc = JSON.parse(stdout);
  assert.equal(doc.summary.checked, 0);
  assert.deepEqual(doc.skipped, [{ path: "main.zig", reason: "no lint engine for Zig" }]);
  assert.deepEqual(doc.errors, [], "a skip is not an error");
});

Deno.test("poly lint --fix reports what it fixed, never 'no issues', and rewrites atomically", async () => {
  const { code, stdout, dir } = await lintIn("fixable", ["--fix", "--format", "json"]);
  const doc = JSON.parse(stdout);
  assert.deepEqual(validateReport(doc), []);
  assert.ok(doc.summary.fixed >= 2, JSON.stringify(doc.summary));
  const py = doc.results.find((r: { path: string }) => r.path === "fix.py");
  assert.ok(py.fixed >= 1);
  assert.equal(await Deno.readTextFile(join(dir, "fix.py")), "import sys\n\nprint(sys.argv)\n");
  assert.match(await Deno.readTextFile(join(dir, "fix.ts")), /^const a = 1;/);
  assert.equal(code, 0);
  const leftovers = [...Deno.readDirSync(dir)].filter((e) => e.name.includes(".poly-"));
  assert.deepEqual(leftovers, [], "no temporary files left behind");
  const human = await runPoly(["lint", "--no-workspace", "--fix"], { cwd: await copyFixture("e2e/fixable") });
  assert.doesNotMatch(human.stdout, /no issues/i);
  assert.match(human.stdout, /fixed/i);
});

Deno.test("poly lint keeps stdout to the document: messages go to stderr", async () => {
  const { stdout } = await lintIn("findings", ["--format", "json"]);
  JSON.parse(stdout);
});

Deno.test("a machine-format run writes nothing to stderr: cold and warm, lint and fmt, check and fix", async () => {
  const dir = await copyFixture("e2e/findings");
  const env = { POLY_CACHE_HOME: join(dir, ".poly-cache") };
  const lint = ["lint", "--no-workspace"];
  for (const args of [lint, lint, ["fmt"], ["fmt"], ["fmt", "--fix"], [...lint, "--fix"]]) {
    const run = await runPoly([...args, "--format", "json", "--exclude", ".poly-cache"], {
      cwd: dir,
      env,
    });
    assert.ok(run.code <= 1, `${args.join(" ")}: exit ${run.code}: ${run.stderr}`);
    assert.equal(run.stderr, "", `${args.join(" ")}: nothing on stderr`);
  }
});

Deno.test("poly lint on a path that does not exist is an errored record, exit 2", async () => {
  const { code, stdout } = await lintIn("clean", ["--format", "json", "missing.py"]);
  assert.equal(code, 2);
  assert.equal(JSON.parse(stdout).errors[0].path, "missing.py");
});

Deno.test("an unknown option prints a one-line error and the usage, exit 2", async () => {
  const { code, stderr } = await runPoly(["lint", "--bogus"]);
  assert.equal(code, 2);
  assert.match(stderr, /Usage: poly/);
  assert.match(stderr, /--bogus/);
  const unknown = await runPoly(["lnt"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Did you mean `lint`\?/);
});

Deno.test("poly --version prints version, build id and channel", async () => {
  const { code, stdout } = await runPoly(["--version"]);
  assert.equal(code, 0);
  assert.match(stdout, /^poly \d+\.\d+\.\d+ \(build \S+, channel (dev|release)\)\n$/);
});
