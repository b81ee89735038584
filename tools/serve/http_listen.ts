/**
 * `poly mcp --http [HOST:]PORT`: the address to listen on. A bare port listens
 * on 127.0.0.1; `localhost:PORT`, `0.0.0.0:PORT`, `[::1]:PORT` name a host.
 *
 * @module
 */
import { UsageError } from "../../lib/errors/mod.ts";

/** Where poly listens when no host is named. */
export const DEFAULT_HOSTNAME = "127.0.0.1";

/** Where to listen. */
export interface ListenAddress {
  hostname: string;
  port: number;
}

/** Parses `[HOST:]PORT`; port 0 picks a free port. */
export function parseListen(text: string): ListenAddress {
  const t = text.trim();
  const m = /^(?:(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(t);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) {
    throw new UsageError(
      `Invalid --http address "${text}": use PORT or HOST:PORT (e.g. 8765, 127.0.0.1:8765, [::1]:8765)`,
    );
  }
  const host = m[1] ?? DEFAULT_HOSTNAME;
  return { hostname: host.startsWith("[") ? host.slice(1, -1) : host, port };
}

/**
 * What to say when listening on `address` failed with `error`: a {@link UsageError}
 * a person can act on for the failures the address itself causes (the port is taken,
 * no interface has the address, the port needs privileges), else `error` itself.
 */
export function listenError(error: unknown, address: ListenAddress): unknown {
  const host = address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname;
  const where = `Cannot listen on ${host}:${address.port}`;
  if (error instanceof Deno.errors.AddrInUse) {
    return new UsageError(
      `${where}: the port is already in use by another process: stop it, or pass another port (--http 0 picks a free one)`,
    );
  }
  if (error instanceof Deno.errors.AddrNotAvailable) {
    return new UsageError(
      `${where}: no network interface here has that address: use 127.0.0.1, [::1], 0.0.0.0 or one of this machine's addresses`,
    );
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return new UsageError(`${where}: permission denied (ports below 1024 need privileges): pass a port above 1023`);
  }
  return error;
}
