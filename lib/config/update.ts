/**
 * `poly config update`: fetches every git extends base reachable from the
 * configs governing a directory, pins each to a commit in `poly-config.lock`
 * beside the file declaring it, and checks the commits out into the cache so
 * that reading config never needs the network.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { ConfigFinder } from "./_walk.ts";
import { expandExtends } from "./_extends.ts";
import { fetchGitBase, GitFailure } from "./_git.ts";
import { LOCK_FILE, type LockEntry, renderLock, writeLock } from "./lock.ts";
import { errorAt } from "./parse.ts";

/** Options for {@link updateConfigLock}. */
export interface UpdateOptions {
  /** The directory whose governing configs are updated. */
  cwd: string;
  /** `--config PATH`: update that file's bases instead of the cascade's. */
  explicit?: string;
}

/** One lock file written (or left alone because nothing declares a git base there). */
export interface LockUpdate {
  /** Absolute path of the lock file. */
  path: string;
  /** The pinned bases, sorted as written. */
  entries: LockEntry[];
  /** Whether the file changed. */
  changed: boolean;
}

/** Resolves git bases and writes lock files; returns one record per directory with git bases. */
export async function updateConfigLock(options: UpdateOptions): Promise<LockUpdate[]> {
  const cwd = resolve(options.cwd);
  const finder = new ConfigFinder(cwd);
  finder.repository = await finder.anchorFor(cwd);
  const levels = options.explicit ? [await finder.explicit(resolve(cwd, options.explicit))] : await finder.cascade(cwd);
  const updates: LockUpdate[] = [];
  for (const level of levels) {
    const entries: LockEntry[] = [];
    for (const file of level.files) {
      await expandExtends(file, finder, async (base, from, index) => {
        try {
          const { commit, dir } = await fetchGitBase(base.git, base.revision, dirname(from.path));
          if (!entries.some((e) => e.git === base.git && e.revision === base.revision)) {
            entries.push(
              base.revision === undefined
                ? { git: base.git, commit }
                : { git: base.git, revision: base.revision, commit },
            );
          }
          return dir;
        } catch (error) {
          if (!(error instanceof GitFailure)) throw error;
          throw errorAt(from, ["extends", index], `cannot fetch git base "${base.git}": ${error.message}`);
        }
      });
    }
    const path = resolve(level.dir, LOCK_FILE);
    const before = await Deno.readTextFile(path).catch(() => undefined);
    if (entries.length === 0 && before === undefined) continue;
    const changed = before !== renderLock(entries);
    if (changed) await writeLock(level.dir, entries);
    updates.push({ path, entries, changed });
  }
  return updates;
}
