/**
 * `discover()`: turns the paths of a run into sorted file records.
 *
 * @module
 */
import { dirname, join, posix, resolve } from "node:path";
import type { Layer } from "./_ignore.ts";
import { goModuleLayer, loadLayer } from "./_ignore.ts";
import { relativeInside } from "../paths/inside.ts";
import { isFile } from "../fs/is_file.ts";
import type { Entry } from "./_walker.ts";
import { Walker } from "./_walker.ts";
import { linkProblem, realPath } from "./_fs.ts";
import { readError } from "./content.ts";
import type { Candidate, DiscoverOptions } from "./types.ts";

/**
 * Finds the files a run should process, sorted by `relPath` (code-unit order),
 * one record per path.
 *
 * - Directories are walked; `.git` is always skipped; `.gitignore` files at every
 *   level and `.git/info/exclude` apply, as do `[discovery] exclude` (per directory,
 *   through `configFor`) and `exclude` (relative to `cwd`). Excluded paths are
 *   left out silently; walked files of unknown language too.
 * - Paths named explicitly are included even when ignored or excluded, unless the
 *   governing config sets `force_exclude` (then they become skips naming the pattern).
 * - Symbolic links are followed; a link to a directory already walked (a loop or a
 *   second name) becomes a skip, so walks always end; a dangling link is a skip.
 * - A named path that does not exist, or a directory that cannot be read, is an error record.
 *
 * @example
 * ```ts
 * const records = await discover({ cwd: Deno.cwd(), paths: ["src"], exclude: ["*.gen.ts"] });
 * for (const r of records) if (r.kind === "file") console.log(r.relPath, r.language);
 * ```
 */
export async function discover(options: DiscoverOptions): Promise<Candidate[]> {
  const cwd = resolve(options.cwd);
  const walker = new Walker(options, cwd);
  const chains = new LayerChains(cwd);
  const paths = options.paths.length > 0 ? options.paths : ["."];
  for (const given of paths) {
    options.signal?.throwIfAborted();
    await start(walker, chains, cwd, given);
  }
  await walker.drainLinks();
  return finish(walker.entries, walker.linked);
}

async function start(walker: Walker, chains: LayerChains, cwd: string, given: string): Promise<void> {
  const abs = resolve(cwd, given);
  const rel = displayPath(cwd, given, abs);
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(abs);
  } catch (error) {
    const message = error instanceof Deno.errors.NotFound ? "path does not exist" : readError(error);
    walker.entries.push({ rec: { kind: "error", path: abs, relPath: rel, error: message } });
    return;
  }
  let target = info;
  if (info.isSymlink) {
    try {
      target = await Deno.stat(abs);
    } catch (error) {
      walker.entries.push({ rec: { kind: "skip", path: abs, relPath: rel, skip: await linkProblem(abs, error) } });
      return;
    }
  }
  const layers = await chains.above(abs);
  // A repository's root is governed by its own configuration, not by the folder it sits in (whose
  // configuration, outside the repository, can be a costly read: a home or /tmp of thousands of entries).
  const governedByParent = !(target.isDirectory && await isRepoRoot(abs));
  if (governedByParent && (await walker.config(dirname(abs))).forceExclude) {
    const reason = await walker.excludedWithParents(layers, abs, target.isDirectory);
    if (reason) {
      walker.entries.push({
        rec: { kind: "skip", path: abs, relPath: rel, skip: `${reason} ([discovery] force_exclude)` },
      });
      return;
    }
  }
  if (target.isDirectory) await walker.walkRoot(abs, rel, layers);
  else {
    await walker.addFile(abs, rel, await realPath(abs), {
      explicit: true,
      viaLink: info.isSymlink,
      regular: target.isFile,
    });
  }
}

/** How a path is shown: relative to `cwd` when inside it, else as it was given. */
export function displayPath(cwd: string, given: string, abs: string): string {
  if (abs === cwd) return ".";
  const inside = relativeInside(cwd, abs);
  if (inside !== undefined) return inside;
  const normal = posix.normalize(given.replaceAll("\\", "/"));
  return normal.length > 1 ? normal.replace(/\/$/, "") : normal;
}

