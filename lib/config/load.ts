/**
 * Loading the effective configuration for a directory: the cascade of
 * `poly.toml` files (anchor or `root = true` down to the directory), each with
 * its `extends` bases underneath and its `poly.local.toml` on top, merged and
 * validated, then fingerprinted. Never touches the network: git bases are read
 * from the checkouts recorded in `poly-config.lock`.
 *
 * @module
 */
import { dirname, join, relative, resolve, sep } from "node:path";
import { ConfigError } from "../errors/mod.ts";
import { type CascadeLevel, CONFIG_FILE, ConfigFinder, isInside, LOCAL_CONFIG_FILE } from "./_walk.ts";
import { expandExtends, type GitResolver } from "./_extends.ts";
import { checkoutDir, findLockEntry, LOCK_FILE, type LockEntry, readLock } from "./lock.ts";
import { type Layer, mergeLayers } from "./merge.ts";
import { errorAt } from "./parse.ts";
import { fingerprint } from "./fingerprint.ts";
import { safeParse } from "./valid.ts";
import type { PolyConfig } from "./schema.ts";
import type { ConfigSet, OpenConfigOptions, ResolvedConfig } from "./types.ts";
import { NATIVE_NAMES, NativeConfigs } from "./native/mod.ts";
import { Listings } from "../fs/listing.ts";

/** Whether the file systems of this platform usually fold case (a `stat` of `poly.toml` finds `Poly.toml` there). */
const FOLDS_CASE = Deno.build.os !== "linux";

/** Whether a listing holds a name, as a `stat` of it in that directory would find it. */
function holder(names: ReadonlySet<string>): (name: string) => boolean {
  if (!FOLDS_CASE) return (name) => names.has(name);
  const folded = new Set([...names].map((n) => n.toLowerCase()));
  return (name) => folded.has(name.toLowerCase());
}

/**
 * The names of the entries configuration is read from: poly's files, an engines' own
 * (`package.json` among them) and a nested repository's `.git` (case-folded where
 * file systems fold case). A directory holding none of them is configured exactly
 * as its parent.
 */
const CONFIGURING: ReadonlySet<string> = new Set(
  [CONFIG_FILE, LOCAL_CONFIG_FILE, ".git", ...NATIVE_NAMES].map((name) => FOLDS_CASE ? name.toLowerCase() : name),
);

/** Whether an entry of a directory is named like one configuration is read from ({@link CONFIGURING}). */
const configuring = (name: string) => CONFIGURING.has(FOLDS_CASE ? name.toLowerCase() : name);

/**
 * Opens the configuration for a run started in `options.cwd`.
 *
 * @example
 * ```ts
 * const configs = await openConfig({ cwd: Deno.cwd() });
 * const config = await configs.forDir(Deno.cwd());
 * console.log(config.hash, config.data.defaults.line_length);
 * ```
 */
export async function openConfig(options: OpenConfigOptions): Promise<ConfigSet> {
  const cwd = resolve(options.cwd);
  const finder = new ConfigFinder(cwd);
  const explicit = options.explicit === undefined ? undefined : resolve(cwd, options.explicit);
  const anchor = await finder.anchorFor(cwd);
  finder.repository = anchor;
  const locks = new Map<string, Promise<LockEntry[] | undefined>>();
  const byDir = new Map<string, Promise<ResolvedConfig>>();
  const byChain = new Map<string, Promise<ResolvedConfig>>();
  const listings = new Listings();
  const native = new NativeConfigs(anchor, finder.display, listings, (dir) => finder.anchorFor(dir));
  // Inside the repository, the folders configuration is asked for are listed by the native readers anyway
  // (compared as a `stat` finds names: case-folded where file systems fold case).
  const inAnchor = anchor.endsWith(sep) ? anchor : anchor + sep;
  finder.listing = (dir) =>
    dir === anchor || dir.startsWith(inAnchor)
      ? native.entryNames(dir).then((names) => names && holder(names))
      : undefined;

  const lockIn = (dir: string) => {
    let lock = locks.get(dir);
    if (!lock) {
      lock = readLock(dir, finder.display);
      locks.set(dir, lock);
    }
    return lock;
  };

  // Without any config file, the directory that anchors defaults (such as `[rules] dirs`)
  // is the repository anchor governing `absDir`: the set's own anchor when `absDir` lies
  // inside it (and is not itself the root of a nested repository).
  const anchorOf = async (absDir: string): Promise<string> => {
    const found = await finder.anchorFor(absDir);
    if (found !== absDir || absDir === anchor) return found;
    const inside = absDir.startsWith(inAnchor);
    const ownGit = (await finder.kind(join(absDir, ".git"))) !== undefined;
    return inside && !ownGit ? anchor : found;
  };

  const resolveDir = async (absDir: string): Promise<ResolvedConfig> => {
    const levels = explicit ? [await finder.explicit(explicit)] : await finder.cascade(absDir);
    const key = levels.flatMap((l) => l.files.map((f) => f.path)).join("\n") || `(none) ${await anchorOf(absDir)}`;
    let found = byChain.get(key);
    if (!found) {
      const top = levels[0]?.dir ?? await anchorOf(absDir);
      found = assemble(levels, top, finder, (dir) => readOnlyGit(dir, lockIn, finder.display));
      byChain.set(key, found);
    }
    return found;
  };

  // Open eagerly enough that an invalid --config file fails at open time.
  if (explicit) await finder.explicit(explicit);

  // A directory inside the repository holding none of the files configuration is read from has its parent's
  // cascade, anchor and native layer: its parent's configuration, without probing its own (a monorepo walks
  // hundreds of such directories).
  const ownOrParent = async (dir: string): Promise<ResolvedConfig> => {
    const up = dirname(dir);
    if (up !== dir && dir !== anchor && isInside(anchor, up) && !(await native.holdsAny(dir, configuring))) {
      return await set.forDir(up);
    }
    return await native.apply(dir, await resolveDir(dir));
  };

  const set: ConfigSet = {
    anchor,
    listings,
    forDir(absDir: string): Promise<ResolvedConfig> {
      // A run asks once per file, for a few hundred directories: the path as given is looked up
      // before it is resolved (resolving it costs more than the lookup).
      let found = byDir.get(absDir);
      if (found) return found;
      const dir = resolve(cwd, absDir);
      found = byDir.get(dir) ?? ownOrParent(dir);
      byDir.set(dir, found);
      byDir.set(absDir, found);
      return found;
    },
  };
  return set;
}

