/**
 * Starts the dashboard for `poly dash`: checks for a terminal, finds the state
 * database, the cache home and the current repository's cache, then either
 * prints one plain snapshot (`--once`) or draws the live dashboard on the
 * alternate screen until `q`.
 *
 * @module
 */
import { resolve } from "node:path";
import type { CommandIO } from "../lib/io/mod.ts";
import { cacheHome } from "../lib/paths/mod.ts";
import { storePath } from "../lib/store/mod.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { KnownCache } from "./data/cache.ts";
import { createLoader } from "./data/snapshot.ts";
import { renderOnce } from "./once.ts";
import { themeFromEnv } from "./theme.ts";

/** Options of {@link runDash}. */
export interface DashOptions {
  /** Print one plain snapshot and exit. */
  once: boolean;
  /** Refresh interval of the live dashboard. */
  intervalMs: number;
  /** Line width of `--once` (default: the terminal's, else 80). */
  width?: number;
  io: CommandIO;
  clock?: Clock;
  /** Whether stdin is a terminal (default: asked). */
  stdinIsTerminal?: boolean;
}

/** The message `poly dash` prints without a terminal. */
export const NO_TERMINAL =
  "poly dash needs a terminal: standard input and output must both be one. For a plain-text snapshot of every pane, run poly dash --once.\n";

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/** The cache folder of the repository containing `cwd`, when its configuration can be read. */
export async function currentCache(cwd: string): Promise<KnownCache[]> {
  try {
    const { openConfig } = await import("../lib/config/mod.ts");
    const { cacheDirFor } = await import("../lib/cache/db.ts");
    const configs = await openConfig({ cwd });
    const config = await configs.forDir(cwd);
    const dir = config.data.cache.dir;
    return [{
      anchor: configs.anchor,
      dir: await cacheDirFor(configs.anchor, dir ? resolve(config.dir, dir) : undefined),
    }];
  } catch {
    // An unreadable poly.toml only costs the label of the current repository.
    return [];
  }
}

function terminalColumns(): number | undefined {
  try {
    return Deno.consoleSize().columns || undefined;
  } catch {
    return undefined;
  }
}

/** Runs `poly dash`; returns the exit code. */
export async function runDash(o: DashOptions): Promise<number> {
  const stdinIsTerminal = o.stdinIsTerminal ?? Deno.stdin.isTerminal();
  if (!o.once && !(stdinIsTerminal && o.io.stdoutIsTerminal)) {
    await o.io.stderr(NO_TERMINAL);
    return 2;
  }
  const clock = o.clock ?? systemClock;
  const loader = createLoader({
    statePath: storePath(),
    cacheHome: cacheHome(),
    known: await currentCache(o.io.cwd),
    clock,
  });
  try {
    if (o.once) {
      const snapshot = await loader.load({ waitForHostTools: true });
      const width = o.width ?? (o.io.stdoutIsTerminal ? terminalColumns() : undefined) ?? 80;
      await o.io.stdout(renderOnce(snapshot, { width, clock }));
      return 0;
    }
    const initial = await loader.load();
    const { render, Dashboard } = await import("./live.ts");
    const app = render(
      <Dashboard source={loader} clock={clock} theme={themeFromEnv(env)} intervalMs={o.intervalMs} initial={initial} />,
      // ctrl-c quits through the dashboard, which clears the screen first.
      { alternateScreen: true, exitOnCtrlC: false },
    );
    await app.waitUntilExit();
    return 0;
  } finally {
    loader.close();
  }
}
