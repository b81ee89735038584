/**
 * `poly-config.lock`: the commits git extends bases are pinned to. It sits beside
 * the poly.toml (or `--config` file) that declares the bases, is written only by
 * `poly config update`, and is what reading config uses instead of the network:
 * each pinned commit is checked out under `<cache home>/config-bases/<commit>`.
 *
 * @module
 */
import { join } from "node:path";
import { stringify } from "smol-toml";
import { cacheHome } from "../paths/mod.ts";
import { writeFileAtomic } from "../fs/atomic.ts";
import { tomlChecked } from "./parse.ts";
import { compareText } from "../report/sort.ts";

/** The lock file's name. */
export const LOCK_FILE = "poly-config.lock";

/** One pinned git base. */
export interface LockEntry {
  /** The repository as written in `extends`. */
  git: string;
  /** The revision as written in `extends` (absent: the remote's default branch). */
  revision?: string;
  /** The full commit id it resolved to. */
  commit: string;
}

/** Reads the lock in `dir`; undefined when there is none. Throws ConfigError when it is malformed. */
export async function readLock(dir: string, display: (path: string) => string): Promise<LockEntry[] | undefined> {
  const path = join(dir, LOCK_FILE);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  const raw = await tomlChecked("lock", text, display(path));
  return (raw.base as LockEntry[] | undefined) ?? [];
}

/** The entry pinning `git` at `revision`, if any. */
export function findLockEntry(entries: readonly LockEntry[], git: string, revision?: string): LockEntry | undefined {
  return entries.find((e) => e.git === git && e.revision === revision);
}

/** Where the checkout of `commit` lives. */
export function checkoutDir(commit: string): string {
  return join(cacheHome(), "config-bases", commit);
}

/** The lock file's text: a header comment, `version = 1` and one `[[base]]` per entry, sorted. */
export function renderLock(entries: readonly LockEntry[]): string {
  const sorted = [...entries].sort((a, b) => compareText(a.git, b.git) || compareText(a.revision, b.revision));
  const body = stringify({
    version: 1,
    base: sorted.map((e) => (e.revision === undefined ? { git: e.git, commit: e.commit } : { ...e })),
  });
  return `# poly-config.lock: git extends bases pinned by \`poly config update\`. Commit this file; do not edit it.\n\n${body}\n`;
}

/** Writes the lock in `dir` atomically. */
export async function writeLock(dir: string, entries: readonly LockEntry[]): Promise<string> {
  const path = join(dir, LOCK_FILE);
  await writeFileAtomic(path, renderLock(entries));
  return path;
}
