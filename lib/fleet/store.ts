/**
 * The fleet's view of the state database: sessions, ratings, engine runs
 * (health) and tool calls (statistics). Every write is one statement, so
 * several server processes can share the database (WAL, busy timeout).
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type { EngineName } from "./types.ts";
import { compareText } from "../report/sort.ts";

/** Outcome of one engine process. */
export type RunOutcome = "ok" | "error" | "timeout" | "quota_exhausted" | "rate_limited" | "cancelled";

/** One stored session. */
export interface SessionRecord {
  handle: string;
  engine: EngineName;
  session_id: string;
  tool: string;
  model: string | null;
  effort: string | null;
  level: number | null;
  cwd: string;
  read_only: boolean;
  web: boolean;
  parent: string | null;
  turns: number;
  preview: string;
  /** The latest answer, scrubbed, cut to 2 000 characters. */
  answer: string | null;
  created_at: string;
  updated_at: string;
  rating: number | null;
}

/** What the cascades know about one engine. */
export interface EngineHealth {
  engine: EngineName;
  /** Completed runs counted (ok, error, timeout) in the window. */
  samples: number;
  /** ok / samples; null without samples. */
  successRate: number | null;
  /** Median latency of recent successful runs; null with fewer than 3. */
  medianLatencyMs: number | null;
  /** A quota failure within the cooldown, not followed by a success. */
  quotaExhausted: boolean;
  /** When that quota failure was recorded (ms since epoch). */
  quotaAtMs: number | null;
  /** Success rate below the threshold over at least 3 samples. */
  unhealthy: boolean;
}

/** Per-tool statistics. */
export interface ToolStats {
  tool: string;
  calls: number;
  failures: number;
  out_chars: number;
  raw_chars: number;
  ratings: { count: number; mean: number | null; distribution: Record<"1" | "2" | "3" | "4" | "5", number> };
}

/** Options for health queries. */
export interface HealthOptions {
  threshold: number;
  cooldownMs: number;
  /** Only runs this recent count (default 24 h). */
  windowMs?: number;
  /** At most this many recent runs (default 20). */
  last?: number;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : Math.round((s[mid - 1] + s[mid]) / 2);
}

/** The fleet's tables. */
export class FleetStore {
  constructor(readonly db: DatabaseSync) {}

  /** Records one engine process. */
  recordRun(
    r: { engine: EngineName; model?: string; tool: string; outcome: RunOutcome; latencyMs: number; atMs?: number },
  ): void {
    this.db.prepare(
      "INSERT INTO fleet_runs (at_ms, engine, model, tool, outcome, latency_ms) VALUES (?, ?, ?, ?, ?, ?)",
    ).run(r.atMs ?? Date.now(), r.engine, r.model ?? null, r.tool, r.outcome, Math.max(0, Math.round(r.latencyMs)));
  }

