/** The real `poly fmt` process: check, fix, idempotence, exit codes. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyFixture, runPoly } from "../_helpers/cli.ts";
import { validateReport } from "../_helpers/report_schema.ts";

Deno.test("poly fmt --check reports drift (exit 1) without writing", async () => {
  const dir = await copyFixture("e2e/findings");
  const before = await Deno.readTextFile(join(dir, "bad.ts"));
  await Deno.writeTextFile(join(dir, "ugly.ts"), "export const x = {a:1}\n");
  const { code, stdout } = await runPoly(["fmt", "--format", "json"], { cwd: dir });
  assert.equal(code, 1);
  const doc = JSON.parse(stdout);
  assert.deepEqual(validateReport(doc), []);
  assert.deepEqual(doc.results.map((r: { path: string }) => r.path), ["ugly.ts"]);
  assert.equal(doc.results[0].changed, true);
  assert.equal(await Deno.readTextFile(join(dir, "bad.ts")), before);
  assert.equal(await Deno.readTextFile(join(dir, "ugly.ts")), "export const x = {a:1}\n");
});

Deno.test("poly fmt --fix rewrites, then a second run changes nothing (format twice = once)", async () => {
  const dir = await copyFixture("e2e/findings");
  await Deno.writeTextFile(join(dir, "ugly.ts"), "export const x = {a:1}\n");
  await Deno.writeTextFile(join(dir, "ugly.py"), "x = {'a':1}\n");
  const first = await runPoly(["fmt", "--fix", "--format", "json"], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(JSON.parse(first.stdout).summary.changed, 2);
  assert.equal(await Deno.readTextFile(join(dir, "ugly.ts")), "export const x = { a: 1 };\n");
  assert.equal(await Deno.readTextFile(join(dir, "ugly.py")), 'x = {"a": 1}\n');
  const second = await runPoly(["fmt", "--format", "json"], { cwd: dir });
  assert.equal(second.code, 0);
  assert.equal(JSON.parse(second.stdout).summary.changed, 0);
});

Deno.test("poly fmt preserves the file mode when it rewrites", async () => {
  const dir = await copyFixture("e2e/findings");
  const path = join(dir, "tool.py");
  await Deno.writeTextFile(path, "x = {'a':1}\n");
  await Deno.chmod(path, 0o755);
  await runPoly(["fmt", "--fix"], { cwd: dir });
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o755);
});

Deno.test("poly fmt on a syntax error reports it as a diagnostic (exit 1), and the file is untouched", async () => {
  const dir = await copyFixture("e2e/broken");
  const { code, stdout } = await runPoly(["fmt", "--fix", "--format", "json"], { cwd: dir });
  assert.equal(code, 1);
  const doc = JSON.parse(stdout);
  assert.deepEqual(doc.errors, []);
  const record = doc.results.find((r: { path: string }) => r.path === "syntax.py");
  assert.equal(record.diagnostics[0].code, "invalid-syntax");
  assert.equal(record.diagnostics[0].severity, "error");
  assert.equal(await Deno.readTextFile(join(dir, "syntax.py")), "def broken(:\n    pass\n");
});
