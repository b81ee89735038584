/**
 * What a person reads from the real `poly lint`: `--statistics`, `--max-diagnostics`
 * and `--color`, against golden files.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertGolden, copyFixture, REPO, runPoly } from "../_helpers/cli.ts";

const GOLDEN = join(REPO, "tests", "e2e", "golden");
// deno-lint-ignore no-control-regex
const ESCAPE = /\x1b\[/;

async function lint(args: string[], env: Record<string, string> = {}) {
  const dir = await copyFixture("e2e/findings");
  return await runPoly(["lint", "--no-workspace", "--no-cache", ...args], { cwd: dir, env });
}

Deno.test("poly lint --statistics counts findings per rule instead of listing them (golden)", async () => {
  const { code, stdout, stderr } = await lint(["--statistics"]);
  assert.equal(code, 1, stderr);
  await assertGolden(join(GOLDEN, "lint_findings.statistics"), stdout);
});

Deno.test("poly lint --max-diagnostics 1 lists one finding and counts the rest (golden)", async () => {
  const { code, stdout, stderr } = await lint(["--max-diagnostics", "1"]);
  assert.equal(code, 1, stderr);
  await assertGolden(join(GOLDEN, "lint_findings.max1"), stdout);
});

Deno.test("poly lint --color always|never, FORCE_COLOR and NO_COLOR decide the human report's colour", async () => {
  const cases: [string[], Record<string, string>, boolean][] = [
    [[], { NO_COLOR: "1" }, false], // a pipe, NO_COLOR: plain
    [[], { NO_COLOR: "" }, false], // a pipe: plain
    [["--color", "always"], { NO_COLOR: "1" }, true],
    [[], { NO_COLOR: "", FORCE_COLOR: "1" }, true],
    [[], { NO_COLOR: "1", FORCE_COLOR: "1" }, true], // FORCE_COLOR wins, as for optique's help
    [[], { FORCE_COLOR: "0", NO_COLOR: "" }, false],
    [["--color", "never"], { NO_COLOR: "", FORCE_COLOR: "1" }, false],
  ];
  for (const [args, env, coloured] of cases) {
    const { stdout } = await lint(args, env);
    assert.equal(ESCAPE.test(stdout), coloured, `${args.join(" ")} ${JSON.stringify(env)}`);
  }
});

Deno.test("poly lint --color rejects a value it does not know, suggesting nothing it cannot do", async () => {
  const { code, stderr } = await lint(["--color", "sometimes"]);
  assert.equal(code, 2);
  assert.match(stderr, /^error: .*--color/);
});
