import assert from "node:assert/strict";
import { join } from "node:path";
import { NativeFiles } from "../../../lib/config/native/_files.ts";

/** Whether `promise` settles within a few microtask turns, that is without waiting on I/O (a macrotask). */
async function settledAtOnce(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(() => settled = true, () => settled = true);
  for (let i = 0; i < 3; i++) await null;
  return settled;
}

Deno.test("namesIn() lists a directory's native config names without waiting on asynchronous I/O", async () => {
  const dir = await Deno.makeTempDir({ prefix: "poly-native-files-" });
  await Deno.writeTextFile(join(dir, "biome.json"), "{}");
  await Deno.writeTextFile(join(dir, "pyproject.toml"), "");
  await Deno.writeTextFile(join(dir, "other.txt"), "");
  await Deno.mkdir(join(dir, ".editorconfig")); // a directory by a native name is not a config file
  const files = new NativeFiles();
  const names = files.namesIn(dir);
  const missing = files.namesIn(join(dir, "missing"));
  assert.ok(await settledAtOnce(names), "the listing waited on I/O");
  assert.deepEqual([...await names].sort(), ["biome.json", "pyproject.toml"]);
  assert.deepEqual([...await missing], []);
  assert.equal(files.namesIn(dir), names, "listed once per run");
  await Deno.remove(dir, { recursive: true });
});
