/**
 * `lstat` and `stat` through libc's `statx` on Linux, for the loops that stat
 * every path a run read (lib/fs/read_log.ts: a replay's check) and every source
 * file (lib/identity/code.ts: the code stamp), once per process: astro's 7,670
 * read paths took 66–73 ms through `Deno.lstatSync` in a fresh process (its
 * first two thousand calls run before V8 has optimised its wrapper, which builds
 * a `FileInfo` with four `Date`s each) and 41–50 ms here (docs/performance.md).
 * What this does not answer as Deno would — another system, no glibc to open, a
 * link, a path `statx` fails on — is left to the caller's Deno call, which gives
 * the same fields for the same entry (tests/fs/statx_test.ts).
 *
 * @module
 */

/** `statx(2)`: dirfd, path, flags, mask, buffer. */
const SYMBOLS = {
  statx: { parameters: ["i32", "buffer", "i32", "u32", "buffer"], result: "i32" },
} as const;

const AT_FDCWD = -100;
const AT_SYMLINK_NOFOLLOW = 0x100;
/** STATX_TYPE, MODE, NLINK, UID, GID, ATIME, MTIME, CTIME, INO, SIZE, BLOCKS: what `lstat` fills. */
const STATX_BASIC_STATS = 0x7ff;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
/** Linux's longest path, with its terminating NUL. */
const PATH_MAX = 4096;

type Libc = Deno.DynamicLibrary<typeof SYMBOLS>;

let libc: Libc | null | undefined;
const encoder = new TextEncoder();
const name = new Uint8Array(PATH_MAX);
const out = new Uint8Array(256); // sizeof(struct statx)
const view = new DataView(out.buffer);

function opened(): Libc | null {
  if (libc !== undefined) return libc;
  try {
    // Asked first: a process without the permission must not be prompted for it (poly never asks mid-run).
    const allowed = Deno.build.os === "linux" && Deno.permissions.querySync({ name: "ffi" }).state === "granted";
    libc = allowed ? Deno.dlopen("libc.so.6", SYMBOLS) : null;
  } catch {
    libc = null; // not glibc: Deno's own stat does
  }
  return libc;
}

/** What `Deno.lstatSync` (or `statSync`) gives of an entry, as Deno gives it: `mtime` in ms, `ctime` in whole seconds' ms. */
export interface StatxInfo {
  ino: bigint;
  mode: number;
  size: bigint;
  /** Undefined before 1970, where Deno has no date. */
  mtime?: number;
  ctime?: number;
}

/**
 * `path`'s stat through `statx` — of the link itself unless `follow` — or
 * undefined where Deno's own call should answer: another system, no glibc to
 * open, a failure (Deno names its error), a link when not following.
 */
export function statx(path: string, follow = false): StatxInfo | undefined {
  const lib = opened();
  if (!lib || path.includes("\0")) return undefined;
  const { read, written } = encoder.encodeInto(path, name);
  if (read < path.length || written >= PATH_MAX) return undefined;
  name[written] = 0;
  if (lib.symbols.statx(AT_FDCWD, name, follow ? 0 : AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, out) !== 0) {
    return undefined;
  }
  // struct statx (include/uapi/linux/stat.h), in the machine's byte order (little-endian wherever Deno runs on Linux).
  const mode = view.getUint16(28, true);
  if ((mode & S_IFMT) === S_IFLNK) return undefined;
  const mtime = view.getBigInt64(112, true);
  // Deno's `ctime` is whole seconds (the platform's `st_ctime`); its `mtime` milliseconds, truncated.
  const ctime = view.getBigInt64(96, true);
  return {
    ino: view.getBigUint64(32, true),
    mode,
    size: view.getBigUint64(40, true),
    ...(mtime >= 0n ? { mtime: Number(mtime) * 1000 + Math.floor(view.getUint32(120, true) / 1e6) } : {}),
    ...(ctime >= 0n ? { ctime: Number(ctime) * 1000 } : {}),
  };
}
