/**
 * Directory listings, each directory listed once: discovery walks every
 * directory of the tree and the configuration's native readers look at the same
 * directories for the files they read (`package.json`, `biome.json`,
 * `.editorconfig`, ...), so the configuration holds one {@link Listings}
 * (lib/config/load.ts) and a run's discovery shares it (lib/run): a directory is
 * listed once, not twice. A listing is taken when first asked for and kept as
 * long as the configuration is: one run, or, in a `poly daemon`, as long as its
 * memo keeps the configuration, which is while no entry of the tree is created,
 * removed or renamed.
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
