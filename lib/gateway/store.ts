/**
 * The gateway's rows in the state database, and the one rule every write follows:
 * it names the server's `expected_revision`, runs inside an immediate transaction,
 * and raises the revision by one only when it changed something.
 *
 * @module
 */
import type { DatabaseSync } from "../store/mod.ts";
import type { Catalog } from "./catalog.ts";
import { GatewayError } from "./errors.ts";

/** How poly reaches an upstream. */
export type Transport = "http" | "stdio";
/** How poly authenticates to an upstream. */
export type AuthKind = "none" | "bearer" | "oauth";
/** Authorization state of an OAuth upstream. */
export type OAuthStatus = "awaiting_consent" | "connected" | "refreshing" | "reconnect_required";

/** Non-secret OAuth settings of a server. */
export interface OAuthConfig {
  /** Scopes to ask for (space separated), if the server does not advertise its own. */
  scope?: string;
  /** A pre-registered client id (otherwise dynamic client registration is used). */
  clientId?: string;
  /** Loopback port of the redirect URI, fixed at the first consent so the registration keeps matching. */
  redirectPort?: number;
}

/** One registered upstream server. */
export interface ServerRecord {
  name: string;
  transport: Transport;
  url?: string;
  /** argv of a stdio upstream. */
  command?: string[];
  /** Working directory of a stdio upstream (bound read-write into its sandbox). */
  cwd?: string;
  /** The variables a stdio upstream gets (`--env`): their names, and the values sealed as one JSON object. */
  env?: { names: string[]; sealed: string };
  /** Host paths bound read-only into a stdio upstream's sandbox (`--bind-ro`). */
  bindRo?: string[];
  auth: AuthKind;
  /** Sealed bearer token, or sealed OAuth state; never the plain value. */
  secret?: string;
  oauthStatus?: OAuthStatus;
  oauthConfig?: OAuthConfig;
  catalogDigest?: string;
  revision: number;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  disabledAt?: string;
}

/** One tool of a server's stored catalog. */
export interface ToolRecord {
  server: string;
  id: string;
  name: string;
  position: number;
  fingerprint: string;
  definition: Record<string, unknown>;
}

/** One server grant. */
export interface GrantRecord {
  server: string;
  toolId: string;
  mode: "read" | "write";
  /** The fingerprint the reviewer approved. */
  fingerprint: string;
  /** Tool ids of the read tools that verify a write. */
  verifiers: string[];
  grantedAt: string;
  /** What a person pre-authorized for unattended writes (JSON), when anything. */
  preauthorization?: unknown;
}

type Row = Record<string, unknown>;

function str(v: unknown): string | undefined {
  return v === null || v === undefined ? undefined : String(v);
}

function toServer(row: Row): ServerRecord {
  return {
    name: String(row.name),
    transport: row.transport as Transport,
    url: str(row.url),
    command: row.command ? JSON.parse(String(row.command)) : undefined,
    cwd: str(row.cwd),
    env: row.env ? JSON.parse(String(row.env)) : undefined,
    bindRo: row.bind_ro ? JSON.parse(String(row.bind_ro)) : undefined,
    auth: row.auth as AuthKind,
    secret: str(row.secret),
    oauthStatus: str(row.oauth_status) as OAuthStatus | undefined,
    oauthConfig: row.oauth_config ? JSON.parse(String(row.oauth_config)) : undefined,
    catalogDigest: str(row.catalog_digest),
    revision: Number(row.revision),
    enabled: Number(row.enabled) === 1,
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
    disabledAt: str(row.disabled_at),
  };
}

/** Current time as ISO 8601. */
export function now(): string {
  return new Date().toISOString();
}

/** Runs `fn` inside `BEGIN IMMEDIATE … COMMIT` (rolled back when it throws). */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const out = fn();
    db.exec("COMMIT");
    return out;
  } catch (e) {
    db.exec("ROLLBACK");
    throw e;
  }
}

/** The server named `name`, enabled or not. */
export function findServer(db: DatabaseSync, name: string): ServerRecord | undefined {
  const row = db.prepare("SELECT * FROM gateway_servers WHERE name = ?").get(name) as Row | undefined;
  return row ? toServer(row) : undefined;
}

/** The enabled server named `name`, or a `not_found` / `disabled` GatewayError. */
export function requireServer(db: DatabaseSync, name: string): ServerRecord {
  const server = findServer(db, name);
  if (!server) {
    throw new GatewayError("not_found", `Server "${name}" is not registered: see poly servers list`);
  }
  if (!server.enabled) {
    throw new GatewayError("disabled", `Server "${name}" was removed: register it again with poly servers add`);
  }
  return server;
}

/** All servers, by name; disabled ones only when asked. */
export function listServerRecords(db: DatabaseSync, includeDisabled = false): ServerRecord[] {
  const rows = db.prepare(
    `SELECT * FROM gateway_servers ${includeDisabled ? "" : "WHERE enabled = 1"} ORDER BY name`,
  ).all() as Row[];
  return rows.map(toServer);
}

/** The stored catalog of a server, in the server's order. */
export function catalogOf(db: DatabaseSync, server: string): ToolRecord[] {
  const rows = db.prepare("SELECT * FROM gateway_tools WHERE server = ? ORDER BY position").all(server) as Row[];
  return rows.map((r) => ({
    server: String(r.server),
    id: String(r.tool_id),
    name: String(r.name),
    position: Number(r.position),
    fingerprint: String(r.fingerprint),
    definition: JSON.parse(String(r.definition)),
  }));
}

