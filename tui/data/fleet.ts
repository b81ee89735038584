/**
 * The fleet's tables as the dashboard reads them. Sessions, per-tool statistics
 * and engine health come from `FleetStore` (lib/fleet/store.ts); what it has no
 * query for — per-session call totals, ratings by engine and level, calls per
 * day — is read here, read-only.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { FleetStore } from "../../lib/fleet/store.ts";
import { DEFAULT_HEALTH_THRESHOLD, DEFAULT_QUOTA_COOLDOWN_MINUTES } from "../../lib/fleet/defaults.ts";
import { ENGINES } from "../../lib/fleet/types.ts";
import { type Clock, localDay } from "../clock.ts";
import { callerPrompt } from "./prompt.ts";
import {
  CALL_DAYS,
  type CallStats,
  type DayCalls,
  type FleetSnapshot,
  type HealthLine,
  type RatingGroup,
  type Ratings,
  type SessionLine,
  type ToolLine,
} from "./types.ts";

/** The fleet tables; the snapshot reads them only when all are present. */
export const FLEET_TABLES = ["fleet_sessions", "fleet_ratings", "fleet_runs", "fleet_calls"] as const;

/** How many sessions the dashboard lists (newest first). */
export const SESSION_LIMIT = 500;

type Row = Record<string, unknown>;

/** Recent sessions with their call totals, latest outcome and rating note. */
export function readSessions(db: DatabaseSync, limit = SESSION_LIMIT): SessionLine[] {
  const sessions = new FleetStore(db).sessions(limit);
  if (sessions.length === 0) return [];
  const totals = new Map<string, { calls: number; ms: number; chars: number }>();
  for (
    const r of db.prepare(
      `SELECT handle, COUNT(*) AS calls, SUM(latency_ms) AS ms, SUM(out_chars) AS chars FROM fleet_calls
       WHERE handle IS NOT NULL AND tool <> 'rate' GROUP BY handle`,
    ).all() as Row[]
  ) totals.set(String(r.handle), { calls: Number(r.calls), ms: Number(r.ms), chars: Number(r.chars) });
  const latest = new Map<string, string>();
  for (
    const r of db.prepare(
      `SELECT handle, ok, error_kind FROM fleet_calls WHERE id IN
         (SELECT MAX(id) FROM fleet_calls WHERE handle IS NOT NULL AND tool <> 'rate' GROUP BY handle)`,
    ).all() as Row[]
  ) latest.set(String(r.handle), Number(r.ok) === 1 ? "ok" : String(r.error_kind ?? "error"));
  const notes = new Map<string, string>();
  for (const r of db.prepare("SELECT handle, note FROM fleet_ratings WHERE note IS NOT NULL").all() as Row[]) {
    notes.set(String(r.handle), String(r.note));
  }
  return sessions.map((s) => {
    const t = totals.get(s.handle);
    const asked = callerPrompt(s.preview);
    return {
      ...s,
      status: latest.get(s.handle) ?? null,
      calls: t?.calls ?? 0,
      durationMs: t?.ms ?? 0,
      outChars: t?.chars ?? 0,
      note: notes.get(s.handle) ?? null,
      prompt: asked.text,
      promptFramed: asked.framed,
    };
  });
}

function group(key: string, counts: Map<number, number>): RatingGroup {
  const distribution: RatingGroup["distribution"] = [0, 0, 0, 0, 0];
  for (const [score, n] of counts) if (score >= 1 && score <= 5) distribution[score - 1] += n;
  const count = distribution.reduce((a, b) => a + b, 0);
  const sum = distribution.reduce((a, n, i) => a + n * (i + 1), 0);
  return { key, count, mean: count ? Math.round((sum / count) * 100) / 100 : null, distribution };
}

function grouped(rows: Row[]): RatingGroup[] {
  const by = new Map<string, Map<number, number>>();
  for (const r of rows) {
    const key = String(r.k);
    let m = by.get(key);
    if (!m) by.set(key, m = new Map());
    m.set(Number(r.score), (m.get(Number(r.score)) ?? 0) + Number(r.n));
  }
  return [...by.entries()].map(([k, m]) => group(k, m));
}