/** gitignore layers for the directories above a start path, memoised per directory. */
class LayerChains {
  readonly #cwd: string;
  readonly #chains = new Map<string, Promise<Layer[]>>();
  constructor(cwd: string) {
    this.#cwd = cwd;
  }

  /**
   * Layers from the top down to `abs`'s parent. The top is the nearest repository
   * root (a `.git` entry) above; without one, `cwd` for paths inside it, else the
   * parent itself.
   */
  async above(abs: string): Promise<Layer[]> {
    const parent = dirname(abs);
    if (parent === abs) return [];
    return await this.#chain(parent, await this.#top(parent));
  }

  async #top(dir: string): Promise<string> {
    for (let d = dir;; d = dirname(d)) {
      if (await isRepoRoot(d)) return d;
      if (dirname(d) === d) break;
    }
    return dir === this.#cwd || relativeInside(this.#cwd, dir) !== undefined ? this.#cwd : dir;
  }

  #chain(dir: string, top: string): Promise<Layer[]> {
    const key = `${top}\0${dir}`;
    let found = this.#chains.get(key);
    if (!found) {
      found = this.#build(dir, top);
      this.#chains.set(key, found);
    }
    return found;
  }

  async #build(dir: string, top: string): Promise<Layer[]> {
    const layers = dir === top || dirname(dir) === dir ? [] : [...await this.#chain(dirname(dir), top)];
    if (await isRepoRoot(dir)) {
      const info = await loadLayer(dir, ".git/info/exclude", this.#cwd);
      if (info) layers.push(info);
    }
    if (await isFile(join(dir, "go.mod"))) layers.push(goModuleLayer(dir, this.#cwd));
    const own = await loadLayer(dir, ".gitignore", this.#cwd);
    if (own) layers.push(own);
    return layers;
  }
}

async function isRepoRoot(dir: string): Promise<boolean> {
  try {
    await Deno.lstat(join(dir, ".git"));
    return true;
  } catch {
    return false;
  }
}

/**
 * One record per relPath (an explicit file wins), link duplicates of a file turned into skips, sorted.
 * Without any link (`linked` false) every record's real path is its path: no duplicates, nothing marked.
 */
function finish(entries: Entry[], linked: boolean): Candidate[] {
  const byRel = new Map<string, Entry>();
  for (const entry of entries) {
    const had = byRel.get(entry.rec.relPath);
    if (!had || rank(entry) > rank(had)) byRel.set(entry.rec.relPath, entry);
  }
  // The default sort of strings is code-unit order ({@link compare}), without a call per comparison.
  const unique = [...byRel.keys()].sort().map((rel) => byRel.get(rel)!);
  if (!linked) return unique.map((entry) => entry.rec);
  const owner = new Map<string, string>();
  for (const e of unique) {
    if (e.rec.kind === "file" && e.real && !e.viaLink && !owner.has(e.real)) owner.set(e.real, e.rec.relPath);
  }
  for (const e of unique) if (e.rec.kind === "file" && e.real && !owner.has(e.real)) owner.set(e.real, e.rec.relPath);
  return unique.map(({ rec: found, real, viaLink }) => {
    // A file reached through a link (its real path is elsewhere) says so: its changes happen under another name.
    const rec = found.kind === "file" && (viaLink || (real !== undefined && real !== found.path))
      ? { ...found, linked: true as const }
      : found;
    if (rec.kind !== "file" || rec.explicit || !real) return rec;
    const first = owner.get(real);
    if (first === undefined || first === rec.relPath) return rec;
    return {
      kind: "skip",
      path: rec.path,
      relPath: rec.relPath,
      skip: `symbolic link to "${first}", which is checked under that name`,
    };
  });
}

function rank(entry: Entry): number {
  const rec = entry.rec;
  return rec.kind === "file" ? (rec.explicit ? 3 : 2) : rec.kind === "skip" ? 1 : 0;
}

/** Code-unit order: the same on every machine and locale. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
