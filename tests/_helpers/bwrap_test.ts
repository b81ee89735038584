/**
 * The bubblewrap probe that decides whether the sandbox tests run: it says why
 * not when bwrap is missing or cannot start a sandbox, and the override forces "not".
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { probeBwrap } from "./bwrap.ts";
import { tempDir } from "./temp.ts";

const envOf = (values: Record<string, string>) => (name: string) => values[name];

Deno.test("probeBwrap() says bwrap is not on PATH when no PATH folder has it", async () => {
  const empty = await tempDir({ prefix: "poly-no-bwrap-" });
  const why = await probeBwrap(envOf({ PATH: empty }));
  assert.match(why ?? "", /^bubblewrap \(bwrap\) is not on PATH/);
});

Deno.test("probeBwrap() gives the first line bwrap printed when it cannot start a sandbox", async () => {
  const dir = await tempDir({ prefix: "poly-bad-bwrap-" });
  const fake = join(dir, "bwrap");
  await Deno.writeTextFile(fake, "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n");
  await Deno.chmod(fake, 0o755);
  const why = await probeBwrap(envOf({ PATH: dir }));
  assert.equal(why, `${fake} cannot start a sandbox here: bwrap: setting up uid map: Permission denied`);
});

Deno.test("probeBwrap() answers 'cannot' under POLY_TEST_NO_BWRAP=1, whatever PATH holds", async () => {
  assert.equal(
    await probeBwrap(envOf({ POLY_TEST_NO_BWRAP: "1", PATH: "/usr/bin:/bin" })),
    "POLY_TEST_NO_BWRAP=1 is set",
  );
});
