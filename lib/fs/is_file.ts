/**
 * Whether a path is a file, a link followed: the one such check poly has (a Go module's vendored `vendor/`, a Python
 * package's `__init__.py`, a copy's marker), false where the path does not exist or cannot be read.
 *
 * @module
 */

/** Whether `path` is a file (a link followed). */
export async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/** {@link isFile}, synchronously. */
export function isFileSync(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}
