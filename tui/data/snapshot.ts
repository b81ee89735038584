/**
 * Takes snapshots: the state database (read-only, in one read transaction so a
 * snapshot is consistent), every result cache, and the program facts. A part
 * that cannot be read this time (the database busy beyond a moment, a damaged
 * file) keeps its previous data and carries the error, so the dashboard keeps
 * showing what it last knew and says why it is not fresh.
 *
 * @example
 * ```ts
 * const loader = createLoader({ statePath, cacheHome, clock: systemClock });
 * const snapshot = await loader.load();
 * loader.close();
 * ```
 *
 * @module
 */
import type { HostTool } from "../../lib/identity/engines.ts";
import type { Clock } from "../clock.ts";
import { type KnownCache, readNamedCaches } from "./cache.ts";
import { FLEET_TABLES, readFleet } from "./fleet.ts";
import { GATEWAY_TABLES, readGateway } from "./gateway.ts";
import { ACCESS_TABLES, type AccessSnapshot, emptyAccess, readAccess } from "./access.ts";
import { readOverview } from "./overview.ts";
import { StateReader } from "./state_db.ts";
import type { CallStats, FleetSnapshot, GatewaySnapshot, Overview, Section, Snapshot } from "./types.ts";

/** What a loader reads. */
export interface LoaderOptions {
  /** The state database file. */
  statePath: string;
  /** The cache home. */
  cacheHome: string;
  /** Cache folders whose repository is known (the current one). */
  known?: KnownCache[];
  clock: Clock;
  /** Looks up host tools; default: `hostTools()` of lib/identity/engines.ts. */
  hostTools?: () => Promise<HostTool[]>;
  /** Replaces program facts (tests pin the executable and pid). */
  overview?: Partial<Overview>;
}

/** Options of one load. */
export interface LoadOptions {
  /** Look the host tools up again (the `r` key). */
  force?: boolean;
  /** Wait for the host tool lookup instead of showing it as pending (`--once`). */
  waitForHostTools?: boolean;
}

/** Takes snapshots until closed. */
export interface SnapshotLoader {
  load(options?: LoadOptions): Promise<Snapshot>;
  close(): void;
}

function emptyFleet(): FleetSnapshot {
  const calls: CallStats = { tools: [], days: [], daysByTool: {}, health: [] };
  const none = {
    key: "all",
    count: 0,
    mean: null,
    distribution: [0, 0, 0, 0, 0] as [number, number, number, number, number],
  };
  return { sessions: [], ratings: { total: none, byEngine: [], byLevel: [], byTool: [] }, calls };
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Creates a loader over the given sources. */
export function createLoader(options: LoaderOptions): SnapshotLoader {
  const reader = new StateReader(options.statePath);
  let fleet: Section<FleetSnapshot> = {};
  let gateway: Section<GatewaySnapshot> = {};
  let access: Section<AccessSnapshot> = {};
  let cache: Snapshot["cache"] = {};
  let tools: HostTool[] | undefined;
  let lookup: Promise<void> | undefined;
  const anchors = new Map<string, string>();

  const lookUpTools = () => {
    const find = options.hostTools ??
      (async () => (await import("../../lib/identity/engines.ts")).hostTools());
    lookup = find().then((t) => {
      tools = t;
    }, () => {
      tools = [];
    }).finally(() => {
      lookup = undefined;
    });
    return lookup;
  };

  return {
    async load(o: LoadOptions = {}): Promise<Snapshot> {
      if (o.force || (tools === undefined && lookup === undefined)) lookUpTools();
      if (o.waitForHostTools && lookup) await lookup;
      const now = options.clock.now();
      try {
        const state = reader.read((db) => {
          const tables = new Set(
            (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) =>
              r.name
            ),
          );
          db.exec("BEGIN");
          try {
            return {
              fleet: FLEET_TABLES.every((t) => tables.has(t)) ? readFleet(db, options.clock) : emptyFleet(),
              gateway: GATEWAY_TABLES.every((t) => tables.has(t)) ? readGateway(db) : { servers: [] },
              access: ACCESS_TABLES.every((t) => tables.has(t)) ? readAccess(db, () => now) : emptyAccess(),
            };
          } finally {
            db.exec("COMMIT");
          }
        });
        fleet = state ? { data: state.fleet, readAt: now } : {};
        gateway = state ? { data: state.gateway, readAt: now } : {};
        access = state ? { data: state.access, readAt: now } : {};
      } catch (e) {
        // A busy or unreadable database: keep what we had, say why it is not fresh.
        reader.close();
        fleet = { ...fleet, error: { message: message(e) } };
        gateway = { ...gateway, error: { message: message(e) } };
        access = { ...access, error: { message: message(e) } };
      }
      try {
        cache = {
          data: await readNamedCaches({ home: options.cacheHome, known: options.known }, anchors),
          readAt: now,
        };
      } catch (e) {
        cache = { ...cache, error: { message: message(e) } };
      }
      const overview = {
        ...readOverview({ cacheHome: options.cacheHome, statePath: options.statePath, hostTools: tools }),
        ...options.overview,
      };
      return { takenAt: now, overview, stateExists: reader.exists, fleet, gateway, access, cache };
    },
    close() {
      reader.close();
    },
  };
}
