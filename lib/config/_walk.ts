/**
 * Finding config files on disk: the repository anchor, and the cascade of
 * `poly.toml` / `poly.local.toml` files from the anchor (or a `root = true`
 * config) down to a directory. Every probe and parse is cached for the run.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { ConfigError } from "../errors/mod.ts";
import { type ConfigFile, readConfigFile } from "./parse.ts";

/** The config file name. */
export const CONFIG_FILE = "poly.toml";
/** The local overlay's name (not meant to be committed). */
export const LOCAL_CONFIG_FILE = "poly.local.toml";

/** The config files of one directory, in merge order (poly.toml, then poly.local.toml). */
export interface CascadeLevel {
  dir: string;
  files: ConfigFile[];
}

/** Whether `child` is `parent` or inside it. */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * How a path is shown to a person: relative to `cwd` when it lies inside `cwd` or
 * inside the run's repository (`../poly.toml`), else absolute (a git base in the cache).
 */
export function showPath(path: string, cwd: string, repository?: string): string {
  if (isInside(cwd, path) || (repository !== undefined && isInside(repository, path))) {
    return relative(cwd, path) || ".";
  }
  return path;
}

/** "file", "dir" or undefined (missing) for `path`, following symlinks. */
function statKind(path: string): Promise<"file" | "dir" | undefined> {
  return Deno.stat(path).then(
    (info) => (info.isFile ? "file" : info.isDirectory ? "dir" : undefined),
    (error) => {
      if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) return undefined;
      throw error;
    },
  );
}

/** Probes and parses config files, caching every answer. */
export class ConfigFinder {
  readonly #cwd: string;
  readonly #kinds = new Map<string, Promise<"file" | "dir" | undefined>>();
  readonly #files = new Map<string, Promise<ConfigFile>>();
  readonly #anchors = new Map<string, Promise<string>>();

  constructor(cwd: string) {
    this.#cwd = cwd;
  }

  /** The repository the run started in (set once known): paths inside it are shown relative too. */
  repository?: string;

  /** How `path` is shown in messages: see {@link showPath}. */
  display = (path: string): string => showPath(path, this.#cwd, this.repository);

  /**
   * Whether a directory the run lists anyway (the native configuration's
   * listings) holds a name, or undefined when it is not listed: a probe for a
   * name its directory does not hold is then answered without a `stat` (a
   * monorepo probes `.git`, `poly.toml` and `poly.local.toml` in hundreds of
   * folders, nearly all absent).
   */
  listing?: (dir: string) => Promise<((name: string) => boolean) | undefined> | undefined;

  /** "file", "dir" or undefined (missing) for `path`, following symlinks. */
  kind(path: string): Promise<"file" | "dir" | undefined> {
    let found = this.#kinds.get(path);
    if (!found) {
      const listed = this.listing?.(dirname(path));
      found = listed
        ? listed.then((holds) => (!holds || holds(basename(path)) ? statKind(path) : undefined))
        : statKind(path);
      this.#kinds.set(path, found);
    }
    return found;
  }

  /** Reads and validates a config file once per run. */
  read(path: string): Promise<ConfigFile> {
    let file = this.#files.get(path);
    if (!file) {
      file = readConfigFile(path, this.display(path));
      this.#files.set(path, file);
    }
    return file;
  }

  /** The config files in `dir`, in merge order. */
  async filesIn(dir: string): Promise<ConfigFile[]> {
    const files: ConfigFile[] = [];
    for (const name of [CONFIG_FILE, LOCAL_CONFIG_FILE]) {
      const path = join(dir, name);
      if ((await this.kind(path)) === "file") files.push(await this.read(path));
    }
    return files;
  }

  /** Nearest ancestor (or `dir` itself) containing `.git`, else the top-most one holding a poly.toml, else `dir`. */
  anchorFor(dir: string): Promise<string> {
    let anchor = this.#anchors.get(dir);
    if (!anchor) {
      anchor = this.#findAnchor(dir);
      this.#anchors.set(dir, anchor);
    }
    return anchor;
  }

  async #findAnchor(start: string): Promise<string> {
    let top: string | undefined;
    for (let dir = start;; dir = dirname(dir)) {
      if ((await this.kind(join(dir, ".git"))) !== undefined) return dir;
      if ((await this.kind(join(dir, CONFIG_FILE))) === "file") top = dir;
      if (dirname(dir) === dir) return top ?? start;
    }
  }

  /**
   * The levels governing `dir`, farthest first: every directory from `dir` up to the
   * anchor holding a config file, stopping early at one that says `[workspace] root = true`.
   */
  async cascade(dir: string): Promise<CascadeLevel[]> {
    const anchor = await this.anchorFor(dir);
    const levels: CascadeLevel[] = [];
    for (let at = dir;; at = dirname(at)) {
      const files = await this.filesIn(at);
      if (files.length > 0) {
        levels.unshift({ dir: at, files });
        if (files.some((f) => (f.raw.workspace as { root?: boolean } | undefined)?.root === true)) break;
      }
      if (at === anchor || dirname(at) === at) break;
    }
    return levels;
  }

  /** The level for `--config PATH`: that file, plus a poly.local.toml beside it. */
  async explicit(path: string): Promise<CascadeLevel> {
    const kind = await this.kind(path);
    if (kind !== "file") {
      throw new ConfigError(
        { file: this.display(path) },
        `cannot read config file: ${kind === "dir" ? "is a directory, not a file" : "file not found"}`,
      );
    }
    const files = [await this.read(path)];
    const local = join(dirname(path), LOCAL_CONFIG_FILE);
    if (local !== path && (await this.kind(local)) === "file") files.push(await this.read(local));
    return { dir: dirname(path), files };
  }
}
