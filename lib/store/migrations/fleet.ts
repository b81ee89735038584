/**
 * The fleet's tables: sessions, ratings, engine runs (health) and tool calls
 * (statistics). Several `poly mcp` processes write them at once; every write is
 * a single statement, so WAL mode and the busy timeout are all they need.
 *
 * @module
 */
import type { Migration } from "../mod.ts";

/** `engine:id` handles and what they were started for (follow_up resumes with the same access). */
export const FLEET_001_SESSIONS: Migration = {
  name: "fleet-001-sessions",
  sql: `
    CREATE TABLE fleet_sessions (
      handle      TEXT PRIMARY KEY,
      engine      TEXT NOT NULL,
      session_id  TEXT NOT NULL,
      tool        TEXT NOT NULL,
      model       TEXT,
      effort      TEXT,
      level       INTEGER,
      cwd         TEXT NOT NULL,
      read_only   INTEGER NOT NULL DEFAULT 0,
      web         INTEGER NOT NULL DEFAULT 0,
      parent      TEXT,
      turns       INTEGER NOT NULL DEFAULT 1,
      preview     TEXT NOT NULL DEFAULT '',
      created_at  TEXT NOT NULL,
      updated_at  TEXT NOT NULL
    );
    CREATE INDEX fleet_sessions_updated ON fleet_sessions (updated_at);
  `,
};

/** One rating (1–5) per session; rating again replaces it. */
export const FLEET_002_RATINGS: Migration = {
  name: "fleet-002-ratings",
  sql: `
    CREATE TABLE fleet_ratings (
      handle    TEXT PRIMARY KEY REFERENCES fleet_sessions (handle) ON DELETE CASCADE,
      score     INTEGER NOT NULL CHECK (score BETWEEN 1 AND 5),
      note      TEXT,
      rated_at  TEXT NOT NULL
    );
  `,
};

/** Every engine process poly started: the health record the cascades read. */
export const FLEET_003_RUNS: Migration = {
  name: "fleet-003-runs",
  sql: `
    CREATE TABLE fleet_runs (
      id          INTEGER PRIMARY KEY AUTOINCREMENT,
      at_ms       INTEGER NOT NULL,
      engine      TEXT NOT NULL,
      model       TEXT,
      tool        TEXT NOT NULL,
      outcome     TEXT NOT NULL CHECK (outcome IN ('ok', 'error', 'timeout', 'quota_exhausted', 'rate_limited', 'cancelled')),
      latency_ms  INTEGER NOT NULL
    );
    CREATE INDEX fleet_runs_engine ON fleet_runs (engine, at_ms);
  `,
};

/** Every tool call: characters returned to the caller versus raw engine output. */
export const FLEET_004_CALLS: Migration = {
  name: "fleet-004-calls",
  sql: `
    CREATE TABLE fleet_calls (
      id          INTEGER PRIMARY KEY AUTOINCREMENT,
      at_ms       INTEGER NOT NULL,
      tool        TEXT NOT NULL,
      engine      TEXT,
      handle      TEXT,
      ok          INTEGER NOT NULL,
      error_kind  TEXT,
      out_chars   INTEGER NOT NULL,
      raw_chars   INTEGER NOT NULL,
      latency_ms  INTEGER NOT NULL
    );
    CREATE INDEX fleet_calls_tool ON fleet_calls (tool);
  `,
};

/** The latest answer of a session (scrubbed, cut to 2 000 characters), for `poly sessions` and the dashboard. */
export const FLEET_005_SESSION_ANSWER: Migration = {
  name: "fleet-005-session-answer",
  sql: "ALTER TABLE fleet_sessions ADD COLUMN answer TEXT;",
};

/** The fleet's migrations, in order. */
export const FLEET_MIGRATIONS: Migration[] = [
  FLEET_001_SESSIONS,
  FLEET_002_RATINGS,
  FLEET_003_RUNS,
  FLEET_004_CALLS,
  FLEET_005_SESSION_ANSWER,
];
