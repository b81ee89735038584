import { deepEqual, equal } from "node:assert/strict";
import { inProcessWith } from "../_helpers/isolated.ts";
import { join } from "node:path";
import { assertGolden } from "../_helpers/cli.ts";
import { rustfmt } from "../../lib/engines/rustfmt/mod.ts";
import { engineError, fixture, GOLDEN, missing, native, settings } from "./_harness.ts";
import { tempDir } from "../_helpers/temp.ts";

const absent = await missing("rustfmt", "rustfmt engine tests");

Deno.test({
  name: "rustfmt format() matches the golden output and is idempotent",
  ignore: absent,
  async fn() {
    const engine = await rustfmt.load();
    const file = await fixture("rustfmt/unformatted.rs", "rust");
    const once = await engine.format!(file, settings());
    await assertGolden(join(GOLDEN, "rustfmt", "unformatted.rs.golden"), once);
    equal(await engine.format!({ ...file, text: once }, settings()), once);
  },
});

Deno.test({
  name: "rustfmt format() equals the native rustfmt with the same options",
  ignore: absent,
  async fn() {
    const file = await fixture("rustfmt/unformatted.rs", "rust");
    const ours = await (await rustfmt.load()).format!(file, settings({}, { line_length: 100 }));
    equal(ours, await native("rustfmt", ["--edition", "2021"], file.text));
  },
});

Deno.test({
  name: "rustfmt format() throws EngineError with line and column on a syntax error",
  ignore: absent,
  async fn() {
    const file = await fixture("rustfmt/syntax.rs", "rust");
    const error = await engineError(async () => await (await rustfmt.load()).format!(file, settings()));
    equal(error.line, 2);
    equal(typeof error.column, "number");
  },
});

Deno.test("rustfmt format() is unavailable, not formatted, when rustfmt is not on PATH", async () => {
  // In a process of its own: emptying PATH here would reach every test module running beside this one.
  const result = await inProcessWith(
    { PATH: "/nonexistent" },
    `
    const { rustfmt } = await import(REPO + "/lib/engines/rustfmt/mod.ts");
    const text = await Deno.readTextFile(REPO + "/fixtures/engines/rustfmt/unformatted.rs");
    const file = { path: "/x/unformatted.rs", relPath: "unformatted.rs", language: "rust", text };
    const settings = { defaults: { line_length: 120, line_ending: "lf" }, tool: {} };
    try {
      await (await rustfmt.load()).format(file, settings);
      console.log(JSON.stringify("formatted"));
    } catch (e) {
      console.log(JSON.stringify(e.name));
    }
  `,
  );
  equal(result, "EngineUnavailableError");
});

Deno.test({
  name: "rustfmt formatMany() formats many files in one process, equal to one at a time",
  ignore: absent,
  async fn() {
    const { formatMany } = await import("../../lib/engines/rustfmt/mod.ts");
    const file = await fixture("rustfmt/unformatted.rs", "rust");
    const syntax = await fixture("rustfmt/syntax.rs", "rust");
    const withMod = { ...file, relPath: "lib.rs", text: "mod missing;\nfn a(){}\n" };
    const small = { ...file, relPath: "b.rs", text: "fn b(){let y=2;}\n" };
    const results = await formatMany([file, syntax, withMod, small], settings());
    equal(results[0], await (await rustfmt.load()).format!(file, settings()));
    equal(results[1] instanceof Error && (results[1] as { line?: number }).line, 2);
    equal(results[2], "mod missing;\nfn a() {}\n");
    equal(results[3], "fn b() {\n    let y = 2;\n}\n");
  },
});

Deno.test({
  name: "rustfmt leaves no temporary directory behind, one file or a batch",
  ignore: absent,
  async fn() {
    const tmp = await tempDir({ prefix: "poly-rustfmt-tmp-" });
    try {
      // In a process of its own, whose temporary directory is this test's: others format Rust beside it.
      const result = await inProcessWith(
        { TMPDIR: tmp },
        `
        const { rustfmt } = await import(REPO + "/lib/engines/rustfmt/mod.ts");
        const text = await Deno.readTextFile(REPO + "/fixtures/engines/rustfmt/unformatted.rs");
        const file = (name) => ({ path: "/x/" + name, relPath: name, language: "rust", text });
        const settings = { defaults: { line_length: 120, line_ending: "lf" }, tool: {} };
        const engine = await rustfmt.load();
        await engine.format(file("one.rs"), settings);
        const many = await engine.formatMany([file("a.rs"), file("b.rs")], settings);
        console.log(JSON.stringify(many.map((m) => typeof m)));
      `,
      );
      deepEqual(result, ["string", "string"]);
      deepEqual([...Deno.readDirSync(tmp)].map((e) => e.name), []);
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
});
