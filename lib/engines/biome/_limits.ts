/**
 * Files biome declines by its own rules, named before it is asked: its
 * workspace ignores a file over `files.maxSize` (1 MiB of UTF-8 by default)
 * ("The file … was ignored") and refuses any file under `node_modules/` ("The
 * file … does not exist in the workspace"; `biome lint` says "provided but
 * ignored"), and through the js-api either answer is an error with an empty
 * message. Lock files it protects (`package-lock.json`, ...) it never processes.
 * poly skips such a file with the reason (and what raises the limit),
 * as biome's command line skips it; it is never an errored record.
 *
 * @module
 */
import { EngineRefusal, type SourceFile } from "../types.ts";

/**
 * Files biome's workspace protects, "because is handled by another tool": the
 * package managers' lock files (biome 2.5, `biome format --verbose`).
 */
export const PROTECTED_FILES: ReadonlySet<string> = new Set([
  "package-lock.json",
  "npm-shrinkwrap.json",
  "composer.lock",
  "yarn.lock",
]);

/**
 * Whether biome declines a file by its path (`relPath`, below the run's root):
 * under `node_modules/`, or a lock file it protects. Its command line lints such
 * a file when it is named on it, but never when it walks a repository
 * (`biome lint .`): poly takes the walk's answer on both of its paths.
 */
export function declinedByBiome(relPath: string): "node_modules" | "protected" | undefined {
  const path = relPath.replaceAll("\\", "/");
  if (/(^|\/)node_modules\//.test(path)) return "node_modules";
  if (PROTECTED_FILES.has(path.slice(path.lastIndexOf("/") + 1))) return "protected";
  return undefined;
}

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
  const declined = declinedByBiome(file.relPath);
  if (declined === "node_modules") {
    throw new EngineRefusal("biome ignores this file: it never checks files under node_modules/");
  }
  if (declined === "protected") {
    throw new EngineRefusal("biome does not process this file: it is protected because another tool handles it");
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
