/**
 * Running one engine step through the result cache: the one call the run
 * pipeline makes per (file, engine). Deterministic outcomes are cached like
 * findings: a syntax error in the file ({@link SourceSyntaxError}), an
 * engine's refusal of it ({@link EngineRefusal}) and a crash a new instance of
 * the engine's module repeated ({@link EngineCrash}) are stored as
 * {@link StoredVerdict}s and thrown again on a hit. Failures are never cached
 * (a crash seen once, an absent host tool that may be installed later, a
 * missing network, a toolchain too old). An engine whose result depends on more than
 * the file adds that to the file's key (`EngineSpec.cacheContext`).
 *
 * @example
 * ```ts
 * const out = await throughCache(cache, "lint", spec, file, settings, () => engine.lint!(file, settings));
 * const text = await throughCache(cache, "fmt", spec, file, settings, () => engine.format!(file, settings));
 * ```
 *
 * @module
 */
import {
  EngineCrash,
  EngineRefusal,
  type EngineSettings,
  type EngineSpec,
  type SourceFile,
  SourceSyntaxError,
} from "../engines/types.ts";
import type { Diagnostic } from "../report/schema.ts";
import { engineCacheVersion } from "../identity/engines.ts";
import type { ResultCache } from "./db.ts";
import { keyFor, keyPrefix, type Namespace } from "./key.ts";
import { digestOf } from "./digest.ts";
import { fingerprintJson } from "../config/fingerprint.ts";
import { relocated } from "./relocate.ts";

/** A deterministic outcome that is not a value, as the cache stores it (see the module doc). */
export type StoredVerdict =
  | { poly_verdict: "syntax"; diagnostics: [Diagnostic, ...Diagnostic[]] }
  | { poly_verdict: "refused"; reason: string }
  | { poly_verdict: "crashed"; engine: string; detail: string };

/** The stored form of a thrown error, when it is a deterministic outcome; undefined for a failure. */
export function verdictOf(error: unknown): StoredVerdict | undefined {
  if (error instanceof SourceSyntaxError) {
    return { poly_verdict: "syntax", diagnostics: error.diagnostics as [Diagnostic, ...Diagnostic[]] };
  }
  if (error instanceof EngineRefusal) return { poly_verdict: "refused", reason: error.message };
  if (error instanceof EngineCrash && error.repeated) {
    return { poly_verdict: "crashed", engine: error.engine, detail: error.detail };
  }
  return undefined;
}

/** A cached (or batch) value as the engine gave it: throws the error a {@link StoredVerdict} stands for. */
export function fromStored<T>(value: unknown): T {
  if (value !== null && typeof value === "object" && "poly_verdict" in value) {
    const verdict = value as StoredVerdict;
    if (verdict.poly_verdict === "syntax") throw new SourceSyntaxError(verdict.diagnostics);
    if (verdict.poly_verdict === "crashed") throw new EngineCrash(verdict.engine, verdict.detail, true);
    throw new EngineRefusal(verdict.reason);
  }
  return value as T;
}

/**
 * Engines whose results are never cached. Empty today: an engine whose result
 * depends on more than its file says what through `cacheContext` (go vet: its
 * package) and is cached under that.
 */
export const UNCACHEABLE: ReadonlySet<string> = new Set();

const salts = new Map<string, Promise<string>>();
/** The run the salted entries of {@link salts} and {@link prefixes} were made for. */
let saltRun: string | undefined;

/**
 * An engine's cache salt for some settings, computed once per run for equal
 * settings: a salt stands for inputs outside the settings (the rules engine's
 * rule files), which a resident process (`poly mcp`, `poly daemon`) must see
 * change between runs.
 */
function saltOf(spec: EngineSpec, settings: EngineSettings, json: string, run: string): Promise<string> {
  if (run !== saltRun) {
    saltRun = run;
    salts.clear();
    for (const memo of prefixes.keys()) {
      if (memo.startsWith("salted\0") && !memo.startsWith(`salted\0${run}\0`)) prefixes.delete(memo);
    }
  }
  const memo = `${spec.id}\0${json}`;
  let salt = salts.get(memo);
  if (!salt) {
    salt = spec.cacheSalt!(settings);
    salts.set(memo, salt);
    salt.catch(() => salts.delete(memo));
  }
  return salt;
}

/** Key prefixes by settings object, then by (build, namespace, engine, canonical settings). */
const prefixesBySettings = new WeakMap<EngineSettings, Map<string, Promise<string>>>();
const prefixes = new Map<string, Promise<string>>();
/** The prefixes of {@link prefixesBySettings} once computed, for {@link resultKeyNow}. */
const readyBySettings = new WeakMap<EngineSettings, Map<string, string>>();

