/**
 * Whether and where a run uses the shared remote cache (`[cache] remote`, the
 * `POLY_REMOTE_CACHE_*` variables), apart from the client itself (mod.ts) so a
 * run without one never loads the client and its `node:crypto`/`node:zlib`.
 *
 * @module
 */

/** Where and how to reach the remote cache. */
export interface RemoteSettings {
  /** Base URL (`https://cache.example.com`); `/v8/artifacts/...` is appended. */
  url: string;
  token?: string;
  /** `team_…` is sent as `teamId`, anything else as `slug`. */
  team?: string;
  signingKey?: string;
  /** Per-request timeout (ms). */
  timeoutMs: number;
  /** Bound on the whole read phase and on the whole write phase (ms). */
  budgetMs: number;
}

/** The remote settings from `[cache] remote` / `remote_team` and the environment; undefined when none. */
export function remoteSettings(cache: { remote?: string; remote_team?: string }): RemoteSettings | undefined {
  const env = (name: string) => {
    try {
      return Deno.env.get(name) || undefined;
    } catch {
      return undefined;
    }
  };
  const url = env("POLY_REMOTE_CACHE_URL") ?? cache.remote;
  if (!url) return undefined;
  const num = (name: string, fallback: number) => {
    const n = Number(env(name));
    return Number.isFinite(n) && n > 0 ? n : fallback;
  };
  const team = env("POLY_REMOTE_CACHE_TEAM") ?? cache.remote_team;
  const token = env("POLY_REMOTE_CACHE_TOKEN");
  const signingKey = env("POLY_REMOTE_CACHE_SIGNING_KEY");
  return {
    url: url.replace(/\/+$/, ""),
    ...(token ? { token } : {}),
    ...(team ? { team } : {}),
    ...(signingKey ? { signingKey } : {}),
    timeoutMs: num("POLY_REMOTE_CACHE_TIMEOUT_MS", 2000),
    budgetMs: num("POLY_REMOTE_CACHE_BUDGET_MS", 30000),
  };
}