/** The grants of one server, or of every server. */
export function grantsOf(db: DatabaseSync, server?: string): GrantRecord[] {
  const rows =
    (server === undefined
      ? db.prepare("SELECT * FROM gateway_grants ORDER BY server, tool_id").all()
      : db.prepare("SELECT * FROM gateway_grants WHERE server = ? ORDER BY tool_id").all(server)) as Row[];
  return rows.map((r) => ({
    server: String(r.server),
    toolId: String(r.tool_id),
    mode: r.mode as "read" | "write",
    fingerprint: String(r.fingerprint),
    verifiers: JSON.parse(String(r.verifiers)),
    grantedAt: String(r.granted_at),
    ...(r.preauthorization ? { preauthorization: JSON.parse(String(r.preauthorization)) } : {}),
  }));
}

/** A new server row as {@link insertServer} takes it. */
export type NewServer = Omit<ServerRecord, "revision" | "enabled" | "createdAt" | "updatedAt" | "disabledAt">;

/** Throws unless no enabled server is called `name`. */
export function assertNameFree(db: DatabaseSync, name: string): void {
  if (findServer(db, name)?.enabled) {
    throw new GatewayError("exists", `Server "${name}" is already registered: remove it first or choose another name`);
  }
}

/**
 * Inserts a new server row at revision 1 with its catalog (when discovered), replacing
 * a disabled one of the same name: a removed server's catalog and grants do not come back.
 */
export function insertServer(db: DatabaseSync, record: NewServer, catalog?: Catalog): ServerRecord {
  return transaction(db, () => {
    assertNameFree(db, record.name);
    db.prepare("DELETE FROM gateway_servers WHERE name = ?").run(record.name);
    const at = now();
    db.prepare(
      `INSERT INTO gateway_servers (name, transport, url, command, cwd, env, bind_ro, auth, secret, oauth_status,
        oauth_config, catalog_digest, revision, enabled, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 1, ?, ?)`,
    ).run(
      record.name,
      record.transport,
      record.url ?? null,
      record.command ? JSON.stringify(record.command) : null,
      record.cwd ?? null,
      record.env ? JSON.stringify(record.env) : null,
      record.bindRo?.length ? JSON.stringify(record.bindRo) : null,
      record.auth,
      record.secret ?? null,
      record.oauthStatus ?? null,
      record.oauthConfig ? JSON.stringify(record.oauthConfig) : null,
      record.catalogDigest ?? null,
      at,
      at,
    );
    if (catalog) writeCatalog(db, record.name, catalog);
    return findServer(db, record.name)!;
  });
}

/** Replaces the stored catalog rows of a server (inside the caller's transaction). */
export function writeCatalog(db: DatabaseSync, server: string, catalog: Catalog): void {
  db.prepare("DELETE FROM gateway_tools WHERE server = ?").run(server);
  const insert = db.prepare(
    "INSERT INTO gateway_tools (server, tool_id, name, position, fingerprint, definition) VALUES (?, ?, ?, ?, ?, ?)",
  );
  for (const [position, tool] of catalog.tools.entries()) {
    insert.run(server, tool.id, tool.name, position, tool.fingerprint, JSON.stringify(tool.definition));
  }
  db.prepare("UPDATE gateway_servers SET catalog_digest = ? WHERE name = ?").run(catalog.digest, server);
}

/** Message of a revision conflict. */
export function conflictMessage(name: string, expected: number, actual: number): string {
  return `Server "${name}" changed since revision ${expected} (it is now at revision ${actual}): review it and retry with expected revision ${actual}`;
}

/**
 * One write to a server: inside an immediate transaction, checks that the server is
 * enabled and at `expectedRevision`, runs `change` (which returns whether it changed
 * anything), and raises the revision by one if so. Returns the server afterwards.
 */
export function writeServer(
  db: DatabaseSync,
  name: string,
  expectedRevision: number,
  change: (server: ServerRecord) => boolean,
): { server: ServerRecord; changed: boolean } {
  return transaction(db, () => {
    const server = requireServer(db, name);
    if (server.revision !== expectedRevision) {
      throw new GatewayError("revision_conflict", conflictMessage(name, expectedRevision, server.revision));
    }
    const changed = change(server);
    if (changed) {
      db.prepare("UPDATE gateway_servers SET revision = revision + 1, updated_at = ? WHERE name = ?").run(now(), name);
    }
    return { server: findServer(db, name)!, changed };
  });
}

/** Updates the sealed secret and OAuth status of a server without touching its revision (credentials are not reviewed state). */
export function updateCredentials(
  db: DatabaseSync,
  name: string,
  fields: { secret?: string | null; oauthStatus?: OAuthStatus; oauthConfig?: OAuthConfig },
): void {
  const sets: string[] = [];
  const values: (string | null)[] = [];
  if (fields.secret !== undefined) {
    sets.push("secret = ?");
    values.push(fields.secret);
  }
  if (fields.oauthStatus !== undefined) {
    sets.push("oauth_status = ?");
    values.push(fields.oauthStatus);
  }
  if (fields.oauthConfig !== undefined) {
    sets.push("oauth_config = ?");
    values.push(JSON.stringify(fields.oauthConfig));
  }
  if (sets.length === 0) return;
  sets.push("updated_at = ?");
  values.push(now());
  db.prepare(`UPDATE gateway_servers SET ${sets.join(", ")} WHERE name = ?`).run(...values, name);
}
