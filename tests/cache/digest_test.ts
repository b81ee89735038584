import { equal, throws } from "node:assert/strict";
import { join } from "node:path";
import { digestOf, fileDigestSync } from "../../lib/cache/digest.ts";
import { tempDir } from "../_helpers/temp.ts";

Deno.test("fileDigestSync() is the digest of the file's bytes, across its buffer's edges", async () => {
  const dir = await tempDir();
  const MiB = 1 << 20;
  for (const size of [0, 1, 4095, MiB - 1, MiB, MiB + 1, 3 * MiB + 17]) {
    const bytes = new Uint8Array(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 11)) & 0xff;
    const path = join(dir, `f${size}`);
    await Deno.writeFile(path, bytes);
    equal(fileDigestSync(path), digestOf(bytes), `${size} bytes`);
  }
  // The one buffer is reused: a second file after a larger one is not mixed with its leftovers.
  const small = join(dir, "small");
  await Deno.writeTextFile(small, "abc");
  equal(fileDigestSync(small), digestOf("abc"));
  throws(() => fileDigestSync(join(dir, "absent")), Deno.errors.NotFound);
});
