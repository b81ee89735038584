/**
 * Access to `poly mcp --http`: members (a name and a role), their access tokens
 * (only a SHA-256 hash of each secret is kept), and proposed operations waiting
 * for approval (the exact arguments, what they would do, and their outcome).
 *
 * @module
 */
import type { Migration } from "../mod.ts";

/** Members, tokens and proposals. */
export const ACCESS_001: Migration = {
  name: "access-001-members-tokens-proposals",
  sql: `
    CREATE TABLE access_members (
      name        TEXT PRIMARY KEY,
      role        TEXT NOT NULL CHECK (role IN ('viewer', 'member', 'admin')),
      created_at  TEXT NOT NULL,
      updated_at  TEXT NOT NULL
    );
    CREATE TABLE access_tokens (
      id            TEXT PRIMARY KEY,
      name          TEXT NOT NULL,
      member        TEXT NOT NULL,
      hash          TEXT NOT NULL UNIQUE,
      access        TEXT NOT NULL CHECK (access IN ('read', 'act')),
      approvals     INTEGER NOT NULL DEFAULT 0,
      created_at    TEXT NOT NULL,
      expires_at    TEXT,
      revoked_at    TEXT,
      last_used_at  TEXT
    );
    CREATE INDEX access_tokens_member ON access_tokens (member);
    CREATE TABLE access_proposals (
      id              TEXT PRIMARY KEY,
      tool            TEXT NOT NULL,
      arguments       TEXT NOT NULL,
      root            TEXT NOT NULL,
      default_config  TEXT,
      preview         TEXT NOT NULL,
      guard           TEXT,
      proposed_by     TEXT NOT NULL,
      token_id        TEXT,
      status          TEXT NOT NULL CHECK (status IN ('pending', 'running', 'applied', 'failed', 'rejected', 'stale')),
      created_at      TEXT NOT NULL,
      decided_by      TEXT,
      decided_at      TEXT,
      note            TEXT,
      result          TEXT,
      finished_at     TEXT
    );
    CREATE INDEX access_proposals_status ON access_proposals (status, created_at);
  `,
};

/** Access migrations, in order. */
export const ACCESS_MIGRATIONS: Migration[] = [ACCESS_001];
