/**
 * The one place poly replaces a file. New content goes to a temporary file in
 * the same directory, is flushed, given the original's owner, group and mode,
 * and renamed over the target: a crash at any point leaves either the old file
 * or the new one, never a half-written one.
 *
 * Two doors:
 *
 * - {@link replaceFile} rewrites a file of the user's that poly read earlier in
 *   the run (`poly fmt --fix`, `poly lint --fix`, the MCP tools `format_write`
 *   and `lint_fix`). It refuses, with a {@link WriteRefusedError} whose message
 *   says why, a file that resolves outside the run's roots after links are
 *   resolved, a file that changed since it was read (size, mtime, inode or
 *   bytes), a read-only file, a file with more than one hard link, and a file
 *   whose owner and group it could not keep.
 * - {@link writeFileAtomic} writes poly's own files (state, locks, hooks,
 *   CLAUDE.md): the same temporary file and rename, keeping an existing file's
 *   mode and (when it can) owner, without those refusals.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, relative, sep } from "../paths/path.ts";

/** Options for {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** File mode for a new file (an existing file keeps its own mode). */
  mode?: number;
  /**
   * Whether the new content is flushed to disk before the rename (default true).
   * Off only for a file poly can do without (a cache): after a power loss it may
   * be empty, never half-written.
   */
  sync?: boolean;
}

/** Writes `data` to `path` atomically (temporary file + rename), keeping an existing file's mode and owner. */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  // Write through a symbolic link to its target, rather than replacing the link with a file.
  path = await Deno.realPath(path).catch(() => path);
  let existing: Deno.FileInfo | undefined;
  try {
    existing = await Deno.stat(path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  await swapIn(path, bytesOf(data), { existing, mode: options.mode, strictOwner: false, sync: options.sync ?? true });
}

/** What a file was when poly read it; {@link replaceFile} finds it still so before replacing it. */
export interface FileStamp {
  size: number;
  /** Modification time in milliseconds (0 when the platform has none). */
  mtimeMs: number;
  /** Inode (absent where the platform has none). */
  ino?: number;
}

/** The {@link FileStamp} of a stat taken before the file was read. */
export function fileStamp(info: Deno.FileInfo): FileStamp {
  return { size: info.size, mtimeMs: info.mtime?.getTime() ?? 0, ...(info.ino != null ? { ino: info.ino } : {}) };
}

/** A rewrite poly declined on purpose; its message is the reason, for a person (`changed during the run …`). */
export class WriteRefusedError extends Error {
  override name = "WriteRefusedError";
}

/** Options for {@link replaceFile}. */
export interface ReplaceOptions {
  /**
   * The file as poly read it: its content (compared byte for byte) and the
   * stamp of the stat taken before the read (size, mtime, inode; compared first
   * when given).
   */
  expected: { stamp?: FileStamp; content: string | Uint8Array };
  /**
   * Directories the file must lie in once links are resolved (absolute;
   * resolved here too). The file's real path must be inside one of them.
   */
  roots: readonly string[];
  /** Called once the new content is in its temporary file, before the file is checked (tests change it here). */
  beforeCheck?: () => void | Promise<void>;
}

/**
 * Replaces `path` (a file poly read earlier) with `data`, atomically, keeping
 * its owner, group and mode. Writes through a symbolic link to its target,
 * which must be inside `roots`. Throws {@link WriteRefusedError} when the file
 * is not written on purpose (outside the roots, changed since it was read,
 * read-only, hard-linked, or its owner cannot be kept); other errors are
 * failures to write.
 */
export async function replaceFile(path: string, data: string | Uint8Array, options: ReplaceOptions): Promise<void> {
  const target = await resolveInside(path, options.roots);
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(target);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new WriteRefusedError(CHANGED + " (it was removed)");
    throw e;
  }
  if (!info.isFile) throw new WriteRefusedError(CHANGED + " (it is no longer a regular file)");
  refuseUnwritable(info);
  const expected = bytesOf(options.expected.content);
  await swapIn(target, bytesOf(data), {
    existing: info,
    strictOwner: true,
    verify: async () => {
      await options.beforeCheck?.();
      await verifyUnchanged(target, options.expected.stamp, expected);
    },
  });
}

/** The reason of a file that changed between its read and its rewrite. */
const CHANGED = "changed during the run";

