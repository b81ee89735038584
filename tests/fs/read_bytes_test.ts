import { deepEqual, throws } from "node:assert/strict";
import { join } from "node:path";
import { readBytesSync, SMALL } from "../../lib/fs/read_bytes.ts";
import { tempDir } from "../_helpers/temp.ts";

function bytes(n: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 7 + 3) & 0xff;
  return out;
}

Deno.test("readBytesSync(): a file of any size whole, with or without its size from a stat", async () => {
  const dir = await tempDir();
  for (const n of [0, 1, SMALL - 1, SMALL, SMALL + 1, 3 * 1024 * 1024 + 5]) {
    const path = join(dir, `f${n}`);
    Deno.writeFileSync(path, bytes(n));
    deepEqual(readBytesSync(path), bytes(n), `${n} bytes`);
    deepEqual(readBytesSync(path, n), bytes(n), `${n} bytes, size given`);
    deepEqual(readBytesSync(new URL(`file://${path}`)), bytes(n), `${n} bytes, by URL`);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("readBytesSync(): a file that grew or shrank since its stat is read as it is now", async () => {
  const dir = await tempDir();
  const path = join(dir, "f");
  Deno.writeFileSync(path, bytes(3 * SMALL));
  deepEqual(readBytesSync(path, SMALL), bytes(3 * SMALL), "grew: the buffer grows");
  deepEqual(readBytesSync(path, 10 * SMALL), bytes(3 * SMALL), "shrank: what is there");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("readBytesSync(): a missing file throws NotFound, as Deno.readFileSync does", async () => {
  const dir = await tempDir();
  throws(() => readBytesSync(join(dir, "gone")), Deno.errors.NotFound);
  throws(() => readBytesSync(join(dir, "gone"), 10 * SMALL), Deno.errors.NotFound);
  await Deno.remove(dir, { recursive: true });
});