/** Git bases when reading config: the lock beside the declaring file, then the cache; never the network. */
function readOnlyGit(
  lockDir: string,
  lockIn: (dir: string) => Promise<LockEntry[] | undefined>,
  display: (path: string) => string,
): GitResolver {
  return async (base, file, index) => {
    const entry = findLockEntry((await lockIn(lockDir)) ?? [], base.git, base.revision);
    const what = `git base "${base.git}"${base.revision ? ` at revision "${base.revision}"` : ""}`;
    if (!entry) {
      throw errorAt(
        file,
        ["extends", index],
        `${what} is not pinned in "${display(join(lockDir, LOCK_FILE))}": run "poly config update"`,
      );
    }
    const dir = checkoutDir(entry.commit);
    try {
      if ((await Deno.stat(dir)).isDirectory) return dir;
    } catch {
      // Missing: reported below.
    }
    throw errorAt(
      file,
      ["extends", index],
      `${what} (commit ${entry.commit.slice(0, 12)}) is not in the cache: run "poly config update"`,
    );
  };
}

/**
 * Merges the levels (each file with its extends bases underneath) into one
 * ResolvedConfig. `top` anchors defaults such as `[rules] dirs`.
 */
export async function assemble(
  levels: readonly CascadeLevel[],
  top: string,
  finder: ConfigFinder,
  gitFor: (lockDir: string) => GitResolver,
): Promise<ResolvedConfig> {
  const layers: Layer[] = [];
  const sources: string[] = [];
  for (const level of levels) {
    for (const file of level.files) {
      for (const part of await expandExtends(file, finder, gitFor(level.dir))) {
        layers.push({ raw: part.raw, base: level.dir });
        if (!sources.includes(part.path)) sources.push(part.path);
      }
    }
  }
  const merged = mergeLayers(layers);
  const parsed = await safeParse<PolyConfig>("config", merged.raw);
  const nearest = levels.at(-1);
  const file = nearest?.files.at(-1);
  if (!parsed.success) {
    const detail = `the merged configuration is invalid: ${parsed.error.issues[0]?.message ?? "unknown problem"}`;
    throw file ? errorAt(file, [], detail) : new ConfigError({ file: "poly.toml" }, detail);
  }
  const dir = nearest?.dir ?? top;
  const data = parsed.data;
  const rulesDirs = merged.rulesDirs ?? data.rules.dirs.map((d) => resolve(top, d));
  // Per distinct directory (a few), not per entry: a [per-file-ignores] table may hold 100,000 globs.
  const relOf = new Map<string, string>();
  const rel = (path: string) => {
    let out = relOf.get(path);
    if (out === undefined) relOf.set(path, out = relative(dir, path).split(sep).join("/") || ".");
    return out;
  };
  const hash = fingerprint({
    data,
    excludes: merged.excludes.map((e) => ({ pattern: e.pattern, base: rel(e.base) })),
    perFileIgnores: merged.perFileIgnores.map((e) => ({ ...e, base: rel(e.base) })),
    rulesDirs: rulesDirs.map(rel),
  });
  return {
    hash,
    sources,
    dir,
    ...(file ? { file: file.path } : {}),
    data,
    excludes: merged.excludes,
    perFileIgnores: merged.perFileIgnores,
    rulesDirs,
  };
}
