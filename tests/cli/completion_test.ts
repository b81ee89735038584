/**
 * Shell completion completes file names where an argument is a path (the bash
 * script turns a `__FILE__` line into the shell's own file completion).
 */
import assert from "node:assert/strict";
import { runPoly } from "../_helpers/cli.ts";

Deno.test("poly completion offers file names for path arguments and directories for DIR", async () => {
  const paths = await runPoly(["completion", "bash", "lint", "b"]);
  assert.equal(paths.code, 0, paths.stderr);
  assert.match(paths.stdout, /^__FILE__:any::b:0$/m);
  const config = await runPoly(["completion", "bash", "fmt", "--config", "po"]);
  assert.match(config.stdout, /^__FILE__:any::po:0$/m);
  const dir = await runPoly(["completion", "bash", "config", "show", ""]);
  assert.match(dir.stdout, /^__FILE__:directory:::0$/m);
});
