/**
 * Paths a call names (files to read, images, outputs) must stay inside the call's
 * working directory.
 *
 * @module
 */
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { OutsideWorkspaceError } from "../../errors/mod.ts";

/** Resolves `path` against `cwd`; throws when it leaves `cwd`. Returns the absolute path. */
export function insideCwd(cwd: string, path: string): string {
  const abs = resolve(cwd, path);
  const rel = relative(cwd, abs);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) throw new OutsideWorkspaceError(path, cwd);
  return abs;
}

/** Like {@link insideCwd}, and also refuses a path whose nearest existing ancestor resolves (symlinks) outside `cwd`. */
export async function realInsideCwd(cwd: string, path: string): Promise<string> {
  const abs = insideCwd(cwd, path);
  const realCwd = await Deno.realPath(cwd);
  let probe = abs;
  while (true) {
    try {
      const real = await Deno.realPath(probe);
      const rel = relative(realCwd, real);
      if (rel.startsWith("..") || isAbsolute(rel)) throw new OutsideWorkspaceError(path, cwd);
      return abs;
    } catch (e) {
      if (e instanceof OutsideWorkspaceError) throw e;
      const up = dirname(probe);
      if (up === probe || !(up + sep).startsWith(cwd)) return abs;
      probe = up;
    }
  }
}

/** A path relative to `cwd`, for messages and outputs. */
export function relToCwd(cwd: string, abs: string): string {
  return relative(cwd, abs) || ".";
}
