import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigFinder } from "../../lib/config/_walk.ts";

/** Whether `promise` settles within a few microtask turns, that is without waiting on I/O (a macrotask). */
async function settledAtOnce(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(() => settled = true, () => settled = true);
  for (let i = 0; i < 3; i++) await null;
  return settled;
}

Deno.test("kind() answers file, dir and missing without waiting on asynchronous I/O", async () => {
  const dir = await Deno.makeTempDir({ prefix: "poly-walk-" });
  await Deno.writeTextFile(join(dir, "poly.toml"), "");
  const finder = new ConfigFinder(dir);
  const probes = [join(dir, "poly.toml"), dir, join(dir, "missing.toml"), join(dir, "poly.toml", "below")];
  const answers = probes.map((p) => finder.kind(p));
  for (const [i, answer] of answers.entries()) assert.ok(await settledAtOnce(answer), `${probes[i]} waited on I/O`);
  assert.deepEqual(await Promise.all(answers), ["file", "dir", undefined, undefined]);
  await Deno.remove(dir, { recursive: true });
});
