/**
 * The daemon's wire format over its Unix socket: frames of one type byte, a
 * 32-bit big-endian length and that many bytes. Text goes as UTF-8; requests
 * and answers as JSON.
 *
 * | type | direction | payload |
 * |---|---|---|
 * | `q` | client → daemon | a {@link DaemonRequest} (JSON) |
 * | `p` | client → daemon | a status request (empty) |
 * | `k` | client → daemon | stop (empty) |
 * | `o` / `e` | daemon → client | bytes for stdout / stderr |
 * | `x` | daemon → client | `{"code": N}`: the command's exit code; the last frame |
 * | `r` | daemon → client | `{"reason": "..."}`: not run here; the client runs the command itself |
 * | `s` | daemon → client | the daemon's status (JSON) |
 *
 * @module
 */

/** A command line for the daemon to run as if it were run where the client is. */
export interface DaemonRequest {
  /** Wire version; a daemon refuses any other. */
  v: 1;
  argv: string[];
  cwd: string;
  /** The values of {@link RELEVANT_ENV} in the client (absent: unset). */
  env: Record<string, string>;
  /**
   * The client's program (lib/identity/code.ts `programId`: its executable, or
   * its main module from source). The daemon serves only the same program, and
   * only while none of its files changed since the daemon started.
   */
  program: string;
  stdoutIsTerminal: boolean;
  stderrIsTerminal: boolean;
}

/** Environment variables a lint or format run reads: a daemon serves only clients whose values equal its own. */
export const RELEVANT_ENV = [
  "PATH",
  "HOME",
  "LANG",
  "TMPDIR",
  "NO_COLOR",
  "FORCE_COLOR",
  "TERM",
  "COLORTERM",
  "COLUMNS",
  "CI",
  "GITHUB_ACTIONS",
  "XDG_CACHE_HOME",
  "XDG_STATE_HOME",
  "XDG_CONFIG_HOME",
  "POLY_CACHE_HOME",
  "POLY_STATE_HOME",
  "POLY_DEBUG",
  "POLY_LOG",
  "POLY_TIMEOUT_MS",
  // What host engines read (lib/engines: each spec's hostEnv).
  "SHELLCHECK_OPTS",
  "GOFLAGS",
  "GOOS",
  "GOARCH",
  "CGO_ENABLED",
  "RUSTUP_TOOLCHAIN",
  "ESLINT_USE_FLAT_CONFIG",
  // What a Python host tool's packages are found by (lib/identity/python_script.ts PYTHON_PATH_ENV).
  "PYTHONPATH",
  "PYTHONHOME",
  "PYTHONUSERBASE",
  "PYTHONNOUSERSITE",
] as const;

/** The values of {@link RELEVANT_ENV} in this process. */
export function relevantEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of RELEVANT_ENV) {
    try {
      const value = Deno.env.get(name);
      if (value !== undefined) out[name] = value;
    } catch {
      // not readable under this permission set: counts as unset on both sides
    }
  }
  return out;
}

/** Frame types. */
export type FrameType = "q" | "p" | "k" | "o" | "e" | "x" | "r" | "s";

const encoder = new TextEncoder();

/** One frame's bytes. */
export function frame(type: FrameType, payload: string | Uint8Array = ""): Uint8Array {
  const body = typeof payload === "string" ? encoder.encode(payload) : payload;
  const out = new Uint8Array(5 + body.length);
  out[0] = type.charCodeAt(0);
  new DataView(out.buffer).setUint32(1, body.length);
  out.set(body, 5);
  return out;
}

/** Writes all of `bytes` to `conn`. */
export async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await conn.write(bytes.subarray(written));
}

/** Closes a connection the other side may have closed already. */
export function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // closed already
  }
}

/** Reads frames from a connection until it closes (a partial frame at the end is dropped). */
export async function* frames(conn: Deno.Conn): AsyncGenerator<{ type: FrameType; body: Uint8Array }> {
  let buffer = new Uint8Array(64 * 1024);
  let length = 0;
  const chunk = new Uint8Array(256 * 1024);
  while (true) {
    while (length >= 5) {
      const size = new DataView(buffer.buffer, buffer.byteOffset, length).getUint32(1);
      if (length < 5 + size) break;
      const type = String.fromCharCode(buffer[0]) as FrameType;
      const body = buffer.slice(5, 5 + size);
      buffer.copyWithin(0, 5 + size, length);
      length -= 5 + size;
      yield { type, body };
    }
    const n = await conn.read(chunk);
    if (n === null) return;
    if (length + n > buffer.length) {
      const grown = new Uint8Array(Math.max(buffer.length * 2, length + n));
      grown.set(buffer.subarray(0, length));
      buffer = grown;
    }
    buffer.set(chunk.subarray(0, n), length);
    length += n;
  }
}
