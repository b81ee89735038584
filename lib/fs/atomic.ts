/**
 * Atomic file writes: the new content goes to a temporary file in the same
 * directory, is flushed, given the original file's mode, and renamed over the
 * target. A crash at any point leaves either the old file or the new one, never
 * a half-written one.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";

/** Options for {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** File mode for a new file (an existing file keeps its own mode). */
  mode?: number;
}

/** Writes `data` to `path` atomically (temporary file + rename), preserving an existing file's mode. */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  // Write through a symbolic link to its target, rather than replacing the link with a file.
  path = await Deno.realPath(path).catch(() => path);
  let mode = options.mode;
  try {
    const info = await Deno.stat(path);
    if (info.mode !== null) mode = info.mode & 0o7777;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const tmp = join(dirname(path), `.${basename(path)}.poly-${crypto.randomUUID().slice(0, 8)}.tmp`);
  const file = await Deno.open(tmp, { write: true, createNew: true, mode: mode ?? 0o644 });
  try {
    let written = 0;
    while (written < bytes.length) written += await file.write(bytes.subarray(written));
    await file.sync();
  } catch (e) {
    file.close();
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
  file.close();
  try {
    if (mode !== undefined && Deno.build.os !== "windows") await Deno.chmod(tmp, mode);
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}
