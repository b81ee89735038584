/**
 * The shared remote result cache, on the Turborepo remote-cache HTTP API
 * (`GET`/`PUT /v8/artifacts/:hash?teamId=…|slug=…`, bearer token), so Vercel's
 * hosted cache or any self-hosted server that speaks it (the
 * `turborepo-remote-cache` npm server on S3, GCS, Azure or disk) can share
 * results between CI runners.
 *
 * What travels are rows of the local cache (their keys are the local keys:
 * content, effective config, engine digests, poly build; with the checkout's
 * folder written as a token, so clones at different paths share them — a row
 * whose result quotes that folder travels bound to it), batched: one
 * artifact holds up to {@link BATCH_ROWS} rows and is named by the SHA-256 of its
 * bytes; an index artifact, named by the run's inputs (build, kind, mode,
 * paths relative to the anchor, configs, shard), lists the batches. A run
 * fetches the index while discovery walks the tree, then the batches, and puts
 * their rows in the local cache before any file runs; after the run it uploads
 * the rows it made as new batches and a new index (the previous batches first,
 * trimmed to a bound). Every artifact starts with a line
 * `poly-remote/1 <HMAC-SHA256 hex>` over the artifact's name and its gzip body
 * under `POLY_REMOTE_CACHE_SIGNING_KEY` (or `-` without a key, when a batch is
 * checked against its own hash); a mismatch is refused and counted.
 *
 * A server that does not answer costs one request timeout
 * (`POLY_REMOTE_CACHE_TIMEOUT_MS`, default 2000) once per run, then the run
 * goes on locally with one warning; nothing remote ever fails a run. Counters
 * (hits, misses, refusals, bytes) accumulate in `remote.json` beside the local
 * database for `poly cache stats`.
 *
 * @module
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { digestOf } from "../digest.ts";
import { gunzipSync, gzipSync } from "node:zlib";
import { join, relative } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { openDatabase } from "../_sqlite.ts";
import { CACHE_FORMAT } from "../key.ts";
import { env } from "../../paths/mod.ts";
import { relocated } from "../relocate.ts";

/** Rows per batch artifact. */
export const BATCH_ROWS = 1000;
const MAGIC = "poly-remote/1";

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

/** Counters of `poly cache stats` (cumulative in `remote.json`). */
export interface RemoteStats {
  url: string;
  /** Artifacts fetched and accepted. */
  hits: number;
  /** Artifacts the server did not have (404). */
  misses: number;
  /** Artifacts refused: bad signature, foreign format, wrong hash. */
  refusals: number;
  /** Requests that failed (timeout, connection refused, HTTP error). */
  failures: number;
  /** Rows received into the local cache. */
  rows_in: number;
  /** Rows sent. */
  rows_out: number;
  bytes_in: number;
  bytes_out: number;
  /** The latest warning, if any. */
  last_warning?: string;
}

