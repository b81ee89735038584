/**
 * Directory listings of one run, each directory listed once: discovery walks
 * every directory of the tree and the configuration's native readers look at
 * the same directories for the files they read (`package.json`, `biome.json`,
 * `.editorconfig`, ...), so a run that shares one {@link Listings} between them
 * (lib/run) lists a directory once, not twice. A listing is taken when first
 * asked for and kept for the run; the next run (a daemon's too) makes its own.
 *
 * @module
 */

/** The listings of one run. */
export class Listings {
  readonly #memo = new Map<string, Deno.DirEntry[] | { error: unknown }>();

  /**
   * `dir`'s entries, listed the first time it is asked for; throws what
   * `Deno.readDirSync` threw then (every time it is asked). Synchronous: an async
   * directory iterator costs one promise hop per entry, ~3× the whole read.
   */
  entries(dir: string): Deno.DirEntry[] {
    let found = this.#memo.get(dir);
    if (!found) {
      try {
        found = [...Deno.readDirSync(dir)];
      } catch (error) {
        found = { error };
      }
      this.#memo.set(dir, found);
    }
    if ("error" in found) throw found.error;
    return found;
  }
}
