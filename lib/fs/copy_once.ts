/**
 * Copying a set of files to a folder once, for the native programs a compiled
 * poly carries in its embedded file system (where neither the kernel nor Node
 * can run or read them): biome's command line, oxlint, ast-grep's command line.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isFile } from "./is_file.ts";

/** One file to copy: its source, its path below the destination (`/`-separated), whether it is a program. */
export interface CopyItem {
  from: URL;
  to: string;
  executable?: boolean;
}

/**
 * Copies `items` to `dest` unless a finished copy is there (marked by a
 * `.complete` file holding `version`): into a private sibling folder first, then
 * renamed into place, so no process ever sees half a copy. When another process
 * finishes first, its copy is used. Throws when no finished copy could be made.
 */
export async function copyOnce(dest: string, version: string, items: readonly CopyItem[]): Promise<void> {
  const marker = join(dest, ".complete");
  if (await isFile(marker)) return;
  const tmp = `${dest}.tmp-${crypto.randomUUID().slice(0, 8)}`;
  try {
    for (const item of items) {
      const target = join(tmp, ...item.to.split("/"));
      await Deno.mkdir(dirname(target), { recursive: true });
      const bytes = await Deno.readFile(fileURLToPath(item.from));
      await Deno.writeFile(target, bytes, item.executable ? { mode: 0o755 } : {});
      // The mode given at creation is narrowed by the umask.
      if (item.executable && Deno.build.os !== "windows") await Deno.chmod(target, 0o755);
    }
    await Deno.writeTextFile(join(tmp, ".complete"), version);
    await Deno.rename(tmp, dest);
  } catch (error) {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    // Another process finished first: use its copy.
    if (!(await isFile(marker))) throw error;
  }
}