/** The remote settings from `[cache] remote` / `remote_team` and the environment; undefined when none. */
export function remoteSettings(cache: { remote?: string; remote_team?: string }): RemoteSettings | undefined {
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

/** The name of the index artifact of a run's inputs. */
export function indexName(inputs: unknown): string {
  return digestOf(`poly-remote-index/${CACHE_FORMAT}\0${JSON.stringify(inputs)}`);
}

/**
 * One result as it travels: as the local cache keeps it (one that names its checkout's folder, a
 * message quoting an absolute path, is kept with that folder: another checkout takes it for a miss).
 */
type Row = [ns: string, key: string, value: string];
interface IndexPayload {
  batches: { id: string; rows: number }[];
}

/** The gzip body and the first line of an artifact. */
function seal(settings: RemoteSettings, id: string | undefined, payload: unknown): { id: string; bytes: Uint8Array } {
  const body = gzipSync(JSON.stringify(payload));
  const name = id ?? digestOf(body);
  const tag = settings.signingKey ? sign(settings.signingKey, name, body) : "-";
  const head = new TextEncoder().encode(`${MAGIC} ${tag}\n`);
  const bytes = new Uint8Array(head.length + body.length);
  bytes.set(head);
  bytes.set(body, head.length);
  return { id: name, bytes };
}

function sign(key: string, id: string, body: Uint8Array): string {
  return createHmac("sha256", key).update(id).update("\n").update(body).digest("hex");
}

/** The payload of an artifact, or a reason to refuse it. */
function unseal<T>(
  settings: RemoteSettings,
  id: string,
  bytes: Uint8Array,
  contentAddressed: boolean,
): T | { refused: string } {
  const nl = bytes.indexOf(10);
  const head = nl > 0 ? new TextDecoder().decode(bytes.subarray(0, nl)) : "";
  const [magic, tag] = head.split(" ");
  if (magic !== MAGIC || !tag) return { refused: "not a poly artifact" };
  const body = bytes.subarray(nl + 1);
  if (settings.signingKey) {
    const want = Buffer.from(sign(settings.signingKey, id, body), "hex");
    const got = /^[0-9a-f]{64}$/.test(tag) ? Buffer.from(tag, "hex") : Buffer.alloc(0);
    if (got.length !== want.length || !timingSafeEqual(got, want)) return { refused: "signature does not match" };
  } else if (tag !== "-") return { refused: "signed, and no POLY_REMOTE_CACHE_SIGNING_KEY to check it" };
  if (contentAddressed && digestOf(body) !== id) {
    return { refused: "content does not match its hash" };
  }
  try {
    return JSON.parse(gunzipSync(body).toString("utf8")) as T;
  } catch {
    return { refused: "body is not readable" };
  }
}

const isRefusal = (v: unknown): v is { refused: string } =>
  typeof v === "object" && v !== null && "refused" in v && Object.keys(v).length === 1;

/** One run's conversation with the remote cache. */
export class RemoteSession {
  readonly stats: RemoteStats;
  #down = false;
  #warned = false;
  #index: IndexPayload | undefined;
  #indexFound = false;
  #started = Date.now();
  readonly #warn: (message: string) => void;

  constructor(
    readonly settings: RemoteSettings,
    /** The local database file. */
    readonly dbPath: string,
    /** The index artifact's name. */
    readonly index: string,
    warn?: (message: string) => void,
  ) {
    this.stats = {
      url: settings.url,
      hits: 0,
      misses: 0,
      refusals: 0,
      failures: 0,
      rows_in: 0,
      rows_out: 0,
      bytes_in: 0,
      bytes_out: 0,
    };
    this.#warn = warn ?? ((m) => {
      try {
        Deno.stderr.writeSync(new TextEncoder().encode(`poly: warning: ${m}\n`));
      } catch { /* no stderr */ }
    });
  }

  #url(id: string): string {
    const team = this.settings.team;
    const query = team ? `?${team.startsWith("team_") ? "teamId" : "slug"}=${encodeURIComponent(team)}` : "";
    return `${this.settings.url}/v8/artifacts/${id}${query}`;
  }

  #fail(what: string, error: unknown) {
    this.stats.failures++;
    this.#down = true;
    const reason = (error as Error)?.name === "TimeoutError"
      ? `no answer within ${this.settings.timeoutMs} ms`
      : (error as Error)?.message ?? String(error);
    const message = `the remote cache at "${this.settings.url}" failed (${what}: ${reason}); running locally`;
    this.stats.last_warning = message;
    if (!this.#warned) this.#warn(message);
    this.#warned = true;
  }

  #refuse(id: string, reason: string) {
    this.stats.refusals++;
    const message = `refused remote cache artifact "${id.slice(0, 16)}" (${reason})`;
    this.stats.last_warning = message;
    this.#warn(message);
  }

  async #request(method: "GET" | "PUT", id: string, deadline: AbortSignal, body?: Uint8Array) {
    const headers: Record<string, string> = {};
    if (this.settings.token) headers.authorization = `Bearer ${this.settings.token}`;
    if (body) {
      headers["content-type"] = "application/octet-stream";
      const nl = body.indexOf(10);
      headers["x-artifact-tag"] = new TextDecoder().decode(body.subarray(0, nl)).split(" ")[1];
    }
    const signal = AbortSignal.any([AbortSignal.timeout(this.settings.timeoutMs), deadline]);
    const response = await fetch(this.#url(id), {
      method,
      headers,
      signal,
      ...(body ? { body: body as Uint8Array<ArrayBuffer> } : {}),
    });
    if (method === "GET" && response.status === 404) {
      await response.body?.cancel();
      return undefined;
    }
    if (!response.ok) {
      const text = (await response.text().catch(() => "")).slice(0, 200).replace(/\s+/g, " ");
      throw new Error(`HTTP ${response.status}${text ? ` ${text}` : ""}`);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    return bytes;
  }

  /** Fetches the index and its batches and puts their rows in the local cache; never throws. */
  async pull(): Promise<void> {
    const deadline = AbortSignal.timeout(this.settings.budgetMs);
    this.#started = Date.now();
    let bytes: Uint8Array | undefined;
    try {
      bytes = await this.#request("GET", this.index, deadline);
    } catch (error) {
      return this.#fail("reading the index", error);
    }
    if (!bytes) {
      this.stats.misses++;
      return;
    }
    this.stats.bytes_in += bytes.length;
    const index = unseal<IndexPayload>(this.settings, this.index, bytes, false);
    if (isRefusal(index) || !Array.isArray(index.batches)) {
      return this.#refuse(this.index, isRefusal(index) ? index.refused : "malformed index");
    }
    this.stats.hits++;
    this.#indexFound = true;
    const accepted: IndexPayload["batches"] = [];
    const db = openLocal(this.dbPath);
    if (!db) return;
    try {
      const insert = db.prepare(
        "INSERT OR IGNORE INTO entries (ns, key, value, bytes, created_at) VALUES (?, ?, ?, ?, ?)",
      );
      const stamp = this.#started - 1;
      let next = 0;
      const worker = async () => {
        while (next < index.batches.length && !this.#down) {
          const batch = index.batches[next++];
          if (!/^[0-9a-f]{64}$/.test(batch?.id ?? "")) continue;
          let got: Uint8Array | undefined;
          try {
            got = await this.#request("GET", batch.id, deadline);
          } catch (error) {
            return this.#fail("reading a batch", error);
          }
          if (!got) {
            this.stats.misses++;
            continue;
          }
          this.stats.bytes_in += got.length;
          const payload = unseal<{ rows: Row[] }>(this.settings, batch.id, got, true);
          if (isRefusal(payload) || !Array.isArray(payload.rows)) {
            this.#refuse(batch.id, isRefusal(payload) ? payload.refused : "malformed batch");
            continue;
          }
          this.stats.hits++;
          accepted.push(batch);
          db.exec("BEGIN IMMEDIATE");
          try {
            for (const row of payload.rows) {
              if (!Array.isArray(row) || row.length !== 3 || !row.every((f) => typeof f === "string")) continue;
              insert.run(row[0], row[1], row[2], row[1].length + row[2].length, stamp);
              this.stats.rows_in++;
            }
            db.exec("COMMIT");
          } catch (error) {
            try {
              db.exec("ROLLBACK");
            } catch { /* none open */ }
            return this.#fail("storing rows locally", error);
          }
        }
      };
      await Promise.all(Array.from({ length: 6 }, worker));
    } finally {
      db.close();
    }
    // Batches kept in the next index: those that were there and sound.
    this.#index = { batches: index.batches.filter((b) => accepted.some((a) => a.id === b.id)) };
  }

  /**
   * Uploads the rows of `namespaces` this run wrote (every row there when the
   * server had no index yet) and a new index; never throws.
   */
  async push(namespaces: readonly string[], files: number): Promise<void> {
    if (this.#down) return;
    const deadline = AbortSignal.timeout(this.settings.budgetMs);
    const db = openLocal(this.dbPath);
    if (!db) return;
    let rows: Row[];
    try {
      const marks = namespaces.map(() => "?").join(",");
      rows = (db.prepare(
        `SELECT ns, key, value FROM entries WHERE ns IN (${marks}) AND created_at >= ? ORDER BY ns, key LIMIT 200000`,
      ).all(...namespaces, this.#indexFound ? this.#started : 0) as { ns: string; key: string; value: string }[])
        .map((r) => [r.ns, r.key, r.value]);
    } catch (error) {
      return this.#fail("reading local rows", error);
    } finally {
      db.close();
    }
    if (rows.length === 0 && this.#indexFound) return;
    const fresh: IndexPayload["batches"] = [];
    try {
      // Batches go up six at a time; the index, naming them in order, goes last.
      const starts = Array.from({ length: Math.ceil(rows.length / BATCH_ROWS) }, (_, k) => k * BATCH_ROWS);
      const sent = new Array<IndexPayload["batches"][number]>(starts.length);
      let next = 0;
      const worker = async () => {
        while (next < starts.length) {
          const k = next++;
          const slice = rows.slice(starts[k], starts[k] + BATCH_ROWS);
          const sealed = seal(this.settings, undefined, { rows: slice });
          await this.#request("PUT", sealed.id, deadline, sealed.bytes);
          this.stats.bytes_out += sealed.bytes.length;
          this.stats.rows_out += slice.length;
          sent[k] = { id: sealed.id, rows: slice.length };
        }
      };
      await Promise.all(Array.from({ length: 6 }, worker));
      fresh.push(...sent);
      // The newest batches first; older ones are kept while the index holds at most twice the run's files.
      const limit = Math.max(2 * files, 5 * BATCH_ROWS);
      const batches = [...fresh];
      let total = fresh.reduce((n, b) => n + b.rows, 0);
      for (const b of this.#index?.batches ?? []) {
        if (total + b.rows > limit || batches.some((x) => x.id === b.id)) continue;
        batches.push(b);
        total += b.rows;
      }
      const sealed = seal(this.settings, this.index, { batches });
      await this.#request("PUT", this.index, deadline, sealed.bytes);
      this.stats.bytes_out += sealed.bytes.length;
    } catch (error) {
      this.#fail("writing", error);
    }
  }

  /** Adds this session's counters to `remote.json` beside the database (temp file + rename). */
  async record(): Promise<void> {
    const path = join(this.dbPath, "..", "remote.json");
    const old = await readRemoteStats(this.dbPath);
    const sum: RemoteStats = { ...this.stats };
    if (old && old.url === sum.url) {
      for (
        const k of ["hits", "misses", "refusals", "failures", "rows_in", "rows_out", "bytes_in", "bytes_out"] as const
      ) {
        sum[k] += old[k] ?? 0;
      }
      if (!sum.last_warning && old.last_warning) sum.last_warning = old.last_warning;
    }
    const tmp = `${path}.${crypto.randomUUID()}.tmp`;
    try {
      await Deno.writeTextFile(tmp, JSON.stringify(sum, null, 2) + "\n");
      await Deno.rename(tmp, path);
    } catch {
      await Deno.remove(tmp).catch(() => {});
    }
  }
}

/** The cumulative counters beside a database file, if any. */
export async function readRemoteStats(dbPath: string): Promise<RemoteStats | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(join(dbPath, "..", "remote.json"))) as RemoteStats;
  } catch {
    return undefined;
  }
}

