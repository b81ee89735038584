/**
 * Digests of the files poly's identity is made of — its own code (the executable, or its source files) and the
 * engines' modules — remembered on disk in `<cache home>/identity/sha256.json` by each file's path, size and mtime, so a
 * run hashes only what it has not hashed before. The same memo keeps host programs' versions (lib/identity/engines.ts,
 * keyed "path args"). A machine's first run reads them all once (~110 MB of engine modules, ~0.1 s).
 *
 * @module
 */
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "../fs/atomic.ts";
import { cacheHome } from "../paths/mod.ts";
import { digestOf, fileDigestSync } from "../cache/digest.ts";

/** By path: a file's SHA-256, or (keyed "path args") a host program's version, with the size and mtime it was taken at. */
export interface DigestMemo {
  [path: string]: DigestMemoEntry;
}

/** One remembered digest (or version). */
export interface DigestMemoEntry {
  size: number;
  mtime: number;
  digest: string;
  /** A Python script's: the folders its interpreter finds packages in, and its context when remembered. */
  paths?: string[];
  context?: string;
}

/** Path of the on-disk digest memo. */
export function digestMemoPath(): string {
  return join(cacheHome(), "identity", "sha256.json");
}

/** The memo as this process knows it: read once, then kept in memory (and written back when it grows). */
let memoCache: { path: string; memo: DigestMemo } | undefined;

/** The memo (read from disk once per process and cache home). */
export function readDigestMemo(): DigestMemo {
  const path = digestMemoPath();
  if (memoCache?.path === path) return memoCache.memo;
  let memo: DigestMemo = {};
  try {
    const value = JSON.parse(Deno.readTextFileSync(path));
    if (value && typeof value === "object") memo = value as DigestMemo;
  } catch { /* absent or damaged: hash again */ }
  memoCache = { path, memo };
  return memo;
}

/** Whether the memo changed in memory since it was last written. */
let dirty = false;

/** Says the memo changed (an entry set through {@link readDigestMemo}): the next {@link saveDigestMemo} writes it. */
export function digestMemoChanged(): void {
  dirty = true;
}

/** Writes one memo file of the cache home's `identity/` (atomically); a read-only cache home only costs time. */
export async function saveIdentityMemo(path: string, value: unknown): Promise<void> {
  try {
    await Deno.mkdir(join(cacheHome(), "identity"), { recursive: true, mode: 0o700 });
    await writeFileAtomic(path, JSON.stringify(value));
  } catch {
    // next time, then
  }
}

/** Writes the memo if it changed. */
export async function saveDigestMemo(): Promise<void> {
  if (!dirty) return;
  dirty = false;
  await saveIdentityMemo(digestMemoPath(), readDigestMemo());
}

/**
 * SHA-256 of each file (memoized on disk by path, size and mtime), in the order
 * given. `save: false` leaves writing the memo to the caller ({@link saveDigestMemo}).
 */
export async function fileDigests(urls: string[], save = true): Promise<string[]> {
  const out = urls.map((url) => {
    const path = url.startsWith("file:") ? fileURLToPath(url) : url;
    const info = Deno.statSync(path);
    return remembered(path, info.size, info.mtime?.getTime() ?? 0);
  });
  if (save) await saveDigestMemo();
  return out;
}

/**
 * The digest of the file at `path`, whose stat gave `size` and `mtime`: the memo's when it was taken at those, else
 * hashed now and remembered. Without an mtime (a platform that gives none) a remembered digest cannot be told stale:
 * hashed each time. Throws as `Deno.openSync` does.
 */
function remembered(path: string, size: number, mtime: number | undefined): string {
  const memo = readDigestMemo();
  const hit = memo[path];
  if (mtime !== undefined && hit?.size === size && hit.mtime === mtime) return hit.digest;
  const digest = fileDigestSync(path);
  if (mtime !== undefined) {
    memo[path] = { size, mtime, digest };
    dirty = true;
  }
  return digest;
}

/**
 * What poly's code is, by content: SHA-256 over each file of a code stamp (lib/identity/code.ts: stat lines
 * `path:inode:size:mtime`) by its path relative to `root` and its digest — the executable's digest alone for a
 * compiled binary (`root` undefined). The same program gives the same value on every machine and in every folder, where
 * the stamp (inodes, paths) differs: the build identity in every cache key and remote-cache name rests on it, so that
 * machines share results. Each file's digest is remembered as the engines' are ({@link fileDigests}), checked against
 * the size and mtime its stat line already has: a run hashes nothing it hashed before.
 */
export async function codeDigest(lines: readonly string[], root?: string): Promise<string> {
  const out: string[] = [];
  for (const line of lines) {
    const m = /^(.*):(\d*):(\d+):(\d*)$/.exec(line);
    if (!m) {
      out.push(line);
      continue;
    }
    const [, path, , size, mtime] = m;
    let digest: string;
    try {
      digest = remembered(path, Number(size), mtime === "" ? undefined : Number(mtime));
    } catch {
      out.push(line); // gone since its stat: its line, as the stamp has it
      continue;
    }
    out.push(root === undefined ? digest : `${relative(root, path).split("\\").join("/")} ${digest}`);
  }
  await saveDigestMemo();
  return digestOf(out.join("\n"));
}
