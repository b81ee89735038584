/**
 * The gateway's tables: upstream servers (sealed secrets only), their catalogs, grants,
 * and operations (reads with receipts, writes with their verification outcome).
 *
 * @module
 */
import type { Migration } from "../mod.ts";

/** Gateway migrations, in order. */
export const GATEWAY_MIGRATIONS: Migration[] = [
  {
    name: "gateway-001-servers",
    sql: `
CREATE TABLE gateway_servers (
  name TEXT PRIMARY KEY,
  transport TEXT NOT NULL CHECK (transport IN ('http', 'stdio')),
  url TEXT,
  command TEXT,
  cwd TEXT,
  auth TEXT NOT NULL CHECK (auth IN ('none', 'bearer', 'oauth')),
  secret TEXT,
  oauth_status TEXT CHECK (oauth_status IN ('awaiting_consent', 'connected', 'refreshing', 'reconnect_required')),
  oauth_config TEXT,
  catalog_digest TEXT,
  revision INTEGER NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  disabled_at TEXT
);
CREATE TABLE gateway_tools (
  server TEXT NOT NULL REFERENCES gateway_servers(name) ON DELETE CASCADE,
  tool_id TEXT NOT NULL,
  name TEXT NOT NULL,
  position INTEGER NOT NULL,
  fingerprint TEXT NOT NULL,
  definition TEXT NOT NULL,
  PRIMARY KEY (server, tool_id)
);
CREATE TABLE gateway_grants (
  server TEXT NOT NULL REFERENCES gateway_servers(name) ON DELETE CASCADE,
  tool_id TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('read', 'write')),
  fingerprint TEXT NOT NULL,
  verifiers TEXT NOT NULL DEFAULT '[]',
  granted_at TEXT NOT NULL,
  PRIMARY KEY (server, tool_id)
);
CREATE TABLE gateway_ops (
  id TEXT PRIMARY KEY,
  server TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('read', 'write')),
  tool_id TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  profile TEXT NOT NULL,
  arguments TEXT NOT NULL,
  verification TEXT,
  status TEXT NOT NULL,
  result TEXT,
  observed TEXT,
  detail TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  resolution TEXT,
  resolution_note TEXT,
  resolved_at TEXT
);
CREATE INDEX gateway_ops_server_status ON gateway_ops (server, status);
`,
  },
  {
    // A stdio upstream's environment (sealed, like every credential) and read-only binds.
    name: "gateway-002-stdio-env-binds",
    sql: `
ALTER TABLE gateway_servers ADD COLUMN env TEXT;
ALTER TABLE gateway_servers ADD COLUMN bind_ro TEXT;
`,
  },
  {
    // A write grant's pre-authorization (seed 002 preauthorizableFor) and how each write was authorized.
    name: "gateway-003-preauthorization",
    sql: `
ALTER TABLE gateway_grants ADD COLUMN preauthorization TEXT;
ALTER TABLE gateway_ops ADD COLUMN authorization TEXT;
`,
  },
];
