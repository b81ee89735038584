import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../lib/cache/_sqlite.ts";
import { tempDir } from "../_helpers/temp.ts";

Deno.test("openDatabase() opens the result cache in WAL mode without fsync (closing it syncs nothing)", async () => {
  const dir = await tempDir({ prefix: "poly-sqlite-" });
  const db = openDatabase(join(dir, "cache.db"));
  try {
    assert.equal((db.prepare("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode, "wal");
    // 0 = OFF: a checkpoint (every close of the last connection) does not wait on the disk.
    assert.equal((db.prepare("PRAGMA synchronous").get() as { synchronous: number }).synchronous, 0);
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});
