/**
 * The directory walker behind {@link discover}: gitignore layers, excludes,
 * symbolic links (followed, loops detected by real path), language detection.
 *
 * @module
 */
import { templateExtensionSkip } from "../engines/templates.ts";
import { dirname, join, sep } from "node:path";
import type { Layer } from "./_ignore.ts";
import { gitignored, goModuleLayer, loadLayer, MatcherCache } from "./_ignore.ts";
import { relativeInside } from "../paths/inside.ts";
import pLimit from "p-limit";
import { dirError, firstLine, linkProblem, realPath } from "./_fs.ts";
import { Listings } from "../fs/listing.ts";
import { detectLanguage, needsShebang, notebookSkip } from "./language.ts";
import type { Language } from "../engines/types.ts";
import type { Candidate, DiscoverOptions, DiscoveryConfig } from "./types.ts";

/** A record plus what deduplication needs. */
export interface Entry {
  rec: Candidate;
  /** Real path of a file record. */
  real?: string;
  /** Reached through a symbolic link (to the file itself). */
  viaLink?: boolean;
}

/** A symbolic link to a directory, walked after every real directory so real names win. */
interface Deferred {
  abs: string;
  rel: string;
  layers: Layer[];
  /** Real path of the directory holding the link. */
  parentReal: string;
}

const NO_CONFIG: DiscoveryConfig = { excludes: [], forceExclude: false };

