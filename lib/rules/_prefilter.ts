/**
 * A cheap exact "does any rule match here at all" check: every rule of a group
 * folded into one `any` matcher (local utilities renamed apart, constraints
 * dropped), so a file that no rule matches costs one compile and one tree
 * traversal instead of one per rule. Dropping constraints and the regexes
 * checked in JavaScript (see `_split.ts`) only widens each rule, so "no match"
 * from the fold is exact; when the fold matches, each rule runs on its own.
 *
 * @module
 */
import { splitRule } from "./_split.ts";
import type { LoadedRule, MatcherConfig } from "./types.ts";

const folded = new Map<string, MatcherConfig | null>();

/** The folded matcher of `rules` (memoized by their ids), or null when they cannot be folded. */
export function foldedMatcher(rules: readonly LoadedRule[], parser: string): MatcherConfig | null {
  const key = parser + "\0" + rules.map((r) => r.id).join("\0");
  let m = folded.get(key);
  if (m === undefined) {
    m = fold(rules);
    folded.set(key, m);
  }
  return m;
}

/** Forgets a fold that ast-grep refused, so it is not tried again. */
export function refuseFold(rules: readonly LoadedRule[], parser: string): void {
  folded.set(parser + "\0" + rules.map((r) => r.id).join("\0"), null);
}

function fold(rules: readonly LoadedRule[]): MatcherConfig | null {
  const branches: Record<string, unknown>[] = [];
  const utils: Record<string, Record<string, unknown>> = {};
  for (const [i, rule] of rules.entries()) {
    const wide = splitRule(rule).wide;
    const local = wide.utils ?? {};
    const rename = (name: string) => (name in local ? `__poly${i}_${name}` : name);
    const rewrite = (node: unknown): unknown | undefined => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (node === null || typeof node !== "object") return node;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) {
        if (k === "matches") {
          if (typeof v !== "string") throw new Unfoldable();
          out[k] = rename(v);
        } else out[k] = rewrite(v);
      }
      return out;
    };
    try {
      for (const [name, util] of Object.entries(local)) utils[rename(name)] = rewrite(util) as Record<string, unknown>;
      branches.push(rewrite(wide.rule) as Record<string, unknown>);
    } catch (e) {
      if (e instanceof Unfoldable) return null;
      throw e;
    }
  }
  return Object.keys(utils).length ? { rule: { any: branches }, utils } : { rule: { any: branches } };
}

class Unfoldable extends Error {}
