/**
 * The workspace-root guard of the MCP server: every path argument of a tool call
 * must resolve inside the server's root (the client's MCP roots, `--root`, or its
 * working directory) after `..` and symbolic links are resolved. A path that does not exist yet is judged by its
 * nearest existing ancestor.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";
import { OutsideWorkspaceError } from "../errors/mod.ts";

/** The real path of `path`, or of its nearest existing ancestor with the rest appended. */
export async function realPathLenient(path: string): Promise<string> {
  let current = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await Deno.realPath(current);
      return rest.length === 0 ? real : join(real, ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return resolve(path);
      rest.push(basename(current));
      current = parent;
    }
  }
}

/** Whether `child` is `root` or below it (both absolute, already real). */
export function isInside(root: string, child: string): boolean {
  if (child === root) return true;
  return child.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Resolves `given` (relative to `root`, or absolute) and returns its absolute
 * real path; throws {@link OutsideWorkspaceError} when it lies outside `realRoot`.
 */
export async function insideRoot(realRoot: string, given: string): Promise<string> {
  const abs = isAbsolute(given) ? given : join(realRoot, given);
  const real = await realPathLenient(abs);
  if (!isInside(realRoot, real)) throw new OutsideWorkspaceError(given, realRoot);
  return real;
}

/**
 * {@link insideRoot} over several roots (the client's MCP roots): a relative
 * path resolves against the first root; an absolute one must lie inside one of
 * them. Returns the real path and the root holding it; throws
 * {@link OutsideWorkspaceError} naming every root otherwise.
 */
export async function insideRoots(roots: readonly string[], given: string): Promise<{ real: string; root: string }> {
  if (roots.length === 0) throw new Error("insideRoots() needs at least one root");
  const abs = isAbsolute(given) ? given : join(roots[0], given);
  const real = await realPathLenient(abs);
  const root = roots.find((r) => isInside(r, real));
  if (root === undefined) throw new OutsideWorkspaceError(given, roots.join('", "'));
  return { real, root };
}
