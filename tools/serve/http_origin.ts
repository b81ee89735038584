/**
 * DNS-rebinding protection of `poly mcp --http`: the `Host` header must name
 * this server and a browser's `Origin` must be one it trusts, checked before
 * anything else (a refused request never reaches the token check).
 *
 * - Host: loopback names (`localhost`, `127.0.0.1`, `[::1]`, any port), the
 *   address the server is bound to when it is a specific one, and
 *   `[serve] allowed_hosts` / `--allow-host` (an entry without a port matches
 *   any port; with one, exactly that port).
 * - Origin: absent (not a browser), a loopback origin (`http(s)://localhost`,
 *   `127.0.0.1` or `[::1]`, any port), or one of `[serve] allowed_origins` /
 *   `--allow-origin` exactly. `Origin: null` is refused.
 *
 * A rebinding attack makes a browser send `Host: evil.example` (and `Origin:
 * http://evil.example`) to a loopback port; both checks refuse it with 403.
 *
 * @module
 */

/** What the checks accept. */
export interface OriginPolicy {
  /** Extra allowed Host values (lower case; `host` or `host:port`). */
  hosts: string[];
  /** Extra allowed origins (lower case, no trailing slash). */
  origins: string[];
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether `hostname` (as Deno.serve takes it) is a loopback address or name. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** Whether `hostname` is a wildcard address (every interface). */
export function isWildcard(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "");
  return h === "0.0.0.0" || h === "::";
}

/** Splits a Host value into name and port (IPv6 names keep their brackets). */
export function splitHost(value: string): { name: string; port?: string } | undefined {
  const v = value.trim().toLowerCase();
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(v);
  if (!m) return undefined;
  return { name: m[1], ...(m[2] ? { port: m[2] } : {}) };
}

/** A policy from the configured lists and the address the server is bound to. */
export function originPolicy(
  o: { hostname: string; allowedHosts?: readonly string[]; allowedOrigins?: readonly string[] },
): OriginPolicy {
  const hosts = (o.allowedHosts ?? []).map((h) => h.toLowerCase());
  if (!isLoopback(o.hostname) && !isWildcard(o.hostname)) {
    hosts.push(o.hostname.includes(":") && !o.hostname.startsWith("[") ? `[${o.hostname}]` : o.hostname.toLowerCase());
  }
  return { hosts, origins: (o.allowedOrigins ?? []).map((x) => x.toLowerCase().replace(/\/+$/, "")) };
}

/** Whether a Host header value is allowed. */
export function hostAllowed(value: string | null, policy: OriginPolicy): boolean {
  if (!value) return false;
  const host = splitHost(value);
  if (!host) return false;
  if (LOOPBACK_NAMES.has(host.name)) return true;
  return policy.hosts.some((entry) => {
    const allowed = splitHost(entry);
    if (!allowed || allowed.name !== host.name) return false;
    return allowed.port === undefined || allowed.port === host.port;
  });
}

/** Whether an Origin header value is allowed (absent is allowed: not a browser). */
export function originAllowed(value: string | null, policy: OriginPolicy): boolean {
  if (value === null) return true;
  const v = value.trim().toLowerCase().replace(/\/+$/, "");
  if (policy.origins.includes(v)) return true;
  const m = /^https?:\/\/(.+)$/.exec(v);
  if (!m) return false;
  const host = splitHost(m[1]);
  return host !== undefined && LOOPBACK_NAMES.has(host.name);
}

/** The reason a request is refused (403), or undefined when its Host and Origin are allowed. */
export function checkOrigin(headers: Headers, policy: OriginPolicy): string | undefined {
  const host = headers.get("host");
  if (!hostAllowed(host, policy)) {
    return `Forbidden: Host "${host ?? ""}" is not allowed (add it to [serve] allowed_hosts or --allow-host)`;
  }
  const origin = headers.get("origin");
  if (!originAllowed(origin, policy)) {
    return `Forbidden: Origin "${origin}" is not allowed (add it to [serve] allowed_origins or --allow-origin)`;
  }
  return undefined;
}
