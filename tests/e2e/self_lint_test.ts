/**
 * poly lints itself clean: `poly lint` and `poly fmt --check` at the root of this
 * repository exit 0 under the repository's own poly.toml (.ci/run runs the same
 * two commands before the test suite).
 */
import assert from "node:assert/strict";
import { REPO, runPoly } from "../_helpers/cli.ts";

Deno.test("poly lint exits 0 at the root of poly's own repository", async () => {
  const { code, stdout, stderr } = await runPoly(["lint", "--no-cache", "--color", "never"], { cwd: REPO });
  assert.equal(
    code,
    0,
    `poly lint found errors in poly's own code (fix them or say why in poly.toml):\n${stdout}${stderr}`,
  );
  assert.match(stdout, /\d+ files checked, \d+ skipped, 0 errored/);
});

Deno.test("poly fmt --check exits 0 at the root of poly's own repository", async () => {
  const { code, stdout, stderr } = await runPoly(["fmt", "--check", "--no-cache", "--color", "never"], { cwd: REPO });
  assert.equal(code, 0, `poly fmt --check wants to reformat poly's own files (run poly fmt):\n${stdout}${stderr}`);
  assert.match(stdout, /\d+ files checked, \d+ skipped, 0 errored: all files already formatted/);
});
