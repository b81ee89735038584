/**
 * Files biome declines by its own rules, named before it is asked: its
 * workspace ignores a file over `files.maxSize` (1 MiB of UTF-8 by default)
 * ("The file … was ignored") and refuses any file under `node_modules/` ("The
 * file … does not exist in the workspace"; `biome lint` says "provided but
 * ignored"), and through the js-api either answer is an error with an empty
 * message. poly skips such a file with the reason (and what raises the limit),
 * as biome's command line skips it; it is never an errored record.
 *
 * @module
 */
import { EngineRefusal, type SourceFile } from "./types.ts";

/** biome's default `files.maxSize`, in bytes. */
export const BIOME_MAX_SIZE = 1024 * 1024;

/** The `files.maxSize` of a biome configuration object (biome's default when unset). */
export function maxSizeOf(configuration: Record<string, unknown>): number {
  const files = configuration.files as { maxSize?: unknown } | undefined;
  return typeof files?.maxSize === "number" && files.maxSize > 0 ? files.maxSize : BIOME_MAX_SIZE;
}

/**
 * Throws the skip of `file` when biome would refuse it: under `node_modules/`,
 * or its text over `configuration`'s `files.maxSize` (`kind` names the table
 * that raises it).
 * Cheap for the usual file: its UTF-8 size is counted only when its length
 * leaves the answer open.
 */
export function refusedByBiome(file: SourceFile, configuration: Record<string, unknown>, kind: "lint" | "fmt"): void {
  if (/(^|\/)node_modules\//.test(file.relPath.replaceAll("\\", "/"))) {
    throw new EngineRefusal("biome ignores this file: it never checks files under node_modules/");
  }
  const max = maxSizeOf(configuration);
  // A UTF-16 unit is 1 to 3 UTF-8 bytes.
  if (file.text.length * 3 <= max) return;
  const bytes = new TextEncoder().encode(file.text).length;
  if (bytes <= max) return;
  throw new EngineRefusal(
    `biome: the file is ${bytes} bytes, over biome's files.maxSize (${max} bytes), so biome ignores it; ` +
      `raise it with configuration = { files = { maxSize = N } } in [${kind}.${file.language}.biome]`,
  );
}
