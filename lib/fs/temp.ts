/**
 * poly's private temporary folders: the copies, links and generated configurations its engines' processes work in
 * (biome's native processes, rustfmt, shellcheck, ast-grep), a pre-commit export, the daemon's markers.
 *
 * They go to the operating system's temporary directory (`TMPDIR`) as usual. Where poly cannot make a folder there —
 * a `TMPDIR` below `/dev`, `/proc` or `/sys` (`/dev/shm` is a common choice), which Deno opens only to a program
 * allowed everything, or a folder that is missing or read-only — they go to `tmp/` in poly's cache home instead, for
 * the rest of the process, rather than every engine that needs one failing with Deno's advice to run with
 * `--allow-all`. The callers remove what they make ({@link removeTemp}); what is still there when a signal ends poly
 * is removed then (lib/process/ending.ts), after the processes working in it are stopped.
 *
 * @module
 */
import { join } from "../paths/path.ts";
import { cacheHome } from "../paths/mod.ts";
import { removeWithPoly } from "../process/ending.ts";

/** Each folder or file made and not removed yet → how to stop removing it when a signal ends poly. */
const live = new Map<string, () => void>();

/** Keeps `path` among what a signal ending poly removes, until {@link removeTemp} removes it. */
function kept(path: string): string {
  live.set(path, removeWithPoly(path));
  return path;
}

/** Removes a folder (with everything in it) or file {@link makeTempDir} or {@link makeTempFile} made. */
export async function removeTemp(path: string): Promise<void> {
  await Deno.remove(path, { recursive: true }).catch(() => {});
  forget(path);
}

/** {@link removeTemp}, synchronously. */
export function removeTempSync(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch {
    // gone already
  }
  forget(path);
}

function forget(path: string): void {
  live.get(path)?.();
  live.delete(path);
}

/** The folder that took the place of the OS temporary directory, once it refused one. */
let fallback: string | undefined;

/** Where the folders go when the OS temporary directory refuses them. */
function fallbackTempDir(): string {
  return join(cacheHome(), "tmp");
}

/** Turns to poly's own folder once the OS one refused with `error` (rethrown when poly's cannot be made either). */
function fallBack(error: unknown): void {
  const dir = fallbackTempDir();
  try {
    Deno.mkdirSync(dir, { recursive: true });
  } catch {
    throw error; // neither place: the OS directory's reason
  }
  fallback = dir;
}

/** `make` in the OS temporary directory, or (once that refused) in poly's own. */
async function made(make: (dir?: string) => Promise<string>): Promise<string> {
  if (fallback === undefined) {
    try {
      return await make();
    } catch (error) {
      fallBack(error);
    }
  }
  return await make(fallback);
}

/** A new private folder (`prefix` + random characters), in the OS temporary directory or poly's own (see above). */
export function makeTempDir(prefix: string): Promise<string> {
  return made((dir) => Deno.makeTempDir({ prefix, dir })).then(kept);
}

/** A new private file (`prefix` + random characters), where {@link makeTempDir} makes folders. */
export function makeTempFile(prefix: string): Promise<string> {
  return made((dir) => Deno.makeTempFile({ prefix, dir })).then(kept);
}

/** {@link makeTempDir}, synchronously. */
export function makeTempDirSync(prefix: string): string {
  if (fallback === undefined) {
    try {
      return kept(Deno.makeTempDirSync({ prefix }));
    } catch (error) {
      fallBack(error);
    }
  }
  return kept(Deno.makeTempDirSync({ prefix, dir: fallback }));
}
