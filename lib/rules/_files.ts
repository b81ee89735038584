/**
 * Finding rule files: the built-in pack shipped beside this module (embedded in a
 * compiled binary with `deno compile --include lib/rules/builtin`) and the user's
 * rule directories.
 *
 * @module
 */
import { join } from "node:path";
import { sourcePath } from "../identity/code.ts";

/** One rule or test file found on disk. */
export interface RuleFileEntry {
  /** Absolute path to read. */
  path: string;
  /** The name reports show: absolute for user files, `builtin:<lang>/<file>` for the pack. */
  display: string;
}

/** The directory of the built-in pack. */
export const BUILTIN_DIR: string = sourcePath("lib/rules/builtin/");

/**
 * The built-in pack's files, sorted. Synchronous, as {@link userFiles}: a few
 * folders of small files, listed at once rather than one event-loop turn per
 * entry while a run's thread is busy discovering files.
 */
export function builtinFiles(): RuleFileEntry[] {
  const files = walk(BUILTIN_DIR);
  // Every path lies below BUILTIN_DIR (which ends in a separator): what relative() would give, without its cost.
  return files.map((path) => ({ path, display: `builtin:${path.slice(BUILTIN_DIR.length).replaceAll("\\", "/")}` }));
}

/**
 * The YAML files under a user rule directory, sorted. Skips ast-grep's snapshot
 * folders and its project file (`sgconfig.yml`). Throws NotFound when `dir` is missing.
 */
export function userFiles(dir: string): RuleFileEntry[] {
  const info = Deno.statSync(dir);
  if (!info.isDirectory) throw new Deno.errors.NotADirectory(`not a directory: ${dir}`);
  const files = walk(dir);
  return files.map((path) => ({ path, display: path }));
}

function walk(dir: string, depth = 0): string[] {
  const out: string[] = [];
  if (depth > 16) return out;
  const entries = [...Deno.readDirSync(dir)];
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const isDirectory = entry.isDirectory ||
      (entry.isSymlink && isDirectoryLink(path));
    if (isDirectory) {
      if (entry.name === "__snapshots__" || entry.name === "node_modules") continue;
      out.push(...walk(path, depth + 1));
    } else if (/\.ya?ml$/i.test(entry.name) && !/^sgconfig\.ya?ml$/i.test(entry.name)) {
      out.push(path);
    }
  }
  return out;
}

function isDirectoryLink(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false; // dangling: not a folder; a YAML name is read as a file, which reports the problem
  }
}

/** Whether a file name is named like a test file (`<id>-test.yml`). */
export function isTestFile(name: string): boolean {
  return /-test\.ya?ml$/i.test(name);
}
