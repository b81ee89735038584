/**
 * Helpers for the rules tests: the fixture repository's files as engine inputs,
 * and temporary rule packs.
 *
 * @module
 */
import { join, relative } from "node:path";
import { detectLanguage } from "../../lib/discover/mod.ts";
import type { ScanFile } from "../../lib/engines/ast_grep/select.ts";
import { REPO } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";

/** The fixture repository every language appears in. */
export const FIXTURE_REPO = join(REPO, "fixtures", "rules", "repo");

/** Golden files of these tests. */
export const GOLDEN = join(REPO, "tests", "rules", "golden");

/** A file of a directory, as the engine receives it. */
export interface RepoFile extends ScanFile {
  relPath: string;
}

/** Every file under `root` (skipping `.poly/`), sorted, with its detected language. */
export async function repoFiles(root: string): Promise<RepoFile[]> {
  const out: RepoFile[] = [];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) {
        if (entry.name !== ".poly") await walk(path);
        continue;
      }
      const text = await Deno.readTextFile(path);
      const relPath = relative(root, path).replaceAll("\\", "/");
      out.push({ path, relPath, language: detectLanguage(path, text.split("\n")[0]), text });
    }
  }
  await walk(root);
  return out.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
}

/** Writes `files` (relative path → text) under a fresh temporary directory and returns it. */
export async function tempTree(files: Record<string, string>): Promise<string> {
  const dir = await tempDir({ prefix: "poly-rules-" });
  for (const [rel, text] of Object.entries(files)) {
    const path = join(dir, rel);
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
  return dir;
}