/** The real path of `path`; refuses one outside every root. */
async function resolveInside(path: string, roots: readonly string[]): Promise<string> {
  let real: string;
  try {
    // The file's real path resolves its own link and every link among its parents.
    real = await Deno.realPath(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new WriteRefusedError(CHANGED + " (it was removed)");
    throw e;
  }
  const realRoots: string[] = [];
  for (const root of roots) realRoots.push(await Deno.realPath(root).catch(() => root));
  if (realRoots.some((root) => inside(root, real))) return real;
  const where = realRoots.length === 1
    ? `"${realRoots[0]}"`
    : `every root (${realRoots.map((r) => `"${r}"`).join(", ")})`;
  throw new WriteRefusedError(
    `it resolves to "${real}", outside ${where}: poly reads a file through a symbolic link but never writes through one to outside the root`,
  );
}

/** Whether `child` is `root` or below it (both absolute and real). */
function inside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === "" || (rel !== ".." && !rel.startsWith(".." + sep) && !isAbsolute(rel));
}

/** Refuses a read-only file and one with other hard links (replacing it would split them). */
function refuseUnwritable(info: Deno.FileInfo): void {
  if (Deno.build.os === "windows") return;
  const mode = (info.mode ?? 0o644) & 0o7777;
  if ((mode & 0o200) === 0) {
    throw new WriteRefusedError(
      `read-only file (mode ${mode.toString(8).padStart(4, "0")}): make it writable (chmod u+w) to let poly rewrite it`,
    );
  }
  const links = info.nlink ?? 1;
  if (links > 1) {
    throw new WriteRefusedError(
      `hard-linked file (${links} links): replacing it would split the links and rewriting it in place would change the other names too; copy it to break the link to let poly rewrite it`,
    );
  }
}

/**
 * Refuses when the file is no longer what was read: its directory first (still
 * where its real path was resolved to, not swapped for a link), then its stamp
 * (cheap), then its bytes.
 */
async function verifyUnchanged(path: string, stamp: FileStamp | undefined, expected: Uint8Array): Promise<void> {
  let now: Deno.FileInfo;
  try {
    if (await Deno.realPath(dirname(path)) !== dirname(path)) {
      throw new WriteRefusedError(`${CHANGED} (its directory was replaced by a symbolic link)`);
    }
    now = await Deno.lstat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new WriteRefusedError(CHANGED + " (it was removed)");
    throw e;
  }
  const current = fileStamp(now);
  const same = now.isFile && current.size === expected.length &&
    (!stamp || (current.size === stamp.size && current.mtimeMs === stamp.mtimeMs &&
      (stamp.ino === undefined || current.ino === stamp.ino)));
  if (!same || !equalBytes(await Deno.readFile(path), expected)) {
    throw new WriteRefusedError(`${CHANGED} (edited after poly read it): it was left as it is; run poly again`);
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function bytesOf(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? new TextEncoder().encode(data) : data;
}

/**
 * Writes `bytes` to a temporary file beside `path`, gives it the existing
 * file's owner, group and mode, runs `verify`, and renames it over `path`.
 * The temporary file is removed on any failure.
 */
async function swapIn(
  path: string,
  bytes: Uint8Array,
  options: {
    existing?: Deno.FileInfo;
    mode?: number;
    strictOwner: boolean;
    verify?: () => Promise<void>;
    sync?: boolean;
  },
): Promise<void> {
  const { existing } = options;
  const mode = existing?.mode != null ? existing.mode & 0o7777 : options.mode;
  const tmp = join(dirname(path), `.${basename(path)}.poly-${crypto.randomUUID().slice(0, 8)}.tmp`);
  // A replacement is owner-only until it has the owner and mode it is meant to have; a new file
  // without a mode asked for gets 0644 less the umask.
  const file = await Deno.open(tmp, { write: true, createNew: true, mode: existing ? 0o600 : mode ?? 0o644 });
  try {
    try {
      let written = 0;
      while (written < bytes.length) written += await file.write(bytes.subarray(written));
      if (options.sync !== false) await file.sync();
    } finally {
      file.close();
    }
    if (Deno.build.os !== "windows") {
      if (existing) await keepOwner(tmp, existing, options.strictOwner);
      // After chown, which clears the set-user-ID and set-group-ID bits.
      if (mode !== undefined) await Deno.chmod(tmp, mode);
    }
    await options.verify?.();
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}

/** Gives `tmp` the owner and group of `existing` when they differ (root can; others can change the group only). */
async function keepOwner(tmp: string, existing: Deno.FileInfo, strict: boolean): Promise<void> {
  if (existing.uid == null || existing.gid == null) return;
  const mine = await Deno.stat(tmp);
  if (mine.uid === existing.uid && mine.gid === existing.gid) return;
  try {
    await Deno.chown(tmp, existing.uid, existing.gid);
  } catch (e) {
    if (!strict) return;
    const why = e instanceof Error ? e.message : String(e);
    throw new WriteRefusedError(
      `cannot keep its owner and group (uid ${existing.uid}, gid ${existing.gid}) in a new file: ${why}`,
    );
  }
}
