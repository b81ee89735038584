/**
 * The fixture home opened as the dashboard opens it: a loader over the fixture's
 * state database and caches with a fixed clock and pinned program facts, and its
 * snapshots with the temporary directory replaced by `/fixture`.
 *
 * @module
 */
import { fixedClock } from "../../tui/clock.ts";
import { createLoader, type SnapshotLoader } from "../../tui/data/snapshot.ts";
import type { Snapshot } from "../../tui/data/types.ts";
import type { LoadOptions } from "../../tui/data/snapshot.ts";
import type { HostTool } from "../../lib/identity/engines.ts";
import { CURRENT_ANCHOR, type FixtureHome, makeFixture, NOW } from "./_fixture.ts";

/** The clock of every frame. */
export const CLOCK = fixedClock(NOW);

/** Host tools as the fixture machine has them. */
export const HOST_TOOLS: HostTool[] = [
  { name: "shellcheck", found: true, version: "0.9.0", path: "/usr/bin/shellcheck", used_by: ["shellcheck"] },
  { name: "go", found: true, version: "1.22.2", path: "/usr/local/go/bin/go", used_by: ["govet"] },
  { name: "rustfmt", found: false, used_by: ["rustfmt"] },
  { name: "cargo-deny", found: false, used_by: ["cargo-deny (whole-project)"] },
];

/** A fixture home and a loader over it whose snapshots carry `/fixture` paths. */
export interface FixtureEnv {
  home: FixtureHome;
  loader: SnapshotLoader;
  /** Loads a snapshot with the temporary directory shown as `/fixture`. */
  load(options?: LoadOptions): Promise<Snapshot>;
  close(): Promise<void>;
}

/** Replaces `base` with `/fixture` in every string of `snapshot`. */
export function normalize(snapshot: Snapshot, base: string): Snapshot {
  return JSON.parse(JSON.stringify(snapshot).replaceAll(base, "/fixture"));
}

/** Creates a fixture home and a loader over it. */
export async function fixtureEnv(): Promise<FixtureEnv> {
  const home = await makeFixture();
  const loader = createLoader({
    statePath: home.statePath,
    cacheHome: home.cacheHome,
    known: [{ anchor: CURRENT_ANCHOR, dir: home.currentCacheDir }],
    clock: CLOCK,
    hostTools: () => Promise.resolve(HOST_TOOLS),
    overview: {
      executable: "/opt/poly/bin/poly",
      pid: 4242,
      version: "0.1.0",
      buildId: "v0.1.0-fixture",
      channel: "dev",
      // Pinned: the file grows as other concerns add migrations.
      stateBytes: 98_304,
      engines: [
        {
          id: "ruff",
          tier: "in-process",
          upstream: "@astral-sh/ruff-wasm-nodejs 0.17.3",
          languages: ["python"],
          defaultEnabled: true,
        },
        {
          id: "biome",
          tier: "in-process",
          upstream: "@biomejs/wasm-nodejs 2.5.14",
          languages: ["css", "javascript", "json", "typescript"],
          defaultEnabled: true,
        },
        { id: "shellcheck", tier: "host", upstream: "shellcheck (host)", languages: ["shell"], defaultEnabled: true },
        {
          id: "oxlint",
          tier: "bundled-native",
          upstream: "oxlint 1.94.0",
          languages: ["javascript", "typescript"],
          defaultEnabled: false,
        },
      ],
    },
  });
  return {
    home,
    loader,
    load: async (o) => normalize(await loader.load({ waitForHostTools: true, ...o }), home.base),
    async close() {
      loader.close();
      await Deno.remove(home.base, { recursive: true });
    },
  };
}
