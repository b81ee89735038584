/**
 * The one digest poly makes: SHA-256 from the platform (`node:crypto`, native and synchronous), as lower-case hex.
 * File contents, cache keys, fingerprints, engine identities, gateway catalogs, token hashes and shard assignment all
 * use it. A leaf module: whatever hashes imports nothing else with it.
 *
 * @module
 */
import { createHash } from "node:crypto";

/** SHA-256 hex of one value (a string is hashed as its UTF-8 bytes). */
export function digestOf(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** The size of the one buffer {@link fileDigestSync} reads through. */
const CHUNK = 1 << 20;
let chunk: Uint8Array<ArrayBuffer> | undefined;

/**
 * SHA-256 hex of a file's bytes, read through one reused 1 MiB buffer. A large file read whole lands in fresh memory,
 * whose pages the kernel fills at 2–4 ms per MB: the engines' 110 MB of modules took ~560 ms that way against ~95 ms
 * through the buffer (the hash itself ~75 ms). Throws as `Deno.openSync` does (`NotFound`, ...).
 */
export function fileDigestSync(path: string | URL): string {
  const hash = createHash("sha256");
  chunk ??= new Uint8Array(CHUNK);
  using file = Deno.openSync(path);
  while (true) {
    const n = file.readSync(chunk);
    if (n === null) break;
    hash.update(chunk.subarray(0, n));
  }
  return hash.digest("hex");
}
