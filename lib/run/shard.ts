/**
 * `--shard i/n`: a deterministic partition of a run's paths, the same on every
 * machine with the same checkout. Files are taken largest first (ties broken by
 * a hash of the path, then the path) and each goes to the shard with the fewest
 * bytes so far (ties to the lower shard), so the shards are balanced by size and
 * the assignment depends only on the set of paths and their sizes — never on the
 * order discovery met them in. Paths without a size (skips, errors) count as one
 * byte. The whole-project phase and the report's run-wide problems (rule files
 * that do not load) belong to shard 1.
 *
 * @example
 * ```ts
 * const shard = parseShard("2/4"); // { index: 2, count: 4 }
 * const mine = assignShards([{ path: "a.ts", size: 10 }, { path: "b.ts", size: 3 }], 4);
 * ```
 *
 * @module
 */
import { digestOf } from "../cache/digest.ts";

/** One shard of a run: `index` counts from 1. */
export interface Shard {
  index: number;
  count: number;
}

/** Parses `i/n` (1 ≤ i ≤ n); throws an Error with a one-line message otherwise. */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) {
    throw new Error(`shard "${text}" is not of the form i/n with 1 <= i <= n (e.g. "1/2")`);
  }
  return { index, count };
}

/** Whether a shard is the whole run (`1/1` or none). */
export function isWhole(shard: Shard | undefined): boolean {
  return !shard || shard.count === 1;
}

function tieBreak(path: string): string {
  return digestOf(path).slice(0, 16);
}

/**
 * The shard (1-based) of each path: largest first, each to the shard holding
 * the fewest bytes so far.
 */
export function assignShards(items: readonly { path: string; size: number }[], count: number): Map<string, number> {
  const order = items.map((it) => ({ path: it.path, size: Math.max(1, it.size), tie: tieBreak(it.path) }));
  order.sort((a, b) =>
    b.size - a.size || (a.tie < b.tie ? -1 : a.tie > b.tie ? 1 : 0) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  );
  const loads = new Array<number>(count).fill(0);
  const out = new Map<string, number>();
  for (const it of order) {
    let best = 0;
    for (let s = 1; s < count; s++) if (loads[s] < loads[best]) best = s;
    loads[best] += it.size;
    out.set(it.path, best + 1);
  }
  return out;
}

/** The sizes of files by absolute path (a file that cannot be stated counts as empty). */
export async function sizesOf(paths: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const width = 64;
  for (let i = 0; i < paths.length; i += width) {
    const slice = paths.slice(i, i + width);
    const sizes = await Promise.all(slice.map((p) => Deno.stat(p).then((s) => s.size, () => 0)));
    slice.forEach((p, k) => out.set(p, sizes[k]));
  }
  return out;
}
