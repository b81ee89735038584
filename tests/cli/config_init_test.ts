/**
 * `poly config init` names only a rule folder that exists.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runPoly } from "../_helpers/cli.ts";
import { parseConfigText } from "../../lib/config/mod.ts";
import { tempDir } from "../_helpers/temp.ts";

Deno.test("poly config init leaves [rules] dirs a comment when .poly/rules does not exist", async () => {
  const dir = await tempDir({ prefix: "poly-init-" });
  const run = await runPoly(["config", "init"], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const text = await Deno.readTextFile(join(dir, "poly.toml"));
  assert.doesNotMatch(text, /^dirs = /m, "no rule folder that is not there");
  assert.match(text, /^# dirs = \[".poly\/rules"\]$/m);
  assert.equal(
    (parseConfigText(text, join(dir, "poly.toml")).raw.rules as { dirs?: string[] } | undefined)?.dirs,
    undefined,
  );
});

Deno.test("poly config init names .poly/rules when it exists", async () => {
  const dir = await tempDir({ prefix: "poly-init-" });
  await Deno.mkdir(join(dir, ".poly", "rules"), { recursive: true });
  const run = await runPoly(["config", "init"], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const text = await Deno.readTextFile(join(dir, "poly.toml"));
  assert.match(text, /^dirs = \[".poly\/rules"\]$/m);
  assert.deepEqual((parseConfigText(text, join(dir, "poly.toml")).raw.rules as { dirs?: string[] } | undefined)?.dirs, [
    ".poly/rules",
  ]);
  const show = await runPoly(["config", "show", "--format", "json"], { cwd: dir });
  assert.equal(show.code, 0, show.stderr);
});