/** The local database through the local cache's own opener (schema, WAL, busy timeout). */
function openLocal(path: string): DatabaseSync | undefined {
  try {
    Deno.mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
    return openDatabase(path);
  } catch {
    return undefined;
  }
}

const pending = new Set<Promise<void>>();

/** Keeps a write in flight until {@link settleRemoteWrites}. */
export function track(write: Promise<void>): void {
  const p = write.catch(() => {}).finally(() => pending.delete(p));
  pending.add(p);
}

/** Waits for remote writes still in flight (each bounded by its own budget); called before the process exits. */
export async function settleRemoteWrites(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}

/** The inputs a run's index is named by. */
export function runInputs(parts: {
  build: string;
  kind: string;
  fix: boolean;
  anchor: string;
  cwd: string;
  paths: readonly string[];
  exclude: readonly string[];
  config: string;
  shard?: { index: number; count: number };
}): unknown {
  return [
    parts.build,
    parts.kind,
    parts.fix,
    relative(parts.anchor, parts.cwd).split("\\").join("/"),
    [...parts.paths],
    [...parts.exclude],
    parts.config,
    parts.shard ? `${parts.shard.index}/${parts.shard.count}` : "",
  ];
}

/** What {@link startRemote} needs of a run. */
export interface RemoteRun {
  kind: "lint" | "fmt";
  fix: boolean;
  anchor: string;
  cwd: string;
  paths: readonly string[];
  exclude: readonly string[];
  configPath?: string;
  shard?: { index: number; count: number };
  /** The run directory's `[cache]` and its folder (for a relative `dir`). */
  cache: { enabled: boolean; dir?: string; remote?: string; remote_team?: string };
  configDir: string;
  build: string;
}

