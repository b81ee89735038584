/**
 * Content checks before a file reaches an engine: size, binary, UTF-8, templates.
 *
 * @module
 */
import type { Language } from "../engines/types.ts";
import { detectTemplate } from "../engines/templates.ts";
import { type FileStamp, fileStamp } from "../fs/atomic.ts";
import { readBytesSync } from "../fs/read_bytes.ts";
import { asFileRead } from "../fs/read_log.ts";

/** How many leading bytes are searched for a NUL byte. */
export const BINARY_SNIFF_BYTES = 8192;

/** Decoders kept for every file (a decode without `stream` keeps no state between calls); the BOM stays in the text. */
const STRICT = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const LENIENT = new TextDecoder("utf-8", { ignoreBOM: true });

/** Outcome of classifying a file's bytes: its text, or why it is skipped. */
export type Classified = { text: string } | { skip: string };

/**
 * Decides whether bytes are text an engine can read. Over `maxSize` bytes,
 * a NUL byte in the first 8 KB (binary), or invalid UTF-8 → a skip with a
 * reason. A UTF-8 byte order mark is kept in the text.
 *
 * @example
 * ```ts
 * classifyContent(new Uint8Array([0x61, 0, 0x62]), 1024); // { skip: "binary file (a NUL byte at offset 1)" }
 * ```
 */
export function classifyContent(bytes: Uint8Array, maxSize: number): Classified {
  if (bytes.byteLength > maxSize) return { skip: sizeReason(bytes.byteLength, maxSize) };
  const nul = bytes.subarray(0, BINARY_SNIFF_BYTES).indexOf(0);
  if (nul !== -1) return { skip: `binary file (a NUL byte at offset ${nul})` };
  // The lenient decoder is the faster one; only a text with U+FFFD in it (an invalid sequence
  // replaced, or a real U+FFFD) is decoded again strictly to tell which.
  const text = LENIENT.decode(bytes);
  if (!text.includes("\uFFFD")) return { text };
  try {
    return { text: STRICT.decode(bytes) };
  } catch {
    const at = firstInvalidUtf8(bytes);
    return { skip: `not valid UTF-8 at byte ${at} (line ${lineAt(bytes, at)}): poly reads UTF-8 text only` };
  }
}

/** The skip reason for a file of `size` bytes over the `maxSize` limit. */
export function sizeReason(size: number, maxSize: number): string {
  let have = formatBytes(size);
  let limit = maxSize < 1024 ? `${maxSize}-byte` : formatBytes(maxSize);
  if (have === limit) [have, limit] = [`${size} bytes`, `${maxSize}-byte`];
  return `file is ${have}, over the ${limit} limit ([discovery] max_file_size)`;
}

/** Renders a byte count for people: `512 bytes`, `12.5 KB`, `3.2 MB` (powers of 1024). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${trim(n / 1024)} KB`;
  return `${trim(n / (1024 * 1024))} MB`;
}

function trim(x: number): string {
  return x.toFixed(1).replace(/\.0$/, "");
}

/** Offset of the first byte that breaks UTF-8 (overlong forms and surrogates included), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number, min: number, max = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b === 0xe0) [need, min] = [2, 0xa0];
    else if (b === 0xed) [need, min, max] = [2, 0x80, 0x9f];
    else if (b >= 0xe1 && b <= 0xef) [need, min] = [2, 0x80];
    else if (b === 0xf0) [need, min] = [3, 0x90];
    else if (b === 0xf4) [need, min, max] = [3, 0x80, 0x8f];
    else if (b >= 0xf1 && b <= 0xf3) [need, min] = [3, 0x80];
    else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      const lo = k === 1 ? min : 0x80, hi = k === 1 ? max : 0xbf;
      if (c === undefined || c < lo || c > hi) return i;
    }
    i += need + 1;
  }
  return -1;
}

function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/**
 * Outcome of {@link readCandidate}: a text comes with the bytes it was decoded
 * from and the stamp of the stat taken before the read (what a rewrite checks
 * the file still is).
 */
export type ReadOutcome = { text: string; bytes: Uint8Array; stamp: FileStamp } | { skip: string } | { error: string };

/** Options for {@link readCandidate}. */
export interface ReadOptions {
  /** When given, template dialects no engine reads (Jinja tags in HTML, dbt in SQL) are skipped. */
  language?: Language;
}

/**
 * Reads a file and classifies it in one go. Too large → skip without reading it;
 * binary or invalid UTF-8 → skip; a template dialect → skip; not a regular file
 * (directory, FIFO, socket), permission denied, or gone → error.
 */
export async function readCandidate(path: string, maxSize: number, options: ReadOptions = {}): Promise<ReadOutcome> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    return { error: readError(error) };
  }
  const unread = beforeRead(info, maxSize);
  if (unread) return unread;
  try {
    return afterRead(asFileRead(() => readBytesSync(path, info.size)), maxSize, options, info);
  } catch (error) {
    return { error: readError(error) };
  }
}

/**
 * {@link readCandidate} without awaiting each file system call: for a run's
 * pre-pass over thousands of small files on one thread, where promise hops cost
 * more than the reads. `stat` is the file's `Deno.statSync` when the caller took it.
 */
export function readCandidateSync(
  path: string,
  maxSize: number,
  options: ReadOptions = {},
  stat?: Deno.FileInfo,
): ReadOutcome {
  let info: Deno.FileInfo;
  try {
    info = stat ?? Deno.statSync(path);
  } catch (error) {
    return { error: readError(error) };
  }
  const unread = beforeRead(info, maxSize);
  if (unread) return unread;
  try {
    return afterRead(asFileRead(() => readBytesSync(path, info.size)), maxSize, options, info);
  } catch (error) {
    return { error: readError(error) };
  }
}

/** Not a regular file → error; too large → skip without reading it. */
function beforeRead(info: Deno.FileInfo, maxSize: number): ReadOutcome | undefined {
  if (!info.isFile) return { error: `cannot read: ${notRegular(info)}` };
  if (info.size > maxSize) return { skip: sizeReason(info.size, maxSize) };
  return undefined;
}

function afterRead(bytes: Uint8Array, maxSize: number, options: ReadOptions, info: Deno.FileInfo): ReadOutcome {
  const classified = classifyContent(bytes, maxSize);
  if ("skip" in classified) return classified;
  if (options.language) {
    const template = detectTemplate(options.language, classified.text);
    if (template) return { skip: template };
  }
  return { text: classified.text, bytes, stamp: fileStamp(info) };
}

function notRegular(info: Deno.FileInfo): string {
  if (info.isDirectory) return "it is a directory, not a file";
  if (info.isFifo) return "it is a named pipe (FIFO), not a regular file";
  if (info.isSocket) return "it is a socket, not a regular file";
  if (info.isCharDevice || info.isBlockDevice) return "it is a device, not a regular file";
  return "not a regular file";
}

/** A person-readable message for a failed read. */
export function readError(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "cannot read: the file does not exist (removed during the run?)";
  if (error instanceof Deno.errors.PermissionDenied) return "cannot read: permission denied";
  if (error instanceof Deno.errors.NotCapable) return "cannot read: not allowed by Deno's --allow-read";
  if (error instanceof Deno.errors.IsADirectory) return "cannot read: it is a directory, not a file";
  if (error instanceof Deno.errors.FilesystemLoop) return "cannot read: too many levels of symbolic links";
  return `cannot read: ${error instanceof Error ? error.message : String(error)}`;
}
