/**
 * The outcome model, through the real `poly` process (fixtures/e2e/outcomes):
 * a syntax error in a user's file is a diagnostic with the engine's own code
 * (exit 1), never an errored record; it is cached like findings; a file an
 * engine declines by its own rules is a skip with the engine's reason; every
 * language an engine lints is linted, and a file is checked when any engine
 * checked it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyFixture, runPoly } from "../_helpers/cli.ts";
import { validateReport } from "../_helpers/report_schema.ts";
import type { Diagnostic, FileResult, Report } from "../../lib/report/schema.ts";

async function has(program: string): Promise<boolean> {
  try {
    await new Deno.Command(program, { args: ["--version"], stdout: "null", stderr: "null" }).output();
    return true;
  } catch {
    return false;
  }
}

/**
 * A fresh copy of the fixture, in a repository of its own, with a committed
 * dependency under `node_modules/` (made here: the repository ignores such folders).
 */
async function fixture(): Promise<string> {
  const dir = await copyFixture("e2e/outcomes");
  await Deno.mkdir(join(dir, ".git"));
  await Deno.mkdir(join(dir, "node_modules", "pkg"), { recursive: true });
  await Deno.writeTextFile(join(dir, "node_modules", "pkg", "index.js"), "var unused = 1;;\n");
  return dir;
}

async function poly(dir: string, args: string[]): Promise<{ code: number; doc: Report; stderr: string }> {
  const run = await runPoly([...args, "--format", "json"], {
    cwd: dir,
    env: { POLY_CACHE_HOME: join(dir, ".git", "poly-cache") },
  });
  const doc = JSON.parse(run.stdout) as Report;
  assert.deepEqual(validateReport(doc), []);
  return { code: run.code, doc, stderr: run.stderr };
}

function record(doc: Report, path: string): FileResult | undefined {
  return doc.results.find((r) => r.path === path);
}

function codes(doc: Report, path: string): string[] {
  return (record(doc, path)?.diagnostics ?? []).map((d: Diagnostic) => `${d.engine}/${d.code}/${d.severity}`);
}

const BROKEN = ["bad.py", "bad.ts", "bad.yaml", "bad.toml", "bad.go", "bad.sh"];

Deno.test("poly lint reports syntax errors as diagnostics with each engine's own code, and exits 1", async () => {
  const dir = await fixture();
  const { code, doc, stderr } = await poly(dir, ["lint", "--no-workspace", ...BROKEN, "good.py"]);
  assert.equal(code, 1, stderr);
  assert.deepEqual(doc.errors, [], "no errored record: the files are the user's, poly did not fail");
  assert.equal(doc.summary.errored, 0);
  assert.ok(codes(doc, "bad.py").includes("ruff/invalid-syntax/error"), JSON.stringify(codes(doc, "bad.py")));
  assert.ok(codes(doc, "bad.ts").includes("biome/parse/error"), JSON.stringify(codes(doc, "bad.ts")));
  assert.ok(codes(doc, "bad.yaml").some((c) => c.startsWith("yaml/") && c.endsWith("/error")));
  assert.ok(codes(doc, "bad.toml").includes("toml/syntax/error"));
  if (await has("go")) assert.ok(codes(doc, "bad.go").includes("govet/compile/error"));
  if (await has("shellcheck")) assert.ok(codes(doc, "bad.sh").includes("shellcheck/SC1073/error"));
  const py = record(doc, "bad.py")!.diagnostics![0];
  assert.equal(py.span?.start_line, 1);
  // Every file is checked by at least the rule pack; one whose own linter is not installed also says so as a skip.
  assert.equal(doc.summary.checked, BROKEN.length + 1);
  const missing = [...(await has("go") ? [] : ["bad.go"]), ...(await has("shellcheck") ? [] : ["bad.sh"])];
  assert.deepEqual(doc.skipped.map((s) => s.path).sort(), missing, JSON.stringify(doc.skipped));
});

Deno.test("poly fmt --check reports a formatter's syntax error as a diagnostic, and exits 1", async () => {
  const dir = await fixture();
  const { code, doc } = await poly(dir, ["fmt", "--check", "bad.py", "bad.ts", "bad.go", "good.py"]);
  assert.equal(code, 1);
  assert.deepEqual(doc.errors, []);
  assert.ok(codes(doc, "bad.py").includes("ruff/invalid-syntax/error"));
  assert.ok(codes(doc, "bad.ts").includes("biome/parse/error"));
  assert.ok(codes(doc, "bad.go").includes("gofmt/syntax/error"));
  assert.equal(doc.summary.diagnostics?.error, codes(doc, "bad.py").length + codes(doc, "bad.ts").length + 1);
});

Deno.test("syntax errors are cached like findings: a warm run misses nothing", async () => {
  const dir = await fixture();
  const args = ["lint", "--no-workspace", "bad.py", "bad.ts", "bad.yaml", "bad.toml", "good.py", "web"];
  const cold = await poly(dir, args);
  const warm = await poly(dir, args);
  assert.ok(cold.doc.summary.cache!.misses > 0);
  assert.equal(warm.doc.summary.cache!.misses, 0, JSON.stringify(warm.doc.summary));
  assert.deepEqual(warm.doc.results, cold.doc.results);
  const fmtCold = await poly(dir, ["fmt", "--check", "bad.py", "bad.ts", "good.py"]);
  const fmtWarm = await poly(dir, ["fmt", "--check", "bad.py", "bad.ts", "good.py"]);
  assert.ok(fmtCold.doc.summary.cache!.misses > 0);
  assert.equal(fmtWarm.doc.summary.cache!.misses, 0);
  assert.deepEqual(fmtWarm.doc.results, fmtCold.doc.results);
});

