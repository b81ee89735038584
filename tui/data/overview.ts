/**
 * Program facts for the Overview pane: version, build, channel, executable,
 * engines (tier and upstream version, from the registry — nothing is loaded or
 * hashed), host tools found or missing, and where the cache and state live.
 *
 * @module
 */
import { ENGINES } from "../../lib/engines/registry.ts";
import { BUILD_ID, CHANNEL, VERSION } from "../../lib/identity/build.ts";
import { executablePath } from "../../lib/identity/mod.ts";
import type { HostTool } from "../../lib/identity/engines.ts";
import type { EngineLine, Overview } from "./types.ts";

/** The engines in registry order. */
export function engineLines(): EngineLine[] {
  return ENGINES.map((e) => ({
    id: e.id,
    tier: e.tier,
    upstream: e.upstream,
    languages: [...new Set([...e.lintLanguages, ...e.formatLanguages])].sort(),
    defaultEnabled: e.defaultEnabled,
  }));
}

function sizeOf(path: string): number | undefined {
  let total: number | undefined;
  for (const suffix of ["", "-wal"]) {
    try {
      total = (total ?? 0) + Deno.statSync(path + suffix).size;
    } catch { /* absent */ }
  }
  return total;
}

/** Where the dashboard looks. */
export interface OverviewSources {
  cacheHome: string;
  statePath: string;
  hostTools?: HostTool[];
}

/** The Overview facts now. */
export function readOverview(sources: OverviewSources): Overview {
  const stateBytes = sizeOf(sources.statePath);
  return {
    version: VERSION,
    buildId: BUILD_ID,
    channel: CHANNEL,
    executable: executablePath(),
    pid: Deno.pid,
    cacheHome: sources.cacheHome,
    statePath: sources.statePath,
    ...(stateBytes !== undefined ? { stateBytes } : {}),
    engines: engineLines(),
    ...(sources.hostTools ? { hostTools: sources.hostTools } : {}),
  };
}
