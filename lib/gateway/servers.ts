/**
 * Registering, refreshing, listing and removing upstream servers.
 *
 * @module
 */
import type { DatabaseSync } from "../store/mod.ts";
import { buildCatalog, type Catalog } from "./catalog.ts";
import { connectUpstream, DEFAULT_TIMEOUT_MS, listRawTools } from "./connect.ts";
import { GatewayError } from "./errors.ts";
import { runConsent } from "./oauth.ts";
import { keyHomeOf, seal } from "./seal.ts";
import {
  assertNameFree,
  catalogOf,
  insertServer,
  listServerRecords,
  type OAuthConfig,
  type OAuthStatus,
  requireServer,
  type ServerRecord,
  writeCatalog,
  writeServer,
} from "./store.ts";
import { bearerPurpose, envPurpose, MIN_ENV_SECRET, openServer } from "./upstream.ts";
import { cwdHoldsHome } from "./sandbox.ts";
import { workspaceHoldsHome } from "../sandbox/mod.ts";
import { checkEndpoint, checkServerName, splitCommand } from "./url.ts";
import { grantStates } from "./grants.ts";
import { unresolvedOps } from "./ops.ts";

/** What `poly servers add` takes. */
export interface AddServerInput {
  name: string;
  /** Streamable HTTP endpoint. */
  url?: string;
  /** stdio command line ("CMD ARGS") or argv. */
  command?: string | string[];
  /** Working directory of a stdio upstream (absolute). */
  cwd?: string;
  /** Variables a stdio upstream gets, values already read (`--env`); sealed in the store. */
  env?: Record<string, string>;
  /** Absolute host paths bound read-only into a stdio upstream's sandbox (`--bind-ro`). */
  bindRo?: string[];
  /** Bearer token (HTTP); sealed, never shown again. */
  token?: string;
  /** Register as an OAuth upstream. */
  oauth?: OAuthConfig;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** OAuth: called with the authorization URL; when absent the server is only stored, awaiting consent. */
  onAuthorizationUrl?: (url: URL) => Promise<void> | void;
  /** OAuth: how long to wait for the browser. */
  consentTimeoutMs?: number;
}

/** A server as listed. */
export interface ServerSummary {
  name: string;
  transport: "http" | "stdio";
  endpoint: string;
  auth: "none" | "bearer" | "oauth";
  oauth_status?: OAuthStatus;
  revision: number;
  enabled: boolean;
  tools: number;
  grants: { active: number; inactive: number };
  unresolved_operations: number;
  updated_at: string;
}

/** Result of a discovery write (add, refresh). */
export interface DiscoveryResult {
  server: ServerSummary;
  changed: boolean;
  added: string[];
  removed: string[];
  /** Tools whose definition changed (their grants stop applying until reviewed). */
  modified: string[];
}

