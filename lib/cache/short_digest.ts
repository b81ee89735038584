/**
 * SHA-256 through WebCrypto, for the modules that run before Deno's Node layer
 * is started (a replay's key, the bundle main.ts chooses): lib/cache/digest.ts
 * uses `node:crypto`, whose import would start that layer (~40 ms). A leaf module.
 *
 * @module
 */

/** The first 32 lower-case hex digits of SHA-256 over `text`'s UTF-8 bytes. */
export async function shortDigest(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}