/**
 * A salted engine's prefixes are made once per run (see {@link saltOf}); the rest once per process, per repository
 * anchor (a prefix names the configuration's paths relative to it).
 */
function fastKey(cache: ResultCache, namespace: Namespace, spec: EngineSpec): string {
  const run = spec.cacheSalt ? `salted\0${cache.runId ?? ""}\0` : "";
  return `${run}${cache.build ?? ""}\0${cache.anchor}\0${namespace}\0${spec.id}\0${spec.upstream}`;
}

/**
 * The file-independent part of the keys of one engine with one configuration
 * (see {@link keyPrefix}), computed once per process: a run asks for it once per file.
 */
function prefixFor(cache: ResultCache, namespace: Namespace, spec: EngineSpec, settings: EngineSettings) {
  const fast = fastKey(cache, namespace, spec);
  let own = prefixesBySettings.get(settings);
  const known = own?.get(fast);
  if (known) return known;
  const json = fingerprintJson(settings);
  const memo = `${fast}\0${json}`;
  let prefix = prefixes.get(memo);
  if (!prefix) {
    prefix = (async () =>
      await keyPrefix({
        namespace,
        engine: spec.id,
        engineVersion: await engineCacheVersion(spec),
        settings: spec.cacheSalt
          ? { ...settings, salt: await saltOf(spec, settings, json, cache.runId ?? "") }
          : settings,
        anchor: cache.anchor,
        ...(cache.build ? { build: cache.build } : {}),
      }))();
    prefixes.set(memo, prefix);
    prefix.catch(() => prefixes.delete(memo));
  }
  if (!own) prefixesBySettings.set(settings, own = new Map());
  own.set(fast, prefix);
  prefix.then((value) => {
    const ready = readyBySettings.get(settings) ?? readyBySettings.set(settings, new Map()).get(settings)!;
    ready.set(fast, value);
  }, () => {});
  return prefix;
}

/**
 * {@link resultKey} without waiting, when all it needs is at hand: the file's
 * content digest, a prefix computed earlier in this process for these settings,
 * and an engine without a cache context. Undefined otherwise (then call
 * {@link resultKey}). A run asks this for each of thousands of files.
 */
export function resultKeyNow(
  cache: ResultCache,
  namespace: Namespace,
  spec: EngineSpec,
  file: SourceFile,
  settings: EngineSettings,
  contentDigest: string,
): string | undefined {
  if (!cache.enabled || UNCACHEABLE.has(spec.id) || spec.cacheContext) return undefined;
  const prefix = readyBySettings.get(settings)?.get(fastKey(cache, namespace, spec));
  return prefix === undefined ? undefined : keyFor(prefix, file.relPath, contentDigest);
}

/**
 * The key of one (file, engine, settings) result in `cache`, or undefined when
 * that result is not cached at all (a disabled cache, an {@link UNCACHEABLE} engine).
 * `contentDigest` is the digest of the file's text when the caller has it already.
 */
export async function resultKey(
  cache: ResultCache,
  namespace: Namespace,
  spec: EngineSpec,
  file: SourceFile,
  settings: EngineSettings,
  contentDigest?: string,
): Promise<string | undefined> {
  if (!cache.enabled || UNCACHEABLE.has(spec.id)) return undefined;
  const prefix = await prefixFor(cache, namespace, spec, settings);
  const content = contentDigest ?? digestOf(file.text);
  // A context may name files by absolute path (ESLint's configuration, go vet's package): relative to the anchor.
  const context = spec.cacheContext
    ? `+${relocated(JSON.stringify(await spec.cacheContext(file, settings, cache.runId, cache)), cache.anchor)}`
    : "";
  return keyFor(prefix, file.relPath, content + context);
}

/**
 * Returns the cached result of `compute` for this file, engine and settings, or
 * computes and stores it.
 */
export async function throughCache<T>(
  cache: ResultCache,
  namespace: Namespace,
  spec: EngineSpec,
  file: SourceFile,
  settings: EngineSettings,
  compute: () => Promise<T> | T,
  options: { lookup?: boolean } = {},
): Promise<T> {
  const key = await resultKey(cache, namespace, spec, file, settings);
  if (key === undefined) return await compute();
  // `lookup: false`: the caller already missed this key (the pre-pass); compute and store only.
  const hit = options.lookup === false ? undefined : cache.get<T>(namespace, key);
  if (hit !== undefined) return fromStored<T>(hit);
  let value: T;
  try {
    value = await compute();
  } catch (e) {
    const verdict = verdictOf(e);
    if (verdict) cache.set(namespace, key, verdict);
    throw e;
  }
  cache.set(namespace, key, value);
  return value;
}