/** `join(dir, name)` for a normalized directory and a plain entry name, without normalizing again (hot: once per entry). */
function child(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

/** Walks the given roots; records accumulate in {@link Walker.entries}. */
export class Walker {
  readonly entries: Entry[] = [];
  readonly #opts: DiscoverOptions;
  /** Languages found so far ({@link DiscoverOptions.onLanguage}). */
  readonly #languages = new Set<Language>();
  readonly #cwd: string;
  readonly #matchers: MatcherCache;
  readonly #configs = new Map<string, Promise<DiscoveryConfig>>();
  /** Real path of every directory walked → its relPath. */
  readonly #seen = new Map<string, string>();
  #linked = false;
  readonly #deferred: Deferred[] = [];
  /** Bounds concurrent file system calls (open directories and files). */
  readonly #limit = pLimit(32);
  readonly #listings: Listings;

  constructor(opts: DiscoverOptions, cwd: string) {
    this.#opts = opts;
    this.#listings = opts.listings ?? new Listings();
    this.#cwd = cwd;
    this.#matchers = new MatcherCache((opts.exclude ?? []).map((pattern) => ({ pattern, base: cwd })));
  }

  /**
   * Whether some record's real path may differ from its path (a symbolic link met,
   * or a start path through one): only then can two records be one file.
   */
  get linked(): boolean {
    return this.#linked;
  }

  /** The discovery settings for a directory (memoised). */
  config(dir: string): Promise<DiscoveryConfig> {
    let found = this.#configs.get(dir);
    if (!found) {
      found = this.#opts.configFor ? this.#opts.configFor(dir) : Promise.resolve(NO_CONFIG);
      this.#configs.set(dir, found);
    }
    return found;
  }

  /** Why `abs` is excluded (gitignore layers, then excludes), or undefined. */
  async excluded(layers: readonly Layer[], abs: string, isDir: boolean): Promise<string | undefined> {
    const hit = gitignored(layers, abs, isDir) ??
      this.#matchers.for(await this.config(dirname(abs))).match(abs, isDir);
    return hit && `excluded by "${hit.pattern}" in ${hit.source}`;
  }

  /**
   * Like {@link Walker.excluded}, for a path named explicitly: its directories
   * between `cwd` and it count too (a file inside an excluded directory is excluded).
   */
  async excludedWithParents(layers: readonly Layer[], abs: string, isDir: boolean): Promise<string | undefined> {
    const parents: string[] = [];
    for (let d = dirname(abs); relativeInside(this.#cwd, d) !== undefined; d = dirname(d)) parents.unshift(d);
    for (const dir of parents) {
      const reason = await this.excluded(layers, dir, true);
      if (reason) return reason;
    }
    return await this.excluded(layers, abs, isDir);
  }

  /**
   * Adds a file record, detecting its language; the first line is read only
   * when a shebang alone can tell, and only from a regular file (a FIFO would block).
   */
  async addFile(
    abs: string,
    rel: string,
    real: string,
    flags: { explicit: boolean; viaLink: boolean; regular: boolean },
  ): Promise<void> {
    const { explicit, viaLink } = flags;
    if (viaLink || real !== abs) this.#linked = true;
    const peek = needsShebang(rel) && flags.regular;
    const language = peek ? detectLanguage(rel, await this.#limit(() => firstLine(abs))) : detectLanguage(rel);
    this.#record(abs, rel, real, language, explicit, viaLink);
  }

  /**
   * Walks a directory whose parents' layers are `layers`; `real` is its real path.
   * Entries and subdirectories are handled concurrently (file system calls are
   * bounded by the limiter); records are sorted at the end, so the output is
   * deterministic all the same.
   */
  async walkDir(abs: string, rel: string, parentLayers: readonly Layer[], real: string): Promise<void> {
    this.#opts.signal?.throwIfAborted();
    if (this.#seen.has(real)) return;
    this.#seen.set(real, rel);
    // Its entries' real paths are `real` + name: they differ from their paths exactly when these do.
    if (real !== abs) this.#linked = true;
    let names: Deno.DirEntry[];
    try {
      names = this.#listings.entries(abs);
    } catch (error) {
      this.entries.push({ rec: { kind: "error", path: abs, relPath: rel, error: dirError(error) } });
      return;
    }
    const layers = [...parentLayers];
    if (names.some((e) => e.name === ".git" && e.isDirectory)) {
      const info = await loadLayer(abs, ".git/info/exclude", this.#cwd);
      if (info) layers.push(info);
    }
    if (names.some((e) => e.name === "go.mod" && e.isFile)) layers.push(goModuleLayer(abs, this.#cwd));
    if (names.some((e) => e.name === ".gitignore")) {
      const own = await loadLayer(abs, ".gitignore", this.#cwd);
      if (own) layers.push(own);
    }
    const matcher = this.#matchers.for(await this.config(abs));
    const dir = { abs, rel, real, layers };
    const pending: Promise<void>[] = [];
    for (const entry of names) {
      if (entry.name === ".git") continue;
      if (entry.isSymlink) {
        pending.push(this.#link(dir, entry));
        continue;
      }
      // The common case stays synchronous: one promise per directory, not per file.
      const childAbs = child(abs, entry.name);
      if (gitignored(layers, childAbs, entry.isDirectory) ?? matcher.match(childAbs, entry.isDirectory)) continue;
      const childRel = rel === "." ? entry.name : `${rel}/${entry.name}`;
      const childReal = child(real, entry.name);
      if (entry.isDirectory) {
        pending.push(this.walkDir(childAbs, childRel, layers, childReal));
        continue;
      }
      const language = detectLanguage(childRel);
      if (entry.isFile && language === "unknown" && entry.name.lastIndexOf(".") <= 0) {
        // A name that says nothing (needsShebang): the first line may.
        pending.push(this.addFile(childAbs, childRel, childReal, { explicit: false, viaLink: false, regular: true }));
      } else this.#record(childAbs, childRel, childReal, language, false, false);
    }
    await Promise.all(pending);
  }

  #record(abs: string, rel: string, real: string, language: Language, explicit: boolean, viaLink: boolean): void {
    if (language === "unknown") {
      // A template dialect (.j2, .tmpl, ...) or a notebook is a decision worth reporting on every walk, not a silent
      // omission.
      const skip = templateExtensionSkip(rel) ?? notebookSkip(rel);
      if (skip) {
        this.entries.push({ rec: { kind: "skip", path: abs, relPath: rel, skip }, real, viaLink });
        return;
      }
    }
    if (language === "unknown" && !explicit && !this.#opts.includeUnknown) return;
    if (!this.#languages.has(language)) {
      this.#languages.add(language);
      this.#opts.onLanguage?.(language);
    }
    this.entries.push({ rec: { kind: "file", path: abs, relPath: rel, language, explicit }, real, viaLink });
  }

  /** A symbolic link found in a walk: followed (directories later), or a skip when it leads nowhere. */
  async #link(dir: { abs: string; rel: string; real: string; layers: Layer[] }, entry: Deno.DirEntry): Promise<void> {
    this.#linked = true;
    const childAbs = join(dir.abs, entry.name);
    const childRel = dir.rel === "." ? entry.name : `${dir.rel}/${entry.name}`;
    let target: Deno.FileInfo;
    try {
      target = await this.#limit(() => Deno.stat(childAbs));
    } catch (error) {
      if (await this.excluded(dir.layers, childAbs, false)) return;
      const skip = await linkProblem(childAbs, error);
      this.entries.push({ rec: { kind: "skip", path: childAbs, relPath: childRel, skip } });
      return;
    }
    if (await this.excluded(dir.layers, childAbs, target.isDirectory)) return;
    if (target.isDirectory) {
      this.#deferred.push({ abs: childAbs, rel: childRel, layers: dir.layers, parentReal: dir.real });
    } else {
      const flags = { explicit: false, viaLink: true, regular: target.isFile };
      await this.addFile(childAbs, childRel, await realPath(childAbs), flags);
    }
  }

  /** Walks a directory reached through the start path itself (possibly a link). */
  async walkRoot(abs: string, rel: string, layers: readonly Layer[]): Promise<void> {
    await this.walkDir(abs, rel, layers, await realPath(abs));
  }

  #nextLink(): Deferred | undefined {
    this.#deferred.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
    return this.#deferred.shift();
  }

  /** Walks linked directories last: a link to a directory already walked becomes a skip, so loops end. */
  async drainLinks(): Promise<void> {
    // Links are found concurrently; walking them in relPath order keeps "who is first" stable.
    for (let link = this.#nextLink(); link; link = this.#nextLink()) {
      this.#opts.signal?.throwIfAborted();
      const real = await realPath(link.abs);
      const seenAs = this.#seen.get(real);
      if (seenAs === undefined) {
        await this.walkDir(link.abs, link.rel, link.layers, real);
        continue;
      }
      const loop = link.parentReal === real || link.parentReal.startsWith(real.endsWith("/") ? real : `${real}/`);
      const skip = loop
        ? `symbolic link loop: it points to "${seenAs}", a directory that contains it`
        : `symbolic link to "${seenAs}", which is already discovered under that name`;
      this.entries.push({ rec: { kind: "skip", path: link.abs, relPath: link.rel, skip } });
    }
  }
}
