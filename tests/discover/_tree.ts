/**
 * Fixture trees for discovery tests: committed trees copied to a temporary
 * directory (with `_gitignore` renamed to `.gitignore`), and trees written from
 * a plain description.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { copyFixture } from "../_helpers/cli.ts";
import type { Candidate } from "../../lib/discover/mod.ts";
import { tempDir } from "../_helpers/temp.ts";

/** Copies `fixtures/discover/<name>` to a temporary directory, renaming `_gitignore` files. */
export async function fixtureTree(name: string): Promise<string> {
  const root = await copyFixture(`discover/${name}`);
  await renameAll(root);
  return root;
}

async function renameAll(dir: string): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) await renameAll(path);
    else if (entry.name === "_gitignore") await Deno.rename(path, join(dir, ".gitignore"));
  }
}

/** Writes `files` (relative path → content) under a fresh temporary directory and returns it. */
export async function makeTree(files: Record<string, string | Uint8Array>): Promise<string> {
  const root = await tempDir({ prefix: "poly-discover-" });
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    await Deno.mkdir(dirname(path), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(path, content);
    else await Deno.writeFile(path, content);
  }
  return root;
}

/** A compact, comparable view of records: `relPath language` / `relPath skip: …` / `relPath error: …`. */
export function describe(records: Candidate[]): string[] {
  return records.map((r) => {
    if (r.kind === "file") return `${r.relPath} ${r.language}${r.explicit ? " (explicit)" : ""}`;
    if (r.kind === "skip") return `${r.relPath} skip: ${r.skip}`;
    return `${r.relPath} error: ${r.error}`;
  });
}

/** Whether the tests run as root (permission bits do not stop root). */
export const IS_ROOT = Deno.uid() === 0;
