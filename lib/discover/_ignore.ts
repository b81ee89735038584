/**
 * gitignore matching in layers: `.git/info/exclude`, then one layer per
 * `.gitignore` from the repository root down; `[discovery] exclude` and
 * `--exclude` patterns as ordered groups, each relative to its own base.
 *
 * @module
 */
import ignore from "ignore";
import { join, resolve } from "node:path";
import type { DiscoveryConfig, ExcludePattern } from "./types.ts";
import { relativeInside } from "../paths/inside.ts";
import { isFileSync } from "../fs/is_file.ts";

/** A compiled set of gitignore rules. */
type Ignore = ReturnType<typeof ignore>;

/** Match case-insensitively where git does by default (macOS, Windows). */
const IGNORE_CASE = Deno.build.os !== "linux";

/** One gitignore file's rules and the directory they are relative to. */
export interface Layer {
  dir: string;
  ig: Ignore;
  /** Where the rules came from, for messages: the file's path relative to the run's cwd. */
  label: string;
}

/** What excluded a path: the pattern and where it was declared. */
export interface Exclusion {
  pattern: string;
  source: string;
}

/** The outcome of testing one path against one set of rules. */
interface SelfResult {
  ignored: boolean;
  unignored: boolean;
  rule?: { pattern: string };
}

/** The rule matcher inside an `ignore` instance (7.x), which tests one path without its parents. */
interface RuleManager {
  test(path: string, mode: "regex"): SelfResult;
}

/**
 * Tests `rel` against the rules alone, without inheriting a verdict from its parent
 * directories: the walker has already decided the parents (it prunes excluded
 * directories, and walks an explicitly named one on purpose). `ignore`'s public
 * `test()` always folds parents in, so its rule manager is used directly; when a
 * future version lacks it, the public call is the (stricter) fallback.
 */
export function testSelf(ig: Ignore, rel: string): SelfResult {
  const rules = (ig as unknown as { _rules?: Partial<RuleManager> })._rules;
  if (typeof rules?.test === "function") return rules.test(rel, "regex");
  return ig.test(rel);
}

/**
 * Reads a gitignore-syntax file (`file` relative to `dir`) into a layer, or
 * undefined when it is absent or unreadable. `cwd` only shapes the label.
 */
export async function loadLayer(dir: string, file: string, cwd: string): Promise<Layer | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(join(dir, file));
  } catch {
    return undefined;
  }
  const path = join(dir, file);
  return { dir, label: relativeInside(cwd, path) ?? path, ig: ignore({ ignorecase: IGNORE_CASE }).add(text) };
}

/**
 * The go tool's own exclusions in the Go module whose `go.mod` is in `dir`: `go fmt ./...` and `go vet ./...` never
 * reach a `testdata` folder (at any depth: test inputs and golden files `go test` compares byte for byte), nor the
 * module's `vendor/` where `vendor/modules.txt` makes it the module's copies of its dependencies. poly leaves them
 * alone too; a `.gitignore` beside the `go.mod` can take them back (`!testdata/`).
 */
export function goModuleLayer(dir: string, cwd: string): Layer {
  const path = join(dir, "go.mod");
  const vendored = isFileSync(join(dir, "vendor", "modules.txt"));
  return {
    dir,
    label: `${relativeInside(cwd, path) ?? path} (the go tool's ./... leaves it alone)`,
    ig: ignore({ ignorecase: IGNORE_CASE }).add([...(vendored ? ["/vendor/"] : []), "testdata/"]),
  };
}

/**
 * Whether gitignore layers exclude `abs`: the deepest layer with an opinion
 * wins (a deeper `!pattern` re-includes what a shallower file ignored).
 */
export function gitignored(layers: readonly Layer[], abs: string, isDir: boolean): Exclusion | undefined {
  for (let i = layers.length - 1; i >= 0; i--) {
    const rel = relativeInside(layers[i].dir, abs);
    if (rel === undefined) continue;
    const result = testSelf(layers[i].ig, isDir ? `${rel}/` : rel);
    if (result.ignored) return { pattern: result.rule?.pattern ?? rel, source: layers[i].label };
    if (result.unignored) return undefined;
  }
  return undefined;
}

/** Consecutive patterns sharing a base, compiled once. */
interface Group {
  base: string;
  source: string;
  ig: Ignore;
}

/** Compiled `[discovery] exclude` plus `--exclude` patterns. */
export class ExcludeMatcher {
  readonly #groups: Group[] = [];

  constructor(config: readonly ExcludePattern[], extra: readonly ExcludePattern[]) {
    this.#add(config, "[discovery] exclude");
    this.#add(extra, "--exclude");
  }

  #add(patterns: readonly ExcludePattern[], source: string): void {
    for (const { pattern, base } of patterns) {
      const dir = resolve(base);
      const last = this.#groups.at(-1);
      if (last && last.base === dir && last.source === source) last.ig.add(pattern);
      else this.#groups.push({ base: dir, source, ig: ignore({ ignorecase: IGNORE_CASE }).add(pattern) });
    }
  }

  /** The exclusion that applies to `abs`, if any: the last matching pattern wins, so `!x` re-includes. */
  match(abs: string, isDir: boolean): Exclusion | undefined {
    let found: Exclusion | undefined;
    for (const group of this.#groups) {
      const rel = relativeInside(group.base, abs);
      if (rel === undefined) continue;
      const result = testSelf(group.ig, isDir ? `${rel}/` : rel);
      if (result.ignored) found = { pattern: result.rule?.pattern ?? rel, source: group.source };
      else if (result.unignored) found = undefined;
    }
    return found;
  }
}

/** Caches one {@link ExcludeMatcher} per distinct configuration. */
export class MatcherCache {
  readonly #byConfig = new WeakMap<DiscoveryConfig, ExcludeMatcher>();
  readonly #byKey = new Map<string, ExcludeMatcher>();
  readonly #extra: ExcludePattern[];

  constructor(extra: ExcludePattern[]) {
    this.#extra = extra;
  }

  /** The matcher for a directory's discovery configuration. */
  for(config: DiscoveryConfig): ExcludeMatcher {
    let matcher = this.#byConfig.get(config);
    if (matcher) return matcher;
    const key = JSON.stringify(config.excludes);
    matcher = this.#byKey.get(key) ?? new ExcludeMatcher(config.excludes, this.#extra);
    this.#byKey.set(key, matcher);
    this.#byConfig.set(config, matcher);
    return matcher;
  }
}
