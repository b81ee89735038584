/**
 * What main.ts found when it chose how to load the program (lib/identity/launch.ts), kept where both copies of
 * the identity modules see it: the launcher's, loaded from source, and the program's, which may be a bundle's.
 * Imports nothing.
 *
 * @module
 */

/** How this process's program was loaded. */
export interface Launch {
  /** The checkout main.ts belongs to. */
  root: string;
  /** The code stamp main.ts took to choose (lib/identity/code.ts `sourceStamp`), when it took one. */
  stamp?: readonly string[];
  /** The bundle's folder, when the program runs from one. */
  bundle?: string;
}

const KEY = Symbol.for("poly.launch");

/** What main.ts recorded, or undefined (a test, a worker, a compiled binary: the program runs as its modules are). */
export function launched(): Launch | undefined {
  return (globalThis as { [KEY]?: Launch })[KEY];
}

/** Records how the program is loaded (main.ts, before it loads it). */
export function recordLaunch(launch: Launch): void {
  (globalThis as { [KEY]?: Launch })[KEY] = launch;
}
