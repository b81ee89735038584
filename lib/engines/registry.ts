/**
 * The engine registry: every backend poly can run, in the order they are tried
 * (for formatting, the first enabled engine that formats a language wins).
 *
 * One folder per engine: `lib/engines/<id>/mod.ts` exports its {@link EngineSpec}
 * and implements it, and its module doc comment is the engine's documentation
 * (what it runs, its tier and languages, the settings it reads, what it skips and
 * why); modules only it uses sit beside it (`_*.ts`). What engines share is here
 * at the top of `lib/engines/`: `types.ts` (the contract), `host.ts` (host
 * programs and native executables), `module.ts` (npm module files), `batch.ts`,
 * `settings.ts`, `text.ts`, `layout.ts`, `fail.ts` and `templates.ts`.
 *
 * Adding an engine is its folder plus one import and one entry here: the config
 * schema (`[lint.<lang>.<id>]`, `[fmt.<lang>.<id>]`, `[tools.<id>]`), `poly engines`,
 * `poly doctor`, the identity block and the dashboard read the list from this module.
 * A formatter that `.editorconfig`'s `indent_style = tab` should reach also needs
 * its key in `tabKeys()` (lib/run/plan.ts), and an engine with configuration files of
 * its own a reader in lib/config/native/.
 *
 * Engines are specs with lazy loaders: importing this module loads no engine.
 *
 * @module
 */
import type { EngineInstance, EngineSpec, Language } from "./types.ts";
import { span } from "../debug/timing.ts";
import { ruff } from "./ruff/mod.ts";
import { biome } from "./biome/mod.ts";
import { gofmt } from "./gofmt/mod.ts";
import { govet } from "./govet/mod.ts";
import { shfmt } from "./shfmt/mod.ts";
import { shellcheck } from "./shellcheck/mod.ts";
import { toml } from "./toml/mod.ts";
import { dprint } from "./dprint/mod.ts";
import { markdownlint } from "./markdownlint/mod.ts";
import { yaml } from "./yaml/mod.ts";
import { prettier } from "./prettier/mod.ts";
import { oxfmt } from "./oxfmt/mod.ts";
import { clangFormat } from "./clang_format/mod.ts";
import { sqlfmt } from "./sqlfmt/mod.ts";
import { luafmt } from "./luafmt/mod.ts";
import { mago } from "./mago/mod.ts";
import { webfmt } from "./webfmt/mod.ts";
import { rustfmt } from "./rustfmt/mod.ts";
import { oxlint } from "./oxlint/mod.ts";
import { eslint } from "./eslint/mod.ts";
import { denoLint } from "./deno_lint/mod.ts";
import { astGrepEngine } from "./ast_grep/mod.ts";
import { engineLoaded } from "./warm.ts";
import { black } from "./black/mod.ts";
import { flake8 } from "./flake8/mod.ts";

/** Every engine. */
export const ENGINES: readonly EngineSpec[] = [
  ruff,
  black,
  flake8,
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
  oxfmt,
  clangFormat,
  sqlfmt,
  luafmt,
  mago,
  webfmt,
  rustfmt,
  oxlint,
  eslint,
  denoLint,
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
    instance.then(() => {
      loaded();
      engineLoaded(spec.id);
    }, loaded);
    instances.set(spec.id, instance);
    instance.catch(() => instances.delete(spec.id));
  }
  return instance;
}
