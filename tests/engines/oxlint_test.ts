import { equal } from "node:assert/strict";
import { join } from "node:path";
import { assertGolden } from "../_helpers/cli.ts";
import { materialize } from "../../lib/engines/oxlint/_bin.ts";
import { normalizeCode, type Oxlint, oxlint } from "../../lib/engines/oxlint/mod.ts";
import { diagnosticsJson, engineError, fixture, GOLDEN, missing, settings } from "./_harness.ts";
import { tempDir } from "../_helpers/temp.ts";

const absent = await missing("node", "oxlint engine tests (oxlint runs under Node.js)");

Deno.test({
  name: "oxlint lint() matches the golden diagnostics",
  ignore: absent,
  async fn() {
    const out = await (await oxlint.load()).lint!(await fixture("oxlint/bad.ts", "typescript"), settings());
    await assertGolden(join(GOLDEN, "oxlint", "bad.ts.json"), diagnosticsJson(out.diagnostics));
  },
});

Deno.test({
  name: "oxlint lintMany() lints many files in one process with per-file results",
  ignore: absent,
  async fn() {
    const engine = await oxlint.load() as Oxlint;
    const bad = await fixture("oxlint/bad.ts", "typescript");
    const syntax = await fixture("oxlint/syntax.ts", "typescript");
    const clean = { ...bad, relPath: "clean.ts", text: "export const ok = 1;\n" };
    const results = await engine.lintMany([bad, syntax, clean, bad], settings());
    equal(results.length, 4);
    equal("diagnostics" in results[0] && results[0].diagnostics.length > 0, true);
    equal(results[1] instanceof Error, true);
    equal("diagnostics" in results[2] && results[2].diagnostics.length, 0);
    equal(JSON.stringify(results[3]), JSON.stringify(results[0]));
  },
});

Deno.test({
  name: "oxlint lint() turns on rules from rules.<id>.level and fix() applies safe fixes",
  ignore: absent,
  async fn() {
    const engine = await oxlint.load();
    const file = await fixture("oxlint/bad.ts", "typescript");
    const strict = await engine.lint!(file, settings({ rules: { eqeqeq: { level: "error" } } }));
    equal(strict.diagnostics.find((d) => d.code === "eslint/eqeqeq")?.severity, "error");
    const withVar = { ...file, text: "var a = 1;\nexport { a };\n" };
    const fixed = await engine.fix!(withVar, settings({ rules: { "no-var": { level: "error" } } }));
    equal(fixed.fixed, 1);
    equal(fixed.text, "const a = 1;\nexport { a };\n");
  },
});

Deno.test({
  name: "oxlint lint() throws EngineError with line and column on a syntax error",
  ignore: absent,
  async fn() {
    const file = await fixture("oxlint/syntax.ts", "typescript");
    const error = await engineError(async () => await (await oxlint.load()).lint!(file, settings()));
    equal(error.line, 1);
    equal(error.column, 19);
  },
});

Deno.test({
  name: "oxlint materialize() copies a runnable program (what a compiled poly does)",
  ignore: absent,
  async fn() {
    const dest = join(await tempDir({ prefix: "poly-oxlint-copy-" }), "oxlint");
    const bin = await materialize(dest);
    equal(await materialize(dest), bin, "a finished copy is reused");
    const out = await new Deno.Command("node", { args: [bin, "--version"], stdout: "piped" }).output();
    equal(out.code, 0);
    equal(new TextDecoder().decode(out.stdout).includes("1.94.0"), true);
  },
});

Deno.test("oxlint normalizeCode() turns plugin(rule) into plugin/rule", () => {
  equal(normalizeCode("eslint(no-debugger)"), "eslint/no-debugger");
  equal(normalizeCode("typescript-eslint(no-explicit-any)"), "typescript/no-explicit-any");
  equal(normalizeCode("eslint-plugin-unicorn(no-null)"), "unicorn/no-null");
});

Deno.test("oxlint is opt-in", () => {
  equal(oxlint.defaultEnabled, false);
});

/** The repository the next tests' files are in (never read: oxlint lints copies). */
const root = "/repo";
/** A file at `rel` in it, with a `debugger` statement. */
const file = (rel: string) => ({
  path: join(root, rel),
  relPath: rel,
  language: "javascript" as const,
  text: "debugger;\n",
});

Deno.test({
  name: "oxlint lintMany() under a repository's file: copies lie beneath it as the files do, so its overrides match",
  ignore: absent,
  async fn() {
    const engine = await oxlint.load() as Oxlint;
    const native = {
      files: [],
      options: {
        rules: { "no-debugger": "error" },
        overrides: [{ files: ["tools/**"], rules: { "no-debugger": "off" } }],
      },
      root,
    };
    const [kept, overridden] = await engine.lintMany([file("src/a.js"), file("tools/b.js")], { ...settings(), native });
    equal(
      "diagnostics" in kept && kept.diagnostics.map((d) => `${d.code} ${d.severity}`).join(),
      "eslint/no-debugger error",
    );
    equal("diagnostics" in overridden && overridden.diagnostics.length, 0);
  },
});

Deno.test({
  name: "oxlint lintMany(): a file oxlint's ignorePatterns passed over is an error, never a clean result",
  ignore: absent,
  async fn() {
    const engine = await oxlint.load() as Oxlint;
    // What poly's own match of the patterns would have kept from oxlint (lib/config/native/oxlint.ts), given anyway.
    const native = { files: [], options: { ignorePatterns: ["gen/**"] }, root };
    const [ignored, linted] = await engine.lintMany([file("gen/a.js"), file("src/b.js")], { ...settings(), native });
    equal(ignored instanceof Error && /oxlint linted 1 of the 2 files given to it/.test(ignored.message), true);
    equal("diagnostics" in linted && linted.diagnostics.length, 1);
  },
});
