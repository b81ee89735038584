/**
 * Running one engine step through the result cache: the one call the run
 * pipeline makes per (file, engine). Errors are never cached (an EngineError is
 * an errored record every time; an absent host tool may be installed later), and
 * engines whose result depends on more than the file are never cached.
 *
 * @example
 * ```ts
 * const out = await throughCache(cache, "lint", spec, file, settings, () => engine.lint!(file, settings));
 * const text = await throughCache(cache, "fmt", spec, file, settings, () => engine.format!(file, settings));
 * ```
 *
 * @module
 */
import type { EngineSettings, EngineSpec, SourceFile } from "../engines/types.ts";
import { engineCacheVersion } from "../identity/engines.ts";
import type { ResultCache } from "./db.ts";
import { cacheKey, type Namespace } from "./key.ts";

/**
 * Engines whose results must not be cached per file: go vet checks a whole
 * package, so a finding in one file can change when a sibling file does.
 */
export const UNCACHEABLE: ReadonlySet<string> = new Set(["govet"]);

/** Returns the cached result of `compute` for this file, engine and settings, or computes and stores it. */
export async function throughCache<T>(
  cache: ResultCache,
  namespace: Namespace,
  spec: EngineSpec,
  file: SourceFile,
  settings: EngineSettings,
  compute: () => Promise<T> | T,
): Promise<T> {
  if (!cache.enabled || UNCACHEABLE.has(spec.id)) return await compute();
  const key = await cacheKey({
    namespace,
    engine: spec.id,
    engineVersion: await engineCacheVersion(spec),
    settings: spec.cacheSalt ? { ...settings, salt: await spec.cacheSalt(settings) } : settings,
    path: file.relPath,
    content: file.text,
    ...(cache.build ? { build: cache.build } : {}),
  });
  const hit = cache.get<T>(namespace, key);
  if (hit !== undefined) return hit;
  const value = await compute();
  cache.set(namespace, key, value);
  return value;
}
