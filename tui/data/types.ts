/**
 * The dashboard's snapshot: everything the panes show, read in one pass from the
 * state database, the result caches and the program itself. Panes render a
 * snapshot; they never query anything.
 *
 * @module
 */
import type { EngineHealth, SessionRecord, ToolStats } from "../../lib/fleet/store.ts";
import type { GrantView } from "../../lib/gateway/grants.ts";
import type { AccessSnapshot } from "./access.ts";
import type { HostTool } from "../../lib/identity/engines.ts";

/** A part of the snapshot that could not be read this time. */
export interface SectionError {
  message: string;
}

/** One part of the snapshot: its data, when it was read, and whether it is older than the snapshot. */
export interface Section<T> {
  data?: T;
  /** When `data` was read (ms). */
  readAt?: number;
  /** Why the latest read failed (the data, if any, is from an earlier read). */
  error?: SectionError;
}

/** One engine as the registry describes it. */
export interface EngineLine {
  id: string;
  tier: string;
  upstream: string;
  languages: string[];
  defaultEnabled: boolean;
}

/** Program facts for the Overview pane. */
export interface Overview {
  version: string;
  buildId: string;
  channel: string;
  executable: string;
  pid: number;
  cacheHome: string;
  statePath: string;
  /** Size of the state database and its write-ahead log; undefined when it does not exist. */
  stateBytes?: number;
  engines: EngineLine[];
  /** Undefined while the host tools are being looked up. */
  hostTools?: HostTool[];
}

/** Entries, bytes and recent hit rate of one namespace of one repository's cache. */
export interface NamespaceLine {
  namespace: string;
  entries: number;
  bytes: number;
  /** Hits and misses over the latest runs (up to 10). */
  hits: number;
  misses: number;
  runs: number;
}

/** One recorded run of one namespace. */
export interface CacheRun {
  at: string;
  namespace: string;
  hits: number;
  misses: number;
}

/** One repository's result cache. */
export interface RepoCache {
  /** The cache folder (`<cache home>/<16 hex>`). */
  dir: string;
  /** The database file. */
  path: string;
  /** The repository anchor, when known (the current repository, or recorded in the cache). */
  anchor?: string;
  /** What the pane calls it: the anchor, or the folder name. */
  label: string;
  /** The repository the dashboard was started in. */
  current: boolean;
  namespaces: NamespaceLine[];
  total: { entries: number; bytes: number };
  fileBytes: number;
  /** Latest runs, newest first. */
  recentRuns: CacheRun[];
  /** Why this cache could not be read. */
  error?: string;
  /** A file its stat index records (an absolute path): the repository is one of its folders. */
  indexedPath?: string;
}

/** Every result cache found. */
export interface CacheSnapshot {
  roots: string[];
  repos: RepoCache[];
}

/** A session with what its calls say about it. */
export interface SessionLine extends SessionRecord {
  /** Outcome of its latest recorded call (`ok`, or the failure's kind); null when no call names it. */
  status: string | null;
  /** Calls that named the session (rate excluded). */
  calls: number;
  /** Time spent in those calls. */
  durationMs: number;
  /** Characters returned to the caller by those calls. */
  outChars: number;
  /** The rating's note. */
  note: string | null;
  /** The caller's words in the stored preview, poly's framing and time budget taken off ("" when it holds none). */
  prompt: string;
  /** Whether the preview held poly's framing or time budget (taken off in {@link prompt}). */
  promptFramed: boolean;
}

/** Count, mean and distribution of the ratings of one group. */
export interface RatingGroup {
  key: string;
  count: number;
  mean: number | null;
  /** Ratings of 1, 2, 3, 4, 5. */
  distribution: [number, number, number, number, number];
}

/** Ratings grouped three ways. */
export interface Ratings {
  total: RatingGroup;
  byEngine: RatingGroup[];
  byLevel: RatingGroup[];
  byTool: RatingGroup[];
}

/** Calls of one tool (or all) on one local day. */
export interface DayCalls {
  day: number;
  calls: number;
  failures: number;
  outChars: number;
}

/** A tool's statistics, with the characters returned by its calls that ran an engine. */
export interface ToolLine extends ToolStats {
  /** Characters returned by the calls that recorded raw engine output (`raw_chars` > 0): what `raw_chars` became. */
  engine_out_chars: number;
  /** How many calls recorded raw engine output. */
  engine_calls: number;
}

/** An engine's health, with the median latency of its successful runs however few. */
export interface HealthLine extends EngineHealth {
  /** Successful runs among the samples. */
  okRuns: number;
  /** Their median latency (the fleet's own `medianLatencyMs` needs 3); null without one. */
  okMedianMs: number | null;
}

/** The bridge statistics over time. */
export interface CallStats {
  tools: ToolLine[];
  /** The last {@link CALL_DAYS} local days, oldest first, for all tools together. */
  days: DayCalls[];
  /** The same per tool. */
  daysByTool: Record<string, DayCalls[]>;
  health: HealthLine[];
}

/** Days of call history the snapshot keeps. */
export const CALL_DAYS = 30;

/** The fleet's part of the state database. */
export interface FleetSnapshot {
  sessions: SessionLine[];
  ratings: Ratings;
  calls: CallStats;
}

/** One upstream server as the Gateway pane lists it. */
export interface ServerLine {
  name: string;
  transport: string;
  endpoint: string;
  auth: string;
  oauthStatus?: string;
  enabled: boolean;
  revision: number;
  tools: number;
  catalogDigest?: string;
  grants: GrantView[];
  unresolvedOps: number;
  updatedAt: string;
}

/** The gateway's part of the state database. */
export interface GatewaySnapshot {
  servers: ServerLine[];
}

/** Everything the dashboard shows. */
export interface Snapshot {
  /** When this snapshot was taken (ms). */
  takenAt: number;
  overview: Overview;
  /** Whether the state database exists yet. */
  stateExists: boolean;
  fleet: Section<FleetSnapshot>;
  gateway: Section<GatewaySnapshot>;
  /** Members, tokens and proposed operations (HTTP serving). */
  access?: Section<AccessSnapshot>;
  cache: Section<CacheSnapshot>;
}
