/**
 * The engine registry: every backend poly can run, in the order they are tried
 * (for formatting, the first enabled engine that formats a language wins).
 * Adding an engine is one file plus one import and one entry here.
 *
 * Engines are specs with lazy loaders: importing this module loads no engine.
 *
 * @module
 */
import type { EngineInstance, EngineSpec, Language } from "./types.ts";
import { span } from "../debug/timing.ts";
import { ruff } from "./ruff.ts";
import { biome } from "./biome.ts";
import { gofmt } from "./gofmt.ts";
import { govet } from "./govet.ts";
import { shfmt } from "./shfmt.ts";
import { shellcheck } from "./shellcheck.ts";
import { toml } from "./toml.ts";
import { dprint } from "./dprint.ts";
import { markdownlint } from "./markdownlint.ts";
import { yaml } from "./yaml.ts";
import { prettier } from "./prettier.ts";
import { clangFormat } from "./clang_format.ts";
import { sqlfmt } from "./sqlfmt.ts";
import { luafmt } from "./luafmt.ts";
import { mago } from "./mago.ts";
import { webfmt } from "./webfmt.ts";
import { rustfmt } from "./rustfmt.ts";
import { oxlint } from "./oxlint.ts";
import { astGrepEngine } from "./ast_grep.ts";

/** Every engine. */
export const ENGINES: readonly EngineSpec[] = [
  ruff,
  biome,
  gofmt,
  govet,
  shfmt,
  shellcheck,
  toml,
  dprint,
  markdownlint,
  yaml,
  prettier,
  clangFormat,
  sqlfmt,
  luafmt,
  mago,
  webfmt,
  rustfmt,
  oxlint,
  astGrepEngine,
];

/** Ids of every engine (the `<tool>` in `[lint.<lang>.<tool>]`). */
export const ENGINE_IDS: readonly string[] = ENGINES.map((e) => e.id);

const BY_ID = new Map(ENGINES.map((e) => [e.id, e]));

/** The engine with this id, if any (asked several times per file of a run). */
export function engineById(id: string): EngineSpec | undefined {
  return BY_ID.get(id);
}

/** Engines that lint `language`. */
export function lintEnginesFor(language: Language): EngineSpec[] {
  return ENGINES.filter((e) => e.lintLanguages.includes(language));
}

/** Engines that format `language`. */
export function formatEnginesFor(language: Language): EngineSpec[] {
  return ENGINES.filter((e) => e.formatLanguages.includes(language));
}

const instances = new Map<string, ReturnType<EngineSpec["load"]>>();

/** The instance of an engine this process has loaded already, or undefined (nothing is loaded). */
export function loadedEngine(id: string): Promise<EngineInstance> | undefined {
  return instances.get(id);
}

/** Loads an engine once per process (or worker) and returns the shared instance. */
export function loadEngine(spec: EngineSpec): ReturnType<EngineSpec["load"]> {
  let instance = instances.get(spec.id);
  if (!instance) {
    const loaded = span(`load ${spec.id}`);
    instance = spec.load();
    instance.then(loaded, loaded);
    instances.set(spec.id, instance);
    instance.catch(() => instances.delete(spec.id));
  }
  return instance;
}
