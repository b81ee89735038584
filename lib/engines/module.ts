/**
 * Finding the files whose bytes are an in-process engine: its JS glue and its
 * WebAssembly module, located beside the package's resolved entry point.
 *
 * @module
 */
import { fileURLToPath } from "node:url";

/**
 * URLs of `names` in the directory of a resolved package entry.
 *
 * @example
 * ```ts
 * siblingUrls(import.meta.resolve("@wasm-fmt/gofmt"), ["gofmt.js", "gofmt.wasm"]);
 * ```
 */
export function siblingUrls(entryUrl: string, names: readonly string[]): string[] {
  return names.map((name) => new URL(name, entryUrl).href);
}

/** Reads the bytes of a file URL (a wasm module shipped in an npm package). */
export function readUrlBytes(url: string): Promise<Uint8Array<ArrayBuffer>> {
  return Deno.readFile(fileURLToPath(url));
}

/**
 * Message of any thrown value. A wrapper with an empty message gives the one it
 * wraps: biome's js-api throws a `WasmError` whose message is empty and whose
 * `stackTrace` is biome's own error; an Error's `cause` likewise.
 */
export function messageOf(error: unknown, depth = 0): string {
  const message = error instanceof Error ? error.message : String(error);
  if (message.trim() || depth > 3 || error === null || typeof error !== "object") return message;
  for (const inner of [(error as { stackTrace?: unknown }).stackTrace, (error as { cause?: unknown }).cause]) {
    if (inner !== undefined && inner !== error) {
      const found = messageOf(inner, depth + 1).replace(/^(?:Error: )+/, "");
      if (found.trim()) return found;
    }
  }
  return message;
}

/**
 * URLs of every file under the directory of a resolved package entry whose name
 * ends with one of `exts` (recursively, sorted): the code of a pure-JavaScript
 * engine, hashed into its identity digest.
 */
export async function packageFiles(entryUrl: string, exts: readonly string[]): Promise<string[]> {
  const root = new URL(".", entryUrl);
  const out: string[] = [];
  // Synchronous: a package holds hundreds of files, and this runs on every start.
  const walk = (dir: URL) => {
    for (const e of Deno.readDirSync(dir)) {
      const url = new URL(e.name + (e.isDirectory ? "/" : ""), dir);
      if (e.isDirectory) walk(url);
      else if (exts.some((x) => e.name.endsWith(x))) out.push(url.href);
    }
  };
  walk(root);
  return await Promise.resolve(out.sort());
}