/**
 * Starts a check run's remote session: the pull begins at once (await
 * `pulled` before files run); `finish(files)` queues the upload after the run.
 * Undefined when no remote is configured, the cache is off, or the run fixes.
 */
export async function startRemote(
  run: RemoteRun,
): Promise<{ pulled: Promise<void>; finish: (files: number) => void } | undefined> {
  if (run.fix || !run.cache.enabled) return undefined;
  const settings = remoteSettings(run.cache);
  if (!settings) return undefined;
  const { cacheDirFor } = await import("../db.ts");
  const { resolve } = await import("node:path");
  const dir = cacheDirFor(run.anchor, run.cache.dir ? resolve(run.configDir, run.cache.dir) : undefined);
  const inputs = runInputs({
    build: run.build,
    kind: run.kind,
    fix: run.fix,
    anchor: run.anchor,
    cwd: run.cwd,
    paths: run.paths,
    exclude: run.exclude,
    config: run.configPath ?? "",
    ...(run.shard ? { shard: run.shard } : {}),
  });
  // Named with paths below the anchor relative to it, as the keys are: two checkouts of one repository share it.
  const name = indexName(relocated(JSON.stringify([inputs, settings.team ?? ""]), run.anchor));
  const session = new RemoteSession(settings, join(dir, "cache.db"), name);
  const pulled = session.pull().catch(() => {});
  return {
    pulled,
    finish: (files) => {
      const namespaces = run.kind === "lint" ? ["lint", "rules"] : ["fmt"];
      track(pulled.then(() => session.push(namespaces, files)).finally(() => session.record()));
    },
  };
}
