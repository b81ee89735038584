/**
 * Reading native config files cheaply on big trees: each directory's entries are
 * listed at most once per run (only the names some native reader looks for are
 * kept), and each file is read and hashed at most once.
 *
 * @module
 */
import { join } from "node:path";
import { digestOf } from "../../cache/digest.ts";
import { Listings } from "../../fs/listing.ts";
import type { NativeSource } from "./types.ts";
import {
  CLANG_FORMAT_FILES,
  RUSTFMT_FILES,
  SHELLCHECK_FILES,
  STYLUA_FILES,
  STYLUA_IGNORE,
  TOOLCHAIN_FILES,
} from "./host.ts";
import { CLANG_FORMAT_IGNORE } from "./clang_format_ignore.ts";
import { MARKDOWNLINT_FILES } from "./markdownlint.ts";
import { COMPOSER_JSON, MAGO_FILES, PHP_STYLE_FILES } from "./mago.ts";
import { KEPT_STYLE_FILES } from "./kept_style.ts";
import { YAMLLINT_FILES } from "./yamllint.ts";
import { PRE_COMMIT_FILE } from "./pre_commit.ts";
import { DENO_FILES } from "./deno.ts";
import { DPRINT_FILES } from "./dprint.ts";
import { FLAKE8_FILES } from "./flake8.ts";
import { ESLINT_FILES, XO_FILES } from "./eslint.ts";
import { OXLINT_FILES } from "./oxlint.ts";
import { OXFMT_FILES, PRETTIER_FILES } from "./prettier.ts";

/** Every file name a native reader looks for (compared case-sensitively, as the native CLIs do on Linux). */
export const NATIVE_NAMES: ReadonlySet<string> = new Set([
  ".ruff.toml",
  "ruff.toml",
  "pyproject.toml",
  "biome.json",
  "biome.jsonc",
  ...PRETTIER_FILES,
  ...OXFMT_FILES,
  ".prettierignore",
  ".editorconfig",
  ...SHELLCHECK_FILES,
  ...CLANG_FORMAT_FILES,
  CLANG_FORMAT_IGNORE,
  ...RUSTFMT_FILES,
  "Cargo.toml",
  ...TOOLCHAIN_FILES,
  ...STYLUA_FILES,
  STYLUA_IGNORE,
  ...MARKDOWNLINT_FILES,
  ...DENO_FILES,
  ...DPRINT_FILES,
  ...FLAKE8_FILES,
  ...ESLINT_FILES,
  ...XO_FILES,
  ...OXLINT_FILES,
  ...MAGO_FILES,
  ...Object.keys(PHP_STYLE_FILES),
  COMPOSER_JSON,
  ...KEPT_STYLE_FILES,
  ...YAMLLINT_FILES,
  PRE_COMMIT_FILE,
]);

/** A read native file. */
export interface NativeText extends NativeSource {
  text: string;
}

/** The run's memo of directory listings and native file texts. */
export class NativeFiles {
  readonly #listings: Listings;
  readonly #names = new Map<string, Promise<ReadonlySet<string>>>();
  readonly #entries = new Map<string, Promise<ReadonlySet<string> | undefined>>();
  readonly #texts = new Map<string, Promise<NativeText>>();

  /** `listings`: the run's, which discovery shares (default: a set of its own). */
  constructor(listings = new Listings()) {
    this.#listings = listings;
  }

  /** `dir`'s entries, listed once per run (undefined for a directory that cannot be listed). */
  #list(dir: string): Promise<Deno.DirEntry[] | undefined> {
    try {
      return Promise.resolve(this.#listings.entries(dir));
    } catch {
      return Promise.resolve(undefined); // not a directory, gone, or unreadable
    }
  }

  /** Whether `dir` has an entry whose name passes `test` (a file, a folder or a link: by its name alone). */
  async hasAny(dir: string, test: (name: string) => boolean): Promise<boolean> {
    return (await this.#list(dir))?.some((e) => test(e.name)) ?? false;
  }

  /** The names of every entry of `dir`, from the same listing; undefined when it cannot be listed. */
  entryNames(dir: string): Promise<ReadonlySet<string> | undefined> {
    let found = this.#entries.get(dir);
    if (!found) {
      found = this.#list(dir).then((entries) => entries && new Set(entries.map((e) => e.name)));
      this.#entries.set(dir, found);
    }
    return found;
  }

  /** The native config names present in `dir` (empty for a directory that cannot be listed). */
  namesIn(dir: string): Promise<ReadonlySet<string>> {
    let found = this.#names.get(dir);
    if (!found) {
      found = this.#list(dir).then((entries = []) =>
        new Set(
          entries.filter((e) => NATIVE_NAMES.has(e.name) && (e.isFile || (e.isSymlink && linksToFile(dir, e.name))))
            .map((e) => e.name),
        )
      );
      this.#names.set(dir, found);
    }
    return found;
  }

  /** The text and hash of `path`, read once per run. Rejects when it cannot be read. */
  read(path: string): Promise<NativeText> {
    let found = this.#texts.get(path);
    if (!found) {
      found = (async () => {
        const bytes = await Deno.readFile(path);
        const hash = digestOf(bytes).slice(0, 16);
        return { path, hash, text: new TextDecoder().decode(bytes).replace(/^\uFEFF/, "") };
      })();
      this.#texts.set(path, found);
    }
    return found;
  }
}

/**
 * Whether the link `name` in `dir` leads to a file: a dangling one (networkx/networkx's `benchmarks/pyproject.toml`,
 * whose target ends in a newline) or one to a folder is no configuration, as the tools, which test `is_file()`, pass
 * it over.
 */
function linksToFile(dir: string, name: string): boolean {
  try {
    return Deno.statSync(join(dir, name)).isFile;
  } catch {
    return false;
  }
}
