import assert from "node:assert/strict";
import { join } from "node:path";
import { runPoly } from "../_helpers/cli.ts";

async function project(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "poly-timing-" });
  await Deno.mkdir(join(dir, ".git"));
  await Deno.writeTextFile(join(dir, "a.ts"), "export const a = 1;\n");
  return dir;
}

Deno.test("POLY_DEBUG=timing makes poly lint print where its wall time went on stderr", async () => {
  const dir = await project();
  const run = await runPoly(["lint", "--no-workspace", "--format", "json", "."], {
    cwd: dir,
    env: { POLY_DEBUG: "timing" },
  });
  assert.equal(run.code, 0, run.stderr);
  JSON.parse(run.stdout); // stdout stays one document
  assert.match(run.stderr, /^poly timing \(ms since the process's clock started\):$/m);
  for (const name of ["main", "command line", "config", "discovery", "plan", "files", "report", "exit"]) {
    assert.match(run.stderr, new RegExp(`^  ${name} +[\\d.]+`, "m"), `no "${name}" row in:\n${run.stderr}`);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("poly lint prints no timing table without POLY_DEBUG=timing", async () => {
  const dir = await project();
  const run = await runPoly(["lint", "--no-workspace", "--format", "json", "."], { cwd: dir, env: { POLY_DEBUG: "" } });
  assert.equal(run.code, 0, run.stderr);
  assert.doesNotMatch(run.stderr, /poly timing/);
  await Deno.remove(dir, { recursive: true });
});