/** Ratings by engine, by level and by tool (the tool figures are `FleetStore.toolStats`'). */
export function readRatings(db: DatabaseSync): Ratings {
  const q = (expr: string) =>
    db.prepare(
      `SELECT ${expr} AS k, r.score AS score, COUNT(*) AS n FROM fleet_ratings r JOIN fleet_sessions s USING (handle)
       GROUP BY k, r.score`,
    ).all() as Row[];
  const byEngine = grouped(q("s.engine")).sort((a, b) => a.key.localeCompare(b.key));
  const byLevel = grouped(q("COALESCE('L' || s.level, 'no level')")).sort((a, b) => a.key.localeCompare(b.key));
  const byTool = new FleetStore(db).toolStats().filter((t) => t.ratings.count > 0).map((t) => ({
    key: t.tool,
    count: t.ratings.count,
    mean: t.ratings.mean,
    distribution: [1, 2, 3, 4, 5].map((s) => t.ratings.distribution[String(s) as "1"]) as RatingGroup["distribution"],
  }));
  const all = new Map<number, number>();
  for (const g of byEngine) g.distribution.forEach((n, i) => all.set(i + 1, (all.get(i + 1) ?? 0) + n));
  return { total: group("all", all), byEngine, byLevel, byTool };
}

/** Per-tool totals, calls per local day over the last {@link CALL_DAYS} days, and engine health. */
export function readCalls(db: DatabaseSync, clock: Clock): CallStats {
  const store = new FleetStore(db);
  const now = clock.now();
  const today = localDay(clock, now);
  const first = today - CALL_DAYS + 1;
  const offsetMs = clock.offsetMinutes(now) * 60_000;
  const since = first * 86_400_000 - offsetMs;
  const rows = db.prepare(
    `SELECT tool, CAST((at_ms + ?) / 86400000 AS INTEGER) AS day, COUNT(*) AS calls, SUM(1 - ok) AS failures,
            SUM(out_chars) AS chars
     FROM fleet_calls WHERE at_ms >= ? GROUP BY tool, day`,
  ).all(offsetMs, since) as Row[];
  const empty = (): DayCalls[] =>
    Array.from({ length: CALL_DAYS }, (_, i) => ({ day: first + i, calls: 0, failures: 0, outChars: 0 }));
  const days = empty();
  const daysByTool: Record<string, DayCalls[]> = {};
  for (const r of rows) {
    const i = Number(r.day) - first;
    if (i < 0 || i >= CALL_DAYS) continue;
    const tool = String(r.tool);
    daysByTool[tool] ??= empty();
    for (const d of [days[i], daysByTool[tool][i]]) {
      d.calls += Number(r.calls);
      d.failures += Number(r.failures);
      d.outChars += Number(r.chars);
    }
  }
  const health = ENGINES.map((engine): HealthLine => {
    const h = store.health(
      engine,
      { threshold: DEFAULT_HEALTH_THRESHOLD, cooldownMs: DEFAULT_QUOTA_COOLDOWN_MINUTES * 60_000 },
      now,
    );
    // The same runs FleetStore.health() counts (last 24 h, latest 20), their successful ones timed.
    const ok = (db.prepare(
      `SELECT outcome, latency_ms FROM fleet_runs
       WHERE engine = ? AND at_ms >= ? AND outcome IN ('ok', 'error', 'timeout')
       ORDER BY id DESC LIMIT 20`,
    ).all(engine, now - 24 * 3600_000) as Row[]).filter((r) => r.outcome === "ok").map((r) => Number(r.latency_ms));
    return { ...h, okRuns: ok.length, okMedianMs: median(ok) };
  }).filter((h) => h.samples > 0 || h.quotaExhausted);
  const engineOut = new Map<string, { chars: number; calls: number }>();
  for (
    const r of db.prepare(
      "SELECT tool, SUM(out_chars) AS chars, COUNT(*) AS calls FROM fleet_calls WHERE raw_chars > 0 GROUP BY tool",
    ).all() as Row[]
  ) engineOut.set(String(r.tool), { chars: Number(r.chars), calls: Number(r.calls) });
  const tools = store.toolStats().map((t): ToolLine => ({
    ...t,
    engine_out_chars: engineOut.get(t.tool)?.chars ?? 0,
    engine_calls: engineOut.get(t.tool)?.calls ?? 0,
  }));
  return { tools, days, daysByTool, health };
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : Math.round((s[mid - 1] + s[mid]) / 2);
}

/** The fleet's part of a snapshot. */
export function readFleet(db: DatabaseSync, clock: Clock): FleetSnapshot {
  return { sessions: readSessions(db), ratings: readRatings(db), calls: readCalls(db, clock) };
}
