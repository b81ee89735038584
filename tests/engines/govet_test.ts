import { equal } from "node:assert/strict";
import { basename, join } from "node:path";
import { assertGolden, copyFixture } from "../_helpers/cli.ts";
import { govet, parseVetOutput } from "../../lib/engines/govet.ts";
import type { SourceFile } from "../../lib/engines/types.ts";
import { diagnosticsJson, engineError, GOLDEN, missing, settings } from "./_harness.ts";

const absent = await missing("go", "govet engine tests");

async function goFile(dir: string, name: string): Promise<SourceFile> {
  const path = join(dir, name);
  return { path, relPath: basename(path), language: "go", text: await Deno.readTextFile(path) };
}

Deno.test({
  name: "govet lint() matches the golden diagnostics, per file of the package",
  ignore: absent,
  async fn() {
    const dir = await copyFixture("engines/govet/bad");
    const engine = await govet.load();
    const main = await engine.lint!(await goFile(dir, "main.go"), settings());
    const helper = await engine.lint!(await goFile(dir, "helper.go"), settings());
    await assertGolden(join(GOLDEN, "govet", "main.go.json"), diagnosticsJson(main.diagnostics));
    await assertGolden(join(GOLDEN, "govet", "helper.go.json"), diagnosticsJson(helper.diagnostics));
  },
});

Deno.test({
  name: "govet lint() throws EngineError with line and column when the package does not compile",
  ignore: absent,
  async fn() {
    const dir = await copyFixture("engines/govet/broken");
    const file = await goFile(dir, "main.go");
    const error = await engineError(async () => await (await govet.load()).lint!(file, settings()));
    equal(error.line, 4);
    equal(error.column, 17);
  },
});

Deno.test("parseVetOutput() reads findings and compile errors", () => {
  const stderr = [
    "# command-line-arguments",
    "{",
    '\t"command-line-arguments": {',
    '\t\t"printf": [{"posn": "/x/a.go:6:2", "message": "bad format"}]',
    "\t}",
    "}",
  ].join("\n");
  const parsed = parseVetOutput(stderr, "/x");
  equal(parsed.findings.length, 1);
  equal(parsed.findings[0].analyzer, "printf");
  const broken = parseVetOutput("# pkg\nvet: ./a.go:4:17: cannot use 1\n", "/x");
  equal(broken.failure?.file, "/x/a.go");
  equal(broken.failure?.line, 4);
});
