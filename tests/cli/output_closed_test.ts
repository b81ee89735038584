/**
 * A closed stdout (`poly lint | head -1`, a pager quit early) ends poly quietly, as
 * ruff and ripgrep do: no `internal error`, no stack trace, exit 0. Each command that
 * prints is run for real with the reading end of its stdout closed before it writes.
 */
import assert from "node:assert/strict";
import { copyFixture, runPolyClosedStdout } from "../_helpers/cli.ts";

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
