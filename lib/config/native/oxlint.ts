/**
 * oxlint's configuration, as oxlint finds it (checked against oxlint 1.94's own runs):
 *
 * - The nearest folder from the file's up to the repository root holding `.oxlintrc.json`, `.oxlintrc.jsonc`,
 *   `oxlint.config.ts` or `oxlint.config.mts` governs the file alone: a nested file is not merged with the ones above
 *   it (it inherits only what it `extends`). Two of them in one folder are an error, as oxlint makes them.
 * - `extends`: paths relative to the extending file; read here for their hashes (editing a base re-checks what it
 *   governs) and checked, then given to oxlint as they are (absolute), so oxlint merges them itself, first to last,
 *   the extending file's own keys last. Their `overrides` match paths relative to the governing file, as in oxlint.
 * - `ignorePatterns` of the governing file (gitignore patterns rooted at its folder) keep files from oxlint
 *   ({@link oxlintExcluded}); an extended file's are not applied, as oxlint does not apply them.
 * - `oxlint.config.ts` / `.mts` is read without running it (literal values only, `_jsconfig.ts`).
 * - What poly cannot honour — `jsPlugins` (they run the project's JavaScript), `options.typeAware` /
 *   `options.typeCheck` (they need oxlint's TypeScript checker, which poly does not run), an `extends` that is not a
 *   path, a file that does not parse — is said naming the file and key (`unhonoured`): every file oxlint would lint
 *   under it is an errored record saying so, and the run's other files go on.
 *
 * Where an oxlint file governs, oxlint lints JavaScript, TypeScript and the scripts of Vue, Svelte and Astro files, in
 * biome's place unless a biome file of biome's own governs too or poly.toml configures biome's linting there
 * (lib/run/plan.ts): the repository's linter is oxlint.
 *
 * The engine (lib/engines/oxlint/mod.ts) writes the governing file's object, `extends` made absolute and poly.toml's
 * keys on top, into its private folder and lays each file's copy out beneath it as the file lies beneath the governing
 * file, so `overrides` globs match as they do in the repository.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { ignoredBy } from "./_ignores.ts";
import { ConfigError } from "../../errors/mod.ts";
import type { NativeFiles, NativeText } from "./_files.ts";
import { parseError, readExtended, unhonouredConfig } from "./_reading.ts";
import { parseJsonc } from "./_jsonc.ts";
import type { NativeEngineConfig, NativeSource } from "./types.ts";
import { isTable, type Table, tableOf } from "../table.ts";

/** The names oxlint looks for in one folder; one at most may be there. */
export const OXLINT_FILES = [".oxlintrc.json", ".oxlintrc.jsonc", "oxlint.config.ts", "oxlint.config.mts"] as const;

/** Reads oxlint's native files. */
export class OxlintReader {
  /** One configuration object per governing file, shared by every folder under it. */
  readonly #governing = new Map<string, Promise<NativeEngineConfig>>();

  constructor(private readonly files: NativeFiles, private readonly display: (path: string) => string) {}