/** Registers a server: discovery first, stored only if it succeeds (OAuth: stored first, awaiting consent). */
export async function addServer(db: DatabaseSync, input: AddServerInput): Promise<DiscoveryResult> {
  checkServerName(input.name);
  const stdio = input.command !== undefined;
  if (stdio === (input.url !== undefined)) {
    throw new GatewayError(
      "invalid_request",
      "Give exactly one of --url (HTTP upstream) or --command (stdio upstream)",
    );
  }
  if (stdio && (input.token !== undefined || input.oauth)) {
    throw new GatewayError("invalid_request", "Tokens and OAuth apply to HTTP upstreams only (--url)");
  }
  if (!stdio && (Object.keys(input.env ?? {}).length > 0 || (input.bindRo ?? []).length > 0)) {
    throw new GatewayError("invalid_request", "--env and --bind-ro apply to stdio upstreams only (--command)");
  }
  const env = checkEnv(input.env ?? {});
  const bindRo = await checkBinds(input.bindRo ?? []);
  // The store's own home: its key seals the secrets, and a stdio upstream's private home lies in it.
  const storeHome = keyHomeOf(db);
  if (input.token !== undefined && input.oauth) {
    throw new GatewayError("invalid_request", "Give either a bearer token or --oauth, not both");
  }
  if (input.token !== undefined && !input.token.trim()) {
    throw new GatewayError("token", "The token is empty");
  }
  const url = input.url === undefined ? undefined : checkEndpoint(input.url);
  const command = stdio
    ? (Array.isArray(input.command) ? [...input.command!] : splitCommand(String(input.command)))
    : undefined;
  const cwd = stdio ? (input.cwd ?? Deno.cwd()) : undefined;
  if (cwd !== undefined) {
    if (!cwd.startsWith("/")) throw new GatewayError("invalid_command", `Working directory "${cwd}" must be absolute`);
    if (!(await Deno.stat(cwd).catch(() => undefined))?.isDirectory) {
      throw new GatewayError("invalid_command", `Working directory "${cwd}" is not a directory`);
    }
    const home = homeDir();
    if (home && workspaceHoldsHome(cwd, home)) throw cwdHoldsHome(cwd, home);
  }
  assertNameFree(db, input.name);
  const token = input.token?.trim();

  if (input.oauth) {
    const server = insertServer(db, {
      name: input.name,
      transport: "http",
      url,
      auth: "oauth",
      oauthStatus: "awaiting_consent",
      oauthConfig: input.oauth,
    });
    if (!input.onAuthorizationUrl) {
      return { server: summarize(db, server), changed: true, added: [], removed: [], modified: [] };
    }
    return await consentServer(db, input.name, {
      onAuthorizationUrl: input.onAuthorizationUrl,
      timeoutMs: input.consentTimeoutMs,
      signal: input.signal,
      port: input.oauth.redirectPort,
    });
  }

  const upstream = await connectUpstream(
    {
      name: input.name,
      transport: stdio ? "stdio" : "http",
      url,
      command,
      cwd,
      env,
      bindRo,
      bearer: token,
      stateHome: storeHome,
    },
    { timeoutMs: input.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal: input.signal },
  );
  let catalog: Catalog;
  try {
    const raw = await listRawTools(upstream, input.name, { timeoutMs: input.timeoutMs, signal: input.signal });
    const secrets = [...(token ? [token] : []), ...Object.values(env).filter((v) => v.length >= MIN_ENV_SECRET)];
    catalog = buildCatalog(input.name, raw, { secrets });
  } finally {
    await upstream.close();
  }
  const server = insertServer(db, {
    name: input.name,
    transport: stdio ? "stdio" : "http",
    url,
    command,
    cwd,
    env: Object.keys(env).length
      ? {
        names: Object.keys(env).sort(),
        sealed: await seal(JSON.stringify(env), envPurpose(input.name), storeHome),
      }
      : undefined,
    bindRo: bindRo.length ? bindRo : undefined,
    auth: token ? "bearer" : "none",
    secret: token ? await seal(token, bearerPurpose(input.name), storeHome) : undefined,
    catalogDigest: catalog.digest,
  }, catalog);
  return {
    server: summarize(db, server),
    changed: true,
    added: catalog.tools.map((t) => t.name),
    removed: [],
    modified: [],
  };
}

function homeDir(): string | undefined {
  try {
    return Deno.env.get("HOME") || undefined;
  } catch {
    return undefined;
  }
}

/** Variable names a stdio upstream may be given: shell names, and not what the sandbox sets itself. */
function checkEnv(env: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(env)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new GatewayError("invalid_request", `"${name}" is not an environment variable name`);
    }
    if (["HOME", "TMPDIR"].includes(name)) {
      throw new GatewayError("invalid_request", `--env ${name}: the sandbox sets ${name} itself`);
    }
    if (!value) throw new GatewayError("invalid_request", `--env ${name}: the value is empty`);
  }
  return env;
}

