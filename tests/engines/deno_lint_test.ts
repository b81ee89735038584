import { deepEqual, equal, match } from "node:assert/strict";
import { denoLint } from "../../lib/engines/deno_lint/mod.ts";
import type { EngineSettings } from "../../lib/engines/types.ts";
import { engineError, fixture, FIXTURES, missing, settings } from "./_harness.ts";

const absent = await missing("deno", "deno-lint engine tests");

/** Settings under a deno.json whose `lint` is `lint`. */
function under(lint: Record<string, unknown>, tool: Record<string, unknown> = {}): EngineSettings {
  return { ...settings(tool), native: { files: [], options: lint, root: FIXTURES, deno: true } };
}

Deno.test({
  name: "deno-lint lint() reports what deno lint reports, at its places, under the deno.json's rules",
  ignore: absent,
  async fn() {
    const engine = await denoLint.load();
    const file = await fixture("deno_lint/sample.ts", "typescript");
    const out = await engine.lint!(file, under({}));
    const seen = out.diagnostics.map((d) => `${d.code} ${d.span?.start_line}:${d.span?.start_col}`);
    // As `deno lint --json` reports them (the ignore comment holds; columns in UTF-16 units, after "é" and "日本").
    deepEqual(seen.sort(), ["no-explicit-any 2:22", "no-unused-vars 5:9", "no-var 5:19", "prefer-const 1:5"]);
    equal(out.diagnostics.every((d) => d.engine === "deno-lint" && d.severity === "error"), true);
    // The deno.json's rules: one excluded, one included beyond the recommended set.
    const ruled = await engine.lint!(file, under({ rules: { exclude: ["no-var"], include: ["no-console"] } }));
    deepEqual(ruled.diagnostics.map((d) => d.code).sort(), ["no-explicit-any", "no-unused-vars", "prefer-const"]);
    // poly.toml's select/ignore on top.
    const ignored = await engine.lint!(file, under({}, { ignore: ["prefer-const"] }));
    deepEqual(ignored.diagnostics.map((d) => d.code).sort(), ["no-explicit-any", "no-unused-vars", "no-var"]);
  },
});

Deno.test({
  name: "deno-lint lint() of a file deno cannot parse is an error at its line and column",
  ignore: absent,
  async fn() {
    const engine = await denoLint.load();
    const error = await engineError(() => engine.lint!({ ...FILE, text: "const x = {\n" }, under({})));
    equal(error.line, 1);
    equal(error.column, 9);
  },
});

const FILE = { path: `${FIXTURES}/deno_lint/x.ts`, relPath: "x.ts", language: "typescript" as const, text: "" };

Deno.test({
  name: "deno-lint runs no lint plugin (repository code) and says which rules went unchecked; unknown keys are errors",
  ignore: absent,
  async fn() {
    const engine = await denoLint.load();
    // An ignore comment naming a plugin's rule is no "unknown rule" then (deno lint, without the plugin, says it is).
    const text = "let a = 1;\n// deno-lint-ignore my-plugin/rule\nexport { a };\n";
    const out = await engine.lint!({ ...FILE, text }, under({ plugins: ["./p.ts"] }));
    deepEqual(out.diagnostics.map((d) => d.code), ["prefer-const"]);
    deepEqual((await engine.lint!({ ...FILE, text }, under({}))).diagnostics.map((d) => d.code).sort(), [
      "ban-unknown-rule-code",
      "prefer-const",
    ]);
    match(out.partial ?? "", /deno lint plugins "\.\/p\.ts" not run .*their rules are not checked/);
    equal((await engine.lint!({ ...FILE, text: "export {};\n" }, under({}))).partial, undefined);
    const key = await engineError(() => engine.lint!({ ...FILE, text: "export {};\n" }, under({}, { tags: ["x"] })));
    match(key.message, /unknown setting "tags"/);
  },
});

Deno.test({
  name: "deno-lint fix() applies deno lint --fix to a copy and counts what it removed",
  ignore: absent,
  async fn() {
    const engine = await denoLint.load();
    const text = "console.log(window.location);\n";
    const out = await engine.fix!({ ...FILE, text }, under({}));
    equal(out.text, "console.log(globalThis.location);\n");
    equal(out.fixed, 1);
    equal(await Deno.readTextFile(`${FIXTURES}/deno_lint/sample.ts`).then((t) => t.startsWith("let count")), true);
  },
});
