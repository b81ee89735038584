/**
 * Result-cache keys. A key is SHA-256 over a prefix, the file's path relative to
 * the run (engines read it: `.tsx` versus `.ts`, `__init__.py`, a shell dialect)
 * and SHA-256 of the file bytes; the prefix is SHA-256 over, in order: the cache
 * format version, the build identity, the namespace, the engine id, the engine
 * version and the canonical JSON of the resolved engine settings. The prefix is
 * the same for every file a run hands one engine with one configuration, so a run
 * computes it once ({@link keyPrefix}) and then only hashes each file
 * ({@link keyFor}).
 * Any change to any part — a byte of the file, a config key, an engine upgrade,
 * a new poly build — yields a different key, so an old result is never served.
 *
 * @example
 * ```ts
 * const key = await cacheKey({
 *   namespace: "lint", engine: "ruff", engineVersion: "0.17.3#9f2c…",
 *   settings: { defaults: { line_length: 120 }, tool: {} }, path: "app/x.py", content: "x = 1\n",
 * });
 * ```
 *
 * @module
 */
import { digestOf } from "./digest.ts";
import { fingerprintJson } from "../config/fingerprint.ts";
import { relocated } from "./relocate.ts";
import type { Namespace } from "./types.ts";

/** Bump when what is stored or how keys are made changes: older databases are rebuilt. */
export const CACHE_FORMAT = 2;

export { type Namespace, NAMESPACES } from "./types.ts";

/** The parts of one key. */
export interface CacheKeyParts {
  namespace: Namespace;
  /** Engine id ("ruff"). */
  engine: string;
  /** Engine version as {@link engineCacheVersion} gives it (upstream version and module digest, or host tool version). */
  engineVersion: string;
  /** The resolved EngineSettings (plain JSON). */
  settings: unknown;
  /** The file's path as the engine sees it (`SourceFile.relPath`). */
  path: string;
  /** The file's bytes (or its text, hashed as UTF-8). */
  content: string | Uint8Array;
  /** Build identity; defaults to {@link buildIdentity}(). */
  build?: string;
  /**
   * The repository anchor: the settings name it, and paths below it, relative to it
   * ({@link relocated}), so that two checkouts of one repository make the same keys.
   */
  anchor?: string;
}

/** The parts of a key that do not depend on the file. */
export type KeyPrefixParts = Omit<CacheKeyParts, "path" | "content">;

/** The file-independent part of a key (64 hex digits). */
export async function keyPrefix(parts: KeyPrefixParts): Promise<string> {
  const build = parts.build ?? await (await import("./build.ts")).buildIdentity();
  const fields = [
    String(CACHE_FORMAT),
    build,
    parts.namespace,
    parts.engine,
    parts.engineVersion,
    relocated(fingerprintJson(parts.settings), parts.anchor),
  ];
  return digestOf(JSON.stringify(fields));
}

/** The key of one file under a {@link keyPrefix}, from the file's path and the digest of its bytes. */
export function keyFor(prefix: string, path: string, contentDigest: string): string {
  return digestOf(`${prefix}\0${path}\0${contentDigest}`);
}

/** The cache key for `parts` (64 hex digits). */
export async function cacheKey(parts: CacheKeyParts): Promise<string> {
  const prefix = await keyPrefix(parts);
  return keyFor(prefix, parts.path, digestOf(parts.content));
}
