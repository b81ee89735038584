/**
 * ESLint's configuration, where a repository lints its JavaScript and TypeScript with ESLint: the nearest folder, from a
 * file's directory up to the repository root, holding a flat configuration (`eslint.config.js` and its `.mjs`, `.cjs`,
 * `.ts`, `.mts`, `.cts` kin), a legacy one (`.eslintrc`, `.eslintrc.js`, `.cjs`, `.yaml`, `.yml`, `.json`) or a
 * `package.json` with an `eslintConfig` key.
 *
 * There the repository's own ESLint lints those files in biome's place (lib/run/plan.ts, lib/engines/eslint/: inside
 * bubblewrap, since its configuration is a program). poly reads only the file's presence (it is listed among the
 * configurations, and its hash is in the cache key); ESLint reads its contents.
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

/** The reader of where ESLint's configuration governs, for a run. */
export class EslintReader {
  readonly #found = new Map<string, Promise<NativeEngineConfig | undefined>>();

  constructor(private readonly files: NativeFiles) {}

  /** The ESLint configuration governing `dir` (searching up to `top`), or undefined. */
  forDir(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    return nearestUp(this.#found, dir, top, async (at) => {
      const names = await this.files.namesIn(at);
      const name = ESLINT_FILES.find((n) => names.has(n)) ??
        (names.has("package.json") && await this.#inManifest(join(at, "package.json")) ? "package.json" : undefined);
      if (!name) return undefined;
      const file = await this.files.read(join(at, name)).catch(() => undefined);
      return { files: file ? [{ path: file.path, hash: file.hash }] : [], options: {}, root: at };
    });
  }

  /** Whether a `package.json` has an `eslintConfig` key (one that does not parse has none). */
  async #inManifest(path: string): Promise<boolean> {
    const file = await this.files.read(path).catch(() => undefined);
    if (!file || !file.text.includes('"eslintConfig"')) return false;
    try {
      const doc = JSON.parse(file.text);
      return doc !== null && typeof doc === "object" && "eslintConfig" in doc;
    } catch {
      return false;
    }
  }
}
