/**
 * Builds small directory trees for config tests in a fresh temporary directory.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { tempDir } from "../_helpers/temp.ts";

/** Writes `files` (relative path → text) under a new temporary directory; `git: true` adds an empty `.git`. */
export async function makeTree(files: Record<string, string>, options: { git?: boolean } = {}): Promise<string> {
  const root = await Deno.realPath(await tempDir({ prefix: "poly-config-test-" }));
  if (options.git ?? true) await Deno.mkdir(join(root, ".git"));
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(root, path)), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
  return root;
}
