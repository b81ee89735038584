/**
 * Expanding `extends`: a file's bases (depth first, in the order listed) come
 * before the file itself, so the file overrides them. Local paths resolve
 * relative to the file; git bases come from a resolver (the lock and cache when
 * reading config; `git` itself only in `poly config update`). Cycles are errors.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { type ConfigFile, errorAt } from "./parse.ts";
import { type ConfigFinder, isInside } from "./_walk.ts";
import type { ExtendsValue, GitBaseValue } from "./schema.ts";

/** Finds the checkout directory of a git base; throws ConfigError at `file`'s `extends[index]`. */
export type GitResolver = (base: GitBaseValue, file: ConfigFile, index: number) => Promise<string>;

/** Returns `file`'s bases (recursively) followed by `file` itself, farthest first. */
export function expandExtends(file: ConfigFile, finder: ConfigFinder, git: GitResolver): Promise<ConfigFile[]> {
  return expand(file, finder, git, [], undefined);
}

async function expand(
  file: ConfigFile,
  finder: ConfigFinder,
  git: GitResolver,
  stack: string[],
  checkout: string | undefined,
): Promise<ConfigFile[]> {
  const out: ConfigFile[] = [];
  const entries = (file.raw.extends as ExtendsValue[] | undefined) ?? [];
  const chain = [...stack, file.path];
  for (const [index, entry] of entries.entries()) {
    let target: string;
    let root = checkout;
    if (typeof entry === "string") {
      target = resolve(dirname(file.path), entry);
      if (checkout && !isInside(checkout, target)) {
        throw errorAt(file, ["extends", index], `extends base "${entry}" lies outside the git base it is listed in`);
      }
      if ((await finder.kind(target)) !== "file") {
        throw errorAt(
          file,
          ["extends", index],
          `extends base "${entry}" not found: no file at "${finder.display(target)}"`,
        );
      }
    } else {
      root = await git(entry, file, index);
      target = resolve(root, entry.file);
      if (!isInside(root, target)) {
        throw errorAt(
          file,
          ["extends", index],
          `extends base file "${entry.file}" lies outside git base "${entry.git}"`,
        );
      }
      if ((await finder.kind(target)) !== "file") {
        throw errorAt(
          file,
          ["extends", index],
          `extends base file "${entry.file}" not found in git base "${entry.git}"`,
        );
      }
    }
    const seen = chain.indexOf(target);
    if (seen >= 0) {
      const cycle = [...chain.slice(seen), target].map(finder.display).join(" -> ");
      throw errorAt(file, ["extends", index], `extends cycle: ${cycle}`);
    }
    out.push(...await expand(await finder.read(target), finder, git, chain, root));
  }
  out.push(file);
  return out;
}
