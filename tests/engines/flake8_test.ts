import assert from "node:assert/strict";
import { flake8, flake8Args, flake8Config } from "../../lib/engines/flake8/mod.ts";
import { parseIni } from "../../lib/config/native/_ini.ts";
import { EngineError, type EngineInstance, type SourceFile, SourceSyntaxError } from "../../lib/engines/types.ts";
import { missing, settings } from "./_harness.ts";

const absent = await missing("flake8", "flake8 engine tests");

Deno.test("flake8Config() writes the section so that configparser reads back the same values", () => {
  const section = {
    "max-line-length": "100",
    ignore: "\nE203,\n\nW503",
    "per-file-ignores": "\ntests/*: F401",
    "a b": "x",
  };
  const read = parseIni(flake8Config(section)).get("flake8")!;
  assert.deepEqual(Object.fromEntries(read), {
    "max-line-length": "100",
    ignore: "\nE203,\n\nW503",
    "per-file-ignores": "\ntests/*: F401",
  });
});

Deno.test("flake8Args() passes poly.toml's keys as flake8's flags and names an unknown one", () => {
  assert.deepEqual(
    flake8Args(settings({ select: ["E", "F"], ignore: ["E501"], max_line_length: 99, rules: {} })),
    ["--select=E,F", "--extend-ignore=E501", "--max-line-length=99"],
  );
  assert.throws(() => flake8Args(settings({ line_length: 99 })), /unknown key "line_length" in \[lint.python.flake8\]/);
  assert.throws(() => flake8Args(settings({ max_complexity: "10" })), /"max_complexity" must be a whole number/);
});

function file(relPath: string, text: string): SourceFile {
  return { path: `/repo/${relPath}`, relPath, language: "python", text };
}

Deno.test({
  name: "flake8 lintMany() lints files in one process under the repository's section, laid out beneath it",
  ignore: absent,
  async fn() {
    const engine = await flake8.load() as EngineInstance & {
      lintMany(files: SourceFile[], s: ReturnType<typeof settings>): Promise<unknown[]>;
    };
    const native = {
      files: [{ path: "/repo/setup.cfg", hash: "0" }],
      options: { section: { "max-line-length": "20", "per-file-ignores": "\ntests/*: F401" }, table: "[flake8]" },
      root: "/repo",
    };
    const s = { ...settings(), native };
    const [app, test, broken, emoji, waived] = await engine.lintMany([
      file("app.py", "import os\n"),
      file("tests/test_app.py", "import os\n"),
      file("broken.py", "def f(:\n    pass\n"),
      file("emoji.py", 'x = "😀"  ;y = 1\n'),
      file("gen.py", "# flake8: noqa\nimport os\n"),
    ], s) as { diagnostics: { code: string; span: { start_col: number } }[] }[];
    assert.deepEqual(app.diagnostics.map((d) => d.code), ["F401"]);
    assert.deepEqual(test.diagnostics, [], "per-file-ignores matched against the file's path below setup.cfg");
    assert.ok(broken instanceof SourceSyntaxError);
    assert.equal((broken as SourceSyntaxError).diagnostics[0].code, "E999");
    // flake8 counts characters; poly's columns are UTF-16 code units (the emoji is two).
    assert.deepEqual(emoji.diagnostics.map((d) => [d.code, d.span.start_col]), [["E203", 10], ["E702", 11], [
      "E231",
      11,
    ]]);
    assert.deepEqual(waived.diagnostics, [], "a `# flake8: noqa` file is not counted as one flake8 passed over");
    const unhonoured = await engine.lintMany([file("a.py", "x = 1\n")], {
      ...s,
      native: { ...native, unhonoured: "bad" },
    });
    assert.ok(unhonoured[0] instanceof EngineError);
  },
});
