/**
 * Paths below a folder, by a prefix test: for the loops that ask it of every
 * entry of a tree (discovery's ignore layers, biome's `includes`).
 *
 * @module
 */
import { sep } from "node:path";

/**
 * Path of `target` relative to `base` with `/` separators, or undefined when
 * outside `base` (or equal to it). Both must be absolute and normalised (as
 * `resolve`/`join` return them): this runs once per entry and layer, so it is a
 * prefix test rather than `path.relative`.
 */
export function relativeInside(base: string, target: string): string | undefined {
  const prefix = base.endsWith(sep) ? base : base + sep;
  if (target.length <= prefix.length || !target.startsWith(prefix)) return undefined;
  const rel = target.slice(prefix.length);
  return sep === "/" ? rel : rel.replaceAll(sep, "/");
}