  /** The configuration governing `dir`: its nearest oxlint file up to `top`, or undefined when there is none. */
  async forDir(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    for (let d = dir;; d = dirname(d)) {
      const present = await this.files.namesIn(d);
      const names = OXLINT_FILES.filter((n) => present.has(n));
      if (names.length > 1) {
        const path = join(d, names[1]);
        return await this.#unhonoured(
          path,
          new ConfigError(
            { file: this.display(path) },
            `oxlint takes one configuration file per folder, and "${names[0]}" is here too: delete one`,
          ),
        );
      }
      if (names.length === 1) {
        const path = join(d, names[0]);
        let found = this.#governing.get(path);
        if (!found) this.#governing.set(path, found = this.#resolve(path).catch((e) => this.#unhonoured(path, e)));
        return await found;
      }
      if (d === top || dirname(d) === d) return undefined;
    }
  }

  /**
   * The configuration of a governing file poly cannot honour: what says why (`unhonoured`), which errors every file oxlint
   * would lint under it, so a run's other files go on; the file is listed when it can be read.
   */
  async #unhonoured(path: string, error: unknown): Promise<NativeEngineConfig> {
    const config = await unhonouredConfig(this.files, error, dirname(path), path);
    config.unhonoured +=
      " (oxlint lints the scripts under it; [tools.oxlint] enabled = false lints them without oxlint)";
    return config;
  }

  async #resolve(path: string): Promise<NativeEngineConfig> {
    const used: NativeSource[] = [];
    const options = await this.#load(path, used, []);
    const shown = this.display(path);
    const origins: Record<string, string> = {};
    for (const key of Object.keys(options)) if (key !== "$schema") origins[key] = shown;
    const patterns = options.ignorePatterns;
    return {
      files: used,
      options,
      root: dirname(path),
      ...(Array.isArray(patterns) && patterns.length > 0
        ? { lintIgnore: [{ file: path, patterns: patterns as string[] }] }
        : {}),
      origins,
    };
  }

  /** One file's object, checked, after the files it extends (each listed in `used`, bases first). */
  async #load(path: string, used: NativeSource[], chain: string[]): Promise<Table> {
    const shown = this.display(path);
    const f = await readExtended(this.files, this.display, path, chain);
    const doc = await parse(f, shown);
    const extended = doc.extends;
    if (extended !== undefined) {
      if (!Array.isArray(extended) || !extended.every((e) => typeof e === "string")) {
        throw new ConfigError({ file: shown }, `oxlint key "extends" must be a list of paths to configuration files`);
      }
      for (const base of extended) {
        await this.#load(isAbsolute(base) ? base : join(dirname(path), base), used, [...chain, path]);
      }
    }
    check(doc, shown);
    used.push({ path: f.path, hash: f.hash });
    return doc;
  }
}

/** The object in one oxlint file. */
async function parse(f: NativeText, shown: string): Promise<Table> {
  let doc: unknown;
  try {
    doc = /\.m?ts$/.test(f.path)
      ? (await import("./_jsconfig.ts")).staticExport(f.text, basename(f.path), shown, {
        definer: "oxlint",
        instead: "write it as .oxlintrc.json, or set [tools.oxlint] native_config = false",
      })
      : parseJsonc(f.text);
  } catch (e) {
    throw parseError(e, shown);
  }
  if (!isTable(doc)) throw new ConfigError({ file: shown }, "the configuration must be an object");
  return doc;
}

/** Refuses what poly cannot honour, naming the key. */
function check(doc: Table, shown: string): void {
  if (Array.isArray(doc.jsPlugins) && doc.jsPlugins.length > 0) {
    throw new ConfigError(
      { file: shown },
      `oxlint key "jsPlugins" cannot be honoured: JavaScript plugins run the project's code, which poly does not ` +
        `(set [tools.oxlint] native_config = false to lint under poly.toml alone)`,
    );
  }
  const options = tableOf(doc.options);
  for (const key of ["typeAware", "typeCheck"]) {
    if (options[key] === true) {
      throw new ConfigError(
        { file: shown },
        `oxlint key "options.${key}" cannot be honoured: it needs oxlint's TypeScript checker (oxlint-tsgolint), ` +
          `which poly does not run`,
      );
    }
  }
  const patterns = doc.ignorePatterns;
  if (patterns === undefined) return;
  if (!Array.isArray(patterns) || !patterns.every((p) => typeof p === "string")) {
    throw new ConfigError({ file: shown }, `oxlint key "ignorePatterns" must be a list of strings`);
  }
  const outside = patterns.find((p) => p.split("/").includes(".."));
  if (outside !== undefined) {
    throw new ConfigError(
      { file: shown },
      `oxlint key "ignorePatterns" has "${outside}": a pattern cannot reach above the file's folder (oxlint refuses it)`,
    );
  }
}

/**
 * Why oxlint's configuration `native` keeps `absPath` from oxlint (the governing file's `ignorePatterns`, gitignore
 * patterns rooted at its folder), or undefined.
 */
export function oxlintExcluded(native: NativeEngineConfig, absPath: string): string | undefined {
  const hit = native.lintIgnore && ignoredBy(native.lintIgnore, native.root, absPath);
  return hit ? `ignored by oxlint: in ignorePatterns of "${relative(dirname(absPath), hit.file)}"` : undefined;
}
