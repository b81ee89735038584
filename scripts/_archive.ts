/**
 * Minimal archive writers for release packaging: a gzip-compressed ustar
 * archive and a deflate zip, each holding regular files with a mode. Written
 * here (on the web's CompressionStream) so packaging needs no `tar` or `zip`
 * program and produces the same bytes on every platform.
 *
 * @module
 */
import { concatBytes } from "../lib/io/bytes.ts";

/** One file to put in an archive. */
export interface ArchiveFile {
  /** Name inside the archive (`/`-separated, relative, at most 100 bytes). */
  name: string;
  data: Uint8Array;
  /** Unix permission bits, e.g. 0o755. */
  mode: number;
  /** Modification time (seconds since the epoch). */
  mtime: number;
}

const enc = new TextEncoder();

function checkName(name: string): Uint8Array {
  const bytes = enc.encode(name);
  if (bytes.length === 0 || bytes.length > 100 || name.startsWith("/") || name.split("/").includes("..")) {
    throw new Error(`unsupported archive member name ${JSON.stringify(name)}`);
  }
  return bytes;
}

async function compress(data: Uint8Array, format: CompressionFormat): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream(format));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0") + "\0";
}

function tarHeader(file: ArchiveFile): Uint8Array {
  const h = new Uint8Array(512);
  const put = (offset: number, text: string) => h.set(enc.encode(text), offset);
  h.set(checkName(file.name), 0);
  put(100, octal(file.mode & 0o7777, 8));
  put(108, octal(0, 8));
  put(116, octal(0, 8));
  put(124, octal(file.data.length, 12));
  put(136, octal(Math.floor(file.mtime), 12));
  put(148, "        ");
  put(156, "0");
  put(257, "ustar\0");
  put(263, "00");
  put(265, "root");
  put(297, "root");
  const sum = h.reduce((n, b) => n + b, 0);
  put(148, sum.toString(8).padStart(6, "0") + "\0 ");
  return h;
}

/** A `.tar.gz` of `files`. */
export async function tarGz(files: readonly ArchiveFile[]): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (const f of files) {
    parts.push(tarHeader(f), f.data, new Uint8Array((512 - (f.data.length % 512)) % 512));
  }
  parts.push(new Uint8Array(1024));
  return await compress(concatBytes(parts), "gzip");
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (the zip and gzip checksum). */
export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of data) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function dosTime(seconds: number): { time: number; date: number } {
  const d = new Date(seconds * 1000);
  const year = Math.max(1980, d.getUTCFullYear());
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/** A `.zip` of `files` (deflate; Unix modes kept in the external attributes). */
export async function zip(files: readonly ArchiveFile[]): Promise<Uint8Array> {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const f of files) {
    const name = checkName(f.name);
    const body = await compress(f.data, "deflate-raw");
    const crc = crc32(f.data);
    const { time, date } = dosTime(f.mtime);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true); // version needed: 2.0
    local.setUint16(6, 0x0800, true); // UTF-8 names
    local.setUint16(8, 8, true); // deflate
    local.setUint16(10, time, true);
    local.setUint16(12, date, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, body.length, true);
    local.setUint32(22, f.data.length, true);
    local.setUint16(26, name.length, true);
    local.setUint16(28, 0, true);
    const localBytes = concatBytes([new Uint8Array(local.buffer), name, body]);
    locals.push(localBytes);

    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, (3 << 8) | 20, true); // made by: Unix, 2.0
    central.setUint16(6, 20, true);
    central.setUint16(8, 0x0800, true);
    central.setUint16(10, 8, true);
    central.setUint16(12, time, true);
    central.setUint16(14, date, true);
    central.setUint32(16, crc, true);
    central.setUint32(20, body.length, true);
    central.setUint32(24, f.data.length, true);
    central.setUint16(28, name.length, true);
    central.setUint32(38, ((0o100000 | (f.mode & 0o7777)) << 16) >>> 0, true);
    central.setUint32(42, offset, true);
    centrals.push(concatBytes([new Uint8Array(central.buffer), name]));
    offset += localBytes.length;
  }
  const dir = concatBytes(centrals);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, files.length, true);
  end.setUint16(10, files.length, true);
  end.setUint32(12, dir.length, true);
  end.setUint32(16, offset, true);
  return concatBytes([...locals, dir, new Uint8Array(end.buffer)]);
}

/** Lower-case hex SHA-256 of `data`. */
export async function sha256Hex(data: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
