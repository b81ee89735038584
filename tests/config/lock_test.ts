import { assertEquals } from "./_assert.ts";
import { join } from "node:path";
import { LOCK_FILE, renderLock } from "../../lib/config/mod.ts";
import { checkoutDir, findLockEntry, readLock } from "../../lib/config/lock.ts";
import { makeTree } from "./_tree.ts";

const A = "a".repeat(40);
const B = "b".repeat(40);

Deno.test("renderLock() and readLock() round-trip, sorted by repository", async () => {
  const entries = [
    { git: "https://z.example/style.git", commit: A },
    { git: "https://a.example/style.git", revision: "v2", commit: B },
  ];
  const root = await makeTree({ [LOCK_FILE]: renderLock(entries) });
  const read = await readLock(root, (p) => p);
  assertEquals(read, [entries[1], entries[0]]);
  assertEquals(findLockEntry(read!, "https://a.example/style.git", "v2")?.commit, B);
  assertEquals(findLockEntry(read!, "https://a.example/style.git"), undefined, "a revision must match exactly");
});

Deno.test("readLock() returns undefined when there is no lock", async () => {
  assertEquals(await readLock(await makeTree({}), (p) => p), undefined);
});

Deno.test("checkoutDir() is keyed by commit under the cache home", () => {
  const dir = checkoutDir(A);
  assertEquals(dir.endsWith(join("config-bases", A)), true);
});
