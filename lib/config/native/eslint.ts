/**
 * ESLint's configuration, where a repository lints its JavaScript and TypeScript with ESLint: the nearest folder, from a
 * file's directory up to the repository root, holding a flat configuration (`eslint.config.js` and its `.mjs`, `.cjs`,
 * `.ts`, `.mts`, `.cts` kin), a legacy one (`.eslintrc`, `.eslintrc.js`, `.cjs`, `.yaml`, `.yml`, `.json`) or a
 * `package.json` with an `eslintConfig` key.
 *
 * There the repository's own ESLint lints those files in biome's place (lib/run/plan.ts, lib/engines/eslint/: inside
 * bubblewrap, since its configuration is a program). poly reads only the file's presence (it is listed among the
 * configurations, and its hash is in the cache key); ESLint reads its contents. Where the repository lints with xo,
 * standard or semistandard (ESLint under a configuration of their own: an xo file, or a `package.json` naming one),
 * that tool does, the same way.
 *
 * @module
 */
import { join } from "node:path";
import type { NativeFiles } from "./_files.ts";
import { nearestUp } from "./_reading.ts";
import type { NativeEngineConfig } from "./types.ts";

/** ESLint's configuration files, flat first, in the order ESLint prefers them. */
export const ESLINT_FILES = [
  "eslint.config.js",
  "eslint.config.mjs",
  "eslint.config.cjs",
  "eslint.config.ts",
  "eslint.config.mts",
  "eslint.config.cts",
  ".eslintrc.js",
  ".eslintrc.cjs",
  ".eslintrc.yaml",
  ".eslintrc.yml",
  ".eslintrc.json",
  ".eslintrc",
] as const;

/**
 * xo's configuration files (xo is ESLint with a configuration of its own: sindresorhus's packages and many more): flat
 * (`xo.config.*`, xo 1 and later) and those of xo 0.x.
 */
export const XO_FILES = [
  "xo.config.js",
  "xo.config.mjs",
  "xo.config.cjs",
  "xo.config.ts",
  "xo.config.mts",
  "xo.config.cts",
  ".xo-config",
  ".xo-config.json",
  ".xo-config.js",
  ".xo-config.cjs",
] as const;

/**
 * What lints where the configuration governs: ESLint itself, or ESLint under a configuration of its own — xo, or
 * standard and semistandard (standard-engine's) — which the layer's `options.runner` names.
 */
export type EslintRunner = "eslint" | "xo" | "standard" | "semistandard";

/**
 * The runners other than ESLint itself, which a `package.json` names by a key of their own or as a dependency, in the
 * order looked for.
 */
export const MANIFEST_RUNNERS = ["xo", "standard", "semistandard"] as const;

/** The runner of an ESLint configuration (its `options.runner`; ESLint itself when none is named). */
export function eslintRunner(config: NativeEngineConfig | undefined): EslintRunner {
  const runner = config?.options.runner;
  return MANIFEST_RUNNERS.find((name) => name === runner) ?? "eslint";
}

/** A runner's name in messages: `ESLint`, `xo`, `standard`, `semistandard`. */
export function runnerName(runner: EslintRunner): string {
  return runner === "eslint" ? "ESLint" : runner;
}

/** The reader of where ESLint's configuration governs, for a run. */
export class EslintReader {
  readonly #found = new Map<string, Promise<NativeEngineConfig | undefined>>();

  constructor(private readonly files: NativeFiles) {}

  /**
   * The ESLint configuration governing `dir` (searching up to `top`), or undefined: in each folder, ESLint's own files,
   * then xo's, then a `package.json` with an `eslintConfig` key (ESLint), or an `xo`, `standard` or `semistandard` key
   * or that package among its dependencies (they lint with no configuration at all: `"test": "standard && tape"`).
   */
  forDir(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    return nearestUp(this.#found, dir, top, async (at) => {
      const names = await this.files.namesIn(at);
      let runner: EslintRunner = "eslint";
      let name: string | undefined = ESLINT_FILES.find((n) => names.has(n));
      if (!name) {
        name = XO_FILES.find((n) => names.has(n));
        if (name) runner = "xo";
      }
      if (!name && names.has("package.json")) {
        const manifest = await this.#manifest(join(at, "package.json"));
        if (manifest) [name, runner] = ["package.json", manifest];
      }
      if (!name) return undefined;
      const file = await this.files.read(join(at, name)).catch(() => undefined);
      return {
        files: file ? [{ path: file.path, hash: file.hash }] : [],
        options: runner === "eslint" ? {} : { runner },
        root: at,
      };
    });
  }

  /**
   * Which lints by a `package.json`: its `eslintConfig` key (ESLint), or xo, standard or semistandard (a key of that
   * name, or the package among its dependencies).
   */
  async #manifest(path: string): Promise<EslintRunner | undefined> {
    const file = await this.files.read(path).catch(() => undefined);
    const named = ["eslintConfig", ...MANIFEST_RUNNERS].some((key) => file?.text.includes(`"${key}"`));
    if (!file || !named) return undefined;
    try {
      const doc = JSON.parse(file.text);
      if (doc === null || typeof doc !== "object") return undefined;
      if ("eslintConfig" in doc) return "eslint";
      const declares = (deps: string, name: string) =>
        typeof doc[deps] === "object" && doc[deps] !== null && name in doc[deps];
      return MANIFEST_RUNNERS.find((name) =>
        name in doc || declares("devDependencies", name) || declares("dependencies", name)
      );
    } catch {
      return undefined;
    }
  }
}