Deno.test("a file biome ignores by its own rules (under node_modules/) is a skip with biome's reason, not an error", async () => {
  const dir = await fixture();
  for (const kind of ["lint", "fmt"]) {
    const args = kind === "lint" ? ["lint", "--no-workspace"] : ["fmt", "--check"];
    const { doc } = await poly(dir, [...args, "node_modules/pkg/index.js"]);
    assert.deepEqual(doc.errors, [], kind);
    const skipped = record(doc, "node_modules/pkg/index.js")?.skipped ?? "";
    assert.match(skipped, /biome ignores this file: it never checks files under node_modules\//, kind);
  }
});

Deno.test("biome lints HTML, Vue, Svelte and Astro as `biome lint` does", async () => {
  const dir = await fixture();
  const { doc } = await poly(dir, ["lint", "--no-workspace", "web"]);
  assert.ok(codes(doc, "web/page.html").includes("biome/a11y/useAltText/error"), JSON.stringify(doc.results));
  for (const path of ["web/comp.vue", "web/comp.svelte", "web/page.astro"]) {
    assert.ok(codes(doc, path).includes("biome/suspicious/noDebugger/error"), path);
  }
  assert.ok(!doc.skipped.some((s) => /no lint engine/.test(s.reason)), JSON.stringify(doc.skipped));
});

Deno.test("biome's assist actions (organizeImports) are not lint findings, as with `biome lint`", async () => {
  const dir = await fixture();
  const { code, doc } = await poly(dir, ["lint", "--no-workspace", "web/imports.ts", "web/a.ts", "web/b.ts"]);
  assert.deepEqual(codes(doc, "web/imports.ts"), []);
  assert.equal(code, 0);
});

Deno.test("a file is checked when any engine checked it; `no lint engine` only where none applies", async () => {
  const dir = await fixture();
  const { doc } = await poly(dir, ["lint", "--no-workspace", "rust/main.rs", "other/x.zig"]);
  // The structural rules check Rust: the file is checked, and not called skipped.
  assert.equal(record(doc, "rust/main.rs")?.skipped, undefined, JSON.stringify(doc.results));
  assert.deepEqual(doc.skipped, [{ path: "other/x.zig", reason: "no lint engine for Zig" }]);
  assert.equal(doc.summary.checked, 1);
  assert.equal(doc.summary.skipped, 1);
});

Deno.test({
  name: "a Go module the host Go cannot read is one run-level error with the cause and the fix; its files are skipped",
  ignore: !(await has("go")),
  async fn() {
    // go.mod asks for go 1.99.0: newer than any host Go (Go 1.21+ says "requires go >= 1.99.0"; older, "invalid go version").
    const dir = await copyFixture("e2e/gomodule");
    await Deno.mkdir(join(dir, ".git"));
    for (let round = 0; round < 2; round++) {
      const { code, doc } = await poly(dir, ["lint", "--no-workspace"]);
      assert.equal(code, 2, "the module was not checked");
      assert.equal(doc.errors.length, 1, JSON.stringify(doc.errors));
      assert.equal(doc.errors[0].path, "go.mod");
      assert.match(
        doc.errors[0].message,
        /go\.mod requires go 1\.99\.0; the host go is \d+\.\d+(\.\d+)?: install Go 1\.99\.0/,
      );
      const goFiles = ["cmd/app/main.go", "internal/util/bye.go", "internal/util/hello.go", "internal/util/third.go"];
      for (const path of goFiles) {
        assert.equal(record(doc, path)?.error, undefined, path);
        assert.equal(record(doc, path)?.skipped, "go vet did not run for this module: see the error for its go.mod");
      }
      // Never cached: the warm run asks go again (a newer Go may have been installed since).
      if (round === 1) assert.ok(doc.summary.cache!.misses >= goFiles.length, JSON.stringify(doc.summary));
    }
  },
});

Deno.test({
  name: "a script shellcheck does not check (zsh) is a skip with shellcheck's reason, not an error finding",
  ignore: !(await has("shellcheck")),
  async fn() {
    const dir = await fixture();
    const { code, doc } = await poly(dir, ["lint", "--no-workspace", "zsh.sh"]);
    assert.deepEqual(codes(doc, "zsh.sh"), []);
    assert.match(record(doc, "zsh.sh")?.skipped ?? "", /^shellcheck does not check this script: SC1071 /);
    assert.notEqual(code, 1, "no finding");
  },
});

Deno.test("beside its parse errors, a file gets what biome's rules found in what did parse, as `biome lint` reports", async () => {
  const dir = await fixture();
  const { code, doc } = await poly(dir, ["lint", "--no-workspace", "web/broken.html"]);
  assert.equal(code, 1);
  assert.deepEqual(codes(doc, "web/broken.html"), [
    "biome/parse/error",
    "biome/a11y/useAltText/error",
    "biome/parse/error",
  ]);
});