  /** Records one tool call. */
  recordCall(c: {
    tool: string;
    engine?: string;
    handle?: string;
    ok: boolean;
    errorKind?: string;
    outChars: number;
    rawChars: number;
    latencyMs: number;
  }): void {
    this.db.prepare(
      `INSERT INTO fleet_calls (at_ms, tool, engine, handle, ok, error_kind, out_chars, raw_chars, latency_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      Date.now(),
      c.tool,
      c.engine ?? null,
      c.handle ?? null,
      c.ok ? 1 : 0,
      c.errorKind ?? null,
      c.outChars,
      c.rawChars,
      Math.round(c.latencyMs),
    );
  }

  /** The health of `engine` from its recent runs. */
  health(engine: EngineName, o: HealthOptions, nowMs = Date.now()): EngineHealth {
    const since = nowMs - (o.windowMs ?? 24 * 3600_000);
    const rows = this.db.prepare(
      `SELECT outcome, latency_ms FROM fleet_runs
       WHERE engine = ? AND at_ms >= ? AND outcome IN ('ok', 'error', 'timeout')
       ORDER BY id DESC LIMIT ?`,
    ).all(engine, since, o.last ?? 20) as { outcome: string; latency_ms: number }[];
    const ok = rows.filter((r) => r.outcome === "ok");
    const quota = this.db.prepare(
      "SELECT id, at_ms FROM fleet_runs WHERE engine = ? AND outcome = 'quota_exhausted' ORDER BY id DESC LIMIT 1",
    ).get(engine) as { id: number; at_ms: number } | undefined;
    let quotaExhausted = false;
    if (quota && nowMs - quota.at_ms < o.cooldownMs) {
      const later = this.db.prepare(
        "SELECT 1 AS x FROM fleet_runs WHERE engine = ? AND outcome = 'ok' AND id > ? LIMIT 1",
      )
        .get(engine, quota.id);
      quotaExhausted = !later;
    }
    const successRate = rows.length ? ok.length / rows.length : null;
    return {
      engine,
      samples: rows.length,
      successRate,
      medianLatencyMs: ok.length >= 3 ? median(ok.map((r) => r.latency_ms)) : null,
      quotaExhausted,
      quotaAtMs: quota?.at_ms ?? null,
      unhealthy: rows.length >= 3 && successRate !== null && successRate < o.threshold,
    };
  }

  /** Stores a new session (or refreshes one the engine reported again). */
  saveSession(s: {
    handle: string;
    engine: EngineName;
    sessionId: string;
    tool: string;
    model?: string;
    effort?: string;
    level?: number;
    cwd: string;
    readOnly: boolean;
    web: boolean;
    parent?: string;
    preview: string;
    /** The answer (already scrubbed); kept cut to 2 000 characters. */
    answer?: string;
  }): void {
    const now = new Date().toISOString();
    this.db.prepare(
      `INSERT INTO fleet_sessions
         (handle, engine, session_id, tool, model, effort, level, cwd, read_only, web, parent, turns, preview, answer,
          created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)
       ON CONFLICT (handle) DO UPDATE SET turns = turns + 1, updated_at = excluded.updated_at,
         answer = COALESCE(excluded.answer, answer)`,
    ).run(
      s.handle,
      s.engine,
      s.sessionId,
      s.tool,
      s.model ?? null,
      s.effort ?? null,
      s.level ?? null,
      s.cwd,
      s.readOnly ? 1 : 0,
      s.web ? 1 : 0,
      s.parent ?? null,
      s.preview,
      s.answer === undefined ? null : s.answer.slice(0, 2000),
      now,
      now,
    );
  }

  /** One session, or undefined. */
  session(handle: string): SessionRecord | undefined {
    const row = this.db.prepare(
      `SELECT s.*, r.score AS rating FROM fleet_sessions s LEFT JOIN fleet_ratings r USING (handle) WHERE s.handle = ?`,
    ).get(handle) as Record<string, unknown> | undefined;
    return row ? toSession(row) : undefined;
  }

  /** Recent sessions, newest first. */
  sessions(limit = 50): SessionRecord[] {
    const rows = this.db.prepare(
      `SELECT s.*, r.score AS rating FROM fleet_sessions s LEFT JOIN fleet_ratings r USING (handle)
       ORDER BY s.updated_at DESC, s.rowid DESC LIMIT ?`,
    ).all(limit) as Record<string, unknown>[];
    return rows.map(toSession);
  }

  /** Rates a session 1–5 (rating again replaces the earlier score). */
  rate(handle: string, score: number, note?: string): void {
    this.db.prepare(
      `INSERT INTO fleet_ratings (handle, score, note, rated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (handle) DO UPDATE SET score = excluded.score, note = excluded.note, rated_at = excluded.rated_at`,
    ).run(handle, score, note ?? null, new Date().toISOString());
  }

  /** Calls, characters and ratings per tool. */
  toolStats(): ToolStats[] {
    const calls = this.db.prepare(
      `SELECT tool, COUNT(*) AS calls, SUM(1 - ok) AS failures, SUM(out_chars) AS out_chars, SUM(raw_chars) AS raw_chars
       FROM fleet_calls GROUP BY tool`,
    ).all() as { tool: string; calls: number; failures: number; out_chars: number; raw_chars: number }[];
    const ratings = this.db.prepare(
      `SELECT s.tool AS tool, r.score AS score, COUNT(*) AS n FROM fleet_ratings r JOIN fleet_sessions s USING (handle)
       GROUP BY s.tool, r.score`,
    ).all() as { tool: string; score: number; n: number }[];
    const byTool = new Map<string, ToolStats>();
    const get = (tool: string): ToolStats => {
      let t = byTool.get(tool);
      if (!t) {
        t = {
          tool,
          calls: 0,
          failures: 0,
          out_chars: 0,
          raw_chars: 0,
          ratings: { count: 0, mean: null, distribution: { "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 } },
        };
        byTool.set(tool, t);
      }
      return t;
    };
    for (const c of calls) {
      Object.assign(get(c.tool), {
        calls: Number(c.calls),
        failures: Number(c.failures),
        out_chars: Number(c.out_chars),
        raw_chars: Number(c.raw_chars),
      });
    }
    for (const r of ratings) {
      const t = get(r.tool);
      t.ratings.distribution[String(r.score) as "1"] += Number(r.n);
      t.ratings.count += Number(r.n);
    }
    for (const t of byTool.values()) {
      if (t.ratings.count) {
        const sum = Object.entries(t.ratings.distribution).reduce((acc, [k, n]) => acc + Number(k) * n, 0);
        t.ratings.mean = Math.round((sum / t.ratings.count) * 100) / 100;
      }
    }
    return [...byTool.values()].sort((a, b) => compareText(a.tool, b.tool));
  }
}

function toSession(row: Record<string, unknown>): SessionRecord {
  return {
    handle: String(row.handle),
    engine: row.engine as EngineName,
    session_id: String(row.session_id),
    tool: String(row.tool),
    model: (row.model as string | null) ?? null,
    effort: (row.effort as string | null) ?? null,
    level: row.level === null || row.level === undefined ? null : Number(row.level),
    cwd: String(row.cwd),
    read_only: Number(row.read_only) === 1,
    web: Number(row.web) === 1,
    parent: (row.parent as string | null) ?? null,
    turns: Number(row.turns),
    preview: String(row.preview ?? ""),
    answer: row.answer === null || row.answer === undefined ? null : String(row.answer),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
    rating: row.rating === null || row.rating === undefined ? null : Number(row.rating),
  };
}
