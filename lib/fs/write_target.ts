/**
 * Where a tool may create a file it was asked to write (a report, an export):
 * the path is resolved against a base folder and must stay inside it as
 * written; after resolving symbolic links (of the file itself, when it exists,
 * and of its nearest existing folder) it must still be inside the workspace
 * root; it is never inside `.git/` or `.poly/`, never one of poly's own config
 * files (`poly.toml`, `poly.local.toml`, `poly-config.lock`) at any depth; and
 * an existing file is replaced only when the caller says so.
 *
 * @example
 * ```ts
 * const target = await resolveWriteTarget({ root, base: root, path: "research/report.md" });
 * await Deno.mkdir(dirname(target.path), { recursive: true });
 * await writeFileAtomic(target.path, text);
 * ```
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { OutsideWorkspaceError, PolyError } from "../errors/mod.ts";

/** Folders no tool write ever enters (compared case-insensitively). */
export const PROTECTED_DIRS: readonly string[] = [".git", ".poly"];

/** poly's own configuration files, refused at any depth (compared case-insensitively). */
export const PROTECTED_FILES: readonly string[] = ["poly.toml", "poly.local.toml", "poly-config.lock"];

/** A write refused for what the target is (protected, existing, not a file); exit code 2. */
export class WriteTargetError extends PolyError {
  constructor(message: string) {
    super(message);
    this.name = "WriteTargetError";
  }
}

/** What {@link resolveWriteTarget} checks. */
export interface WriteTargetRequest {
  /** The workspace root: the resolved target must be inside it. */
  root: string;
  /** The folder `path` is relative to (inside `root`); `path` must stay inside it as written. */
  base: string;
  path: string;
  /** Replace an existing file (default: refuse it). */
  overwrite?: boolean;
}

/** A checked write target. */
export interface WriteTarget {
  /** The absolute path to write (symbolic links resolved). */
  path: string;
  /** The path relative to the base, as the caller named it (for messages and outputs). */
  relPath: string;
  /** Whether a file is there now (only when `overwrite` was given). */
  exists: boolean;
}

/** Checks a file a tool was asked to create or replace, and returns where to write it; throws when refused. */
export async function resolveWriteTarget(req: WriteTargetRequest): Promise<WriteTarget> {
  const abs = resolve(req.base, req.path);
  const asWritten = relative(req.base, abs);
  if (asWritten === "" || asWritten.startsWith("..") || isAbsolute(asWritten)) {
    throw new OutsideWorkspaceError(req.path, req.base);
  }
  const realRoot = await Deno.realPath(req.root);
  const real = await realTarget(abs, req.path);
  const rel = relative(realRoot, real);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) throw new OutsideWorkspaceError(req.path, req.root);
  checkProtected(req.path, rel);
  const info = await Deno.lstat(real).catch((e) => {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  });
  if (info && !info.isFile) throw new WriteTargetError(`"${req.path}" exists and is not a file: choose another path`);
  if (info && !req.overwrite) {
    throw new WriteTargetError(
      `"${req.path}" already exists: choose another path, or pass overwrite: true to replace it`,
    );
  }
  return { path: real, relPath: asWritten, exists: info !== undefined };
}

/** Refuses a path (relative to the real root) inside `.git/` or `.poly/`, or naming one of poly's config files. */
export function checkProtected(named: string, rel: string): void {
  const parts = rel.split(sep).map((p) => p.toLowerCase());
  const dir = parts.slice(0, -1).find((p) => PROTECTED_DIRS.includes(p)) ??
    (PROTECTED_DIRS.includes(parts[parts.length - 1]) ? parts[parts.length - 1] : undefined);
  if (dir) throw new WriteTargetError(`"${named}" is inside ${dir}/: poly never writes there`);
  const file = parts[parts.length - 1];
  if (PROTECTED_FILES.includes(file)) {
    throw new WriteTargetError(
      `"${named}" is poly's own configuration (${file}): poly never writes it from a tool call`,
    );
  }
}

/**
 * The path with symbolic links resolved: the file's own when it exists, else its
 * nearest existing folder's plus the rest. Refuses a dangling link on the way
 * (where it leads cannot be checked) and a file where a folder must be.
 */
async function realTarget(abs: string, named: string): Promise<string> {
  let probe = abs;
  const rest: string[] = [];
  for (;;) {
    let real: string | undefined;
    try {
      real = await Deno.realPath(probe);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound) && !(e instanceof Deno.errors.NotADirectory)) throw e;
    }
    if (real !== undefined) {
      if (rest.length > 0 && !(await Deno.stat(real)).isDirectory) {
        throw new WriteTargetError(`"${named}" cannot be created: "${basename(probe)}" is a file, not a folder`);
      }
      return join(real, ...rest);
    }
    if ((await Deno.lstat(probe).catch(() => undefined))?.isSymlink) {
      throw new WriteTargetError(
        `"${named}" goes through "${
          basename(probe)
        }", a symbolic link to a missing target: poly does not write through it`,
      );
    }
    const up = dirname(probe);
    if (up === probe) return abs;
    rest.unshift(basename(probe));
    probe = up;
  }
}
