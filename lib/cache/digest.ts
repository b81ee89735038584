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
