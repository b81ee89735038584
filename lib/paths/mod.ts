/**
 * Where poly keeps things on disk: the result cache and the state database.
 * `$POLY_CACHE_HOME` / `$POLY_STATE_HOME` win; otherwise the platform directories.
 *
 * Its paths are joined by lib/paths/path.ts: a `poly lint` in a repository a daemon
 * watches reads the state home before anything else loads (lib/daemon/client.ts),
 * and Deno's Node layer takes ~15–20 ms to start, a tenth of that run.
 *
 * @module
 */
import { join } from "./path.ts";

/**
 * An environment variable, or undefined when it is unset, empty or not readable under
 * poly's permission set (deno.json's env allow-list: a name outside it reads as unset).
 * Callers pass literal names (tests/cli/_env_scan.ts holds them against the list).
 */
export function env(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

function home(): string {
  return env("HOME") ?? env("USERPROFILE") ?? Deno.cwd();
}

/** Root of the result cache (one folder per repository anchor lives under it). */
export function cacheHome(): string {
  const own = env("POLY_CACHE_HOME");
  if (own) return own;
  if (Deno.build.os === "darwin") return join(home(), "Library", "Caches", "poly");
  if (Deno.build.os === "windows") return join(env("LOCALAPPDATA") ?? home(), "poly", "cache");
  return join(env("XDG_CACHE_HOME") ?? join(home(), ".cache"), "poly");
}

/** Root of poly's state (the SQLite database, sealed-secret key). */
export function stateHome(): string {
  const own = env("POLY_STATE_HOME");
  if (own) return own;
  if (Deno.build.os === "darwin") return join(home(), "Library", "Application Support", "poly");
  if (Deno.build.os === "windows") return join(env("LOCALAPPDATA") ?? home(), "poly", "state");
  return join(env("XDG_STATE_HOME") ?? join(home(), ".local", "state"), "poly");
}
