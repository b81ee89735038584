/**
 * Ignore files' patterns as a native tool matches them: gitignore patterns rooted at a configuration's folder (oxfmt's
 * and oxlint's `ignorePatterns`, a `.prettierignore`), each list compiled once.
 *
 * @module
 */
import ignore, { type Ignore } from "ignore";
import { relativeInside } from "../../paths/inside.ts";

/** One file's patterns, relative to the folder of the configuration that lists them. */
export interface IgnoreList {
  /** The file that lists them (absolute). */
  file: string;
  patterns: string[];
}

const compiled = new Map<string, Ignore>();

/**
 * The first of `lists` whose patterns, rooted at `root`, match `absPath`; undefined for a path outside `root`. Both
 * paths absolute and normalised (asked for every file of a run: a prefix test, `relativeInside`).
 */
export function ignoredBy(lists: readonly IgnoreList[], root: string, absPath: string): IgnoreList | undefined {
  const rel = relativeInside(root, absPath);
  if (rel === undefined) return undefined;
  return lists.find(({ patterns }) => {
    const key = patterns.join("\0");
    let list = compiled.get(key);
    if (!list) compiled.set(key, list = ignore().add(patterns));
    return list.ignores(rel);
  });
}