/** `--bind-ro` paths: absolute, existing, each once. */
async function checkBinds(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    if (!p.startsWith("/")) throw new GatewayError("invalid_request", `--bind-ro "${p}" must be an absolute path`);
    if (!(await Deno.stat(p).catch(() => undefined))) {
      throw new GatewayError("invalid_request", `--bind-ro "${p}" does not exist`);
    }
    const home = homeDir();
    if (home && workspaceHoldsHome(p, home)) {
      throw new GatewayError(
        "invalid_request",
        `--bind-ro "${p}" contains the home directory "${home}": binding it would expose every file in the home. Bind the folders the server needs instead`,
      );
    }
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

/** Runs OAuth consent for a server, then discovers its catalog (raising the revision if it changed). */
export async function consentServer(
  db: DatabaseSync,
  name: string,
  options: {
    onAuthorizationUrl(url: URL): Promise<void> | void;
    timeoutMs?: number;
    signal?: AbortSignal;
    port?: number;
  },
): Promise<DiscoveryResult> {
  const server = requireServer(db, name);
  if (server.auth !== "oauth") throw new GatewayError("oauth", `Server "${name}" does not use OAuth`);
  await runConsent(db, name, options);
  return await refreshServer(db, name, requireServer(db, name).revision, { signal: options.signal });
}

/** Discovers the catalog again; replaces it and raises the revision only if something differs. */
export async function refreshServer(
  db: DatabaseSync,
  name: string,
  expectedRevision: number,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<DiscoveryResult> {
  const before = requireServer(db, name);
  if (before.revision !== expectedRevision) {
    // Fail before talking to the server; checked again when writing.
    writeServer(db, name, expectedRevision, () => false);
  }
  const open = await openServer(db, before, options);
  let catalog: Catalog;
  try {
    const raw = await listRawTools(open.upstream, name, options);
    catalog = buildCatalog(name, raw, { secrets: open.secrets() });
  } finally {
    await open.close();
  }
  const old = new Map(catalogOf(db, name).map((t) => [t.id, t]));
  const { server, changed } = writeServer(db, name, expectedRevision, (s) => {
    if (s.catalogDigest === catalog.digest) return false;
    writeCatalog(db, name, catalog);
    return true;
  });
  const fresh = new Map(catalog.tools.map((t) => [t.id, t]));
  return {
    server: summarize(db, server),
    changed,
    added: catalog.tools.filter((t) => !old.has(t.id)).map((t) => t.name),
    removed: [...old.values()].filter((t) => !fresh.has(t.id)).map((t) => t.name),
    modified: catalog.tools.filter((t) => old.has(t.id) && old.get(t.id)!.fingerprint !== t.fingerprint).map((t) =>
      t.name
    ),
  };
}

/** Disables a server; refused while it has an unresolved mutation. */
export function removeServer(db: DatabaseSync, name: string, expectedRevision: number): ServerSummary {
  const { server } = writeServer(db, name, expectedRevision, () => {
    const open = unresolvedOps(db, name);
    if (open.length > 0) {
      throw new GatewayError(
        "unresolved_mutation",
        `Server "${name}" has an unresolved MCP mutation (${
          open.map((o) => o.id).join(", ")
        }): resolve it with poly ops resolve before removing the server`,
      );
    }
    db.prepare("UPDATE gateway_servers SET enabled = 0, disabled_at = ? WHERE name = ?").run(
      new Date().toISOString(),
      name,
    );
    return true;
  });
  return summarize(db, server);
}

/** Every enabled server (and disabled ones when asked), summarized. */
export function listServers(db: DatabaseSync, includeDisabled = false): ServerSummary[] {
  return listServerRecords(db, includeDisabled).map((s) => summarize(db, s));
}

/** One server's summary. */
export function summarize(db: DatabaseSync, server: ServerRecord): ServerSummary {
  const states = grantStates(db, server.name);
  const active = states.filter((g) => g.state === "active").length;
  return {
    name: server.name,
    transport: server.transport,
    endpoint: server.transport === "http" ? server.url! : server.command!.join(" "),
    auth: server.auth,
    ...(server.oauthStatus ? { oauth_status: server.oauthStatus } : {}),
    revision: server.revision,
    enabled: server.enabled,
    tools: catalogOf(db, server.name).length,
    grants: { active, inactive: states.length - active },
    unresolved_operations: unresolvedOps(db, server.name).length,
    updated_at: server.updatedAt,
  };
}
