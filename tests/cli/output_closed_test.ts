/**
 * A closed stdout (`poly lint | head -1`, a pager quit early) ends poly quietly, as
 * ruff and ripgrep do: no `internal error`, no stack trace, exit 0. Each command that
 * prints is run for real with the reading end of its stdout closed before it writes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyFixture, runPoly, runPolyClosedStdout } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";

const CASES: { name: string; args: string[] }[] = [
  { name: "lint (human)", args: ["lint", "--no-workspace", "--no-cache"] },
  { name: "lint --format json", args: ["lint", "--no-workspace", "--no-cache", "--format", "json"] },
  { name: "fmt --check", args: ["fmt", "--check", "--no-cache"] },
  { name: "fmt --check --format json", args: ["fmt", "--check", "--no-cache", "--format", "json"] },
  { name: "engines", args: ["engines"] },
  { name: "dash --once", args: ["dash", "--once"] },
  { name: "--version", args: ["--version"] },
  { name: "--help", args: ["--help"] },
];

for (const { name, args } of CASES) {
  Deno.test(`main(): poly ${name} into a closed pipe exits 0 and says nothing`, async () => {
    const dir = await copyFixture("e2e/findings");
    const { code, stderr } = await runPolyClosedStdout(args, { cwd: dir });
    assert.equal(stderr, "", `poly ${name} printed on stderr`);
    assert.equal(code, 0);
  });
}

Deno.test("main(): poly lint served by a poly daemon, into a closed pipe, exits 0 and says nothing", async () => {
  const base = await Deno.realPath(await tempDir({ prefix: "poly-closed-daemon-" }));
  const dir = join(base, "repo");
  await Deno.mkdir(join(dir, ".git"), { recursive: true });
  await Deno.writeTextFile(join(dir, "bad.py"), "import os\n");
  const env = { POLY_CACHE_HOME: join(base, "cache"), POLY_STATE_HOME: join(base, "state") };
  const started = await runPoly(["daemon", "start"], { cwd: dir, env });
  assert.equal(started.code, 0, started.stderr);
  try {
    const { code, stderr } = await runPolyClosedStdout(["lint", "--no-workspace"], { cwd: dir, env });
    assert.equal(stderr, "");
    assert.equal(code, 0);
    const status = JSON.parse((await runPoly(["daemon", "status", "--format", "json"], { cwd: dir, env })).stdout);
    assert.equal(status.daemons[0].runs, 1, "the daemon served the run");
  } finally {
    await runPoly(["daemon", "stop", dir], { cwd: dir, env });
  }
});
