/**
 * What every fleet operation gets: settings, the store, the environment, the
 * workspace root, cancellation and progress. Tools and CLI commands build one
 * with {@link openFleet}; tests build one from plain values.
 *
 * @module
 */
import { isAbsolute, relative, resolve } from "node:path";
import { OutsideWorkspaceError } from "../errors/mod.ts";
import { FleetError } from "./errors.ts";
import type { FleetSectionValue } from "./config.ts";
import { type EnvReader, processEnv } from "./env.ts";
import { resolveSettings } from "./settings.ts";
import type { FleetSettings } from "./settings.ts";
import { FleetStore } from "./store.ts";
import type { DatabaseSync } from "node:sqlite";

/** The context of one fleet call. */
export interface FleetContext {
  settings: FleetSettings;
  store: FleetStore;
  env: EnvReader;
  /** The workspace root: a call's `cwd` must be inside it. */
  root: string;
  signal?: AbortSignal;
  /** Reports progress (the MCP server forwards it as notifications). */
  progress?: (message: string) => void | Promise<void>;
}

/** Options for {@link openFleet}. */
export interface OpenFleetOptions {
  root: string;
  env?: EnvReader;
  /** An open state database (default: the shared one). */
  db?: DatabaseSync;
  /** The `[fleet]` section (default: read from poly.toml governing `root`). */
  section?: FleetSectionValue;
  configDir?: string;
  signal?: AbortSignal;
  progress?: FleetContext["progress"];
}

/** Opens a fleet context over the shared state database and the configuration governing `root`. */
export async function openFleet(o: OpenFleetOptions): Promise<FleetContext> {
  const env = o.env ?? processEnv;
  let section = o.section;
  let configDir = o.configDir;
  if (section === undefined) {
    const { loadFleetSection } = await import("./config_load.ts");
    const loaded = await loadFleetSection(o.root);
    section = loaded.section;
    configDir ??= loaded.dir;
  }
  const settings = resolveSettings({ section, configDir: configDir ?? o.root, env });
  let db = o.db;
  if (!db) {
    const { openStore } = await import("../store/mod.ts");
    db = openStore();
  }
  return {
    settings,
    store: new FleetStore(db),
    env,
    root: resolve(o.root),
    signal: o.signal,
    progress: o.progress,
  };
}

/** Resolves a call's `cwd` (relative to the root) and refuses one outside the root. */
export function workspaceDir(ctx: FleetContext, cwd: string | undefined): string {
  const dir = cwd === undefined ? ctx.root : resolve(ctx.root, cwd);
  const rel = relative(ctx.root, dir);
  if (rel.startsWith("..") || isAbsolute(rel)) throw new OutsideWorkspaceError(cwd ?? dir, ctx.root);
  return dir;
}

/**
 * The real path of a run's working folder, checked after resolving links: it must exist, be a folder,
 * and lie inside the root's real path (a link inside the root to a folder outside it is refused, as the
 * engine would otherwise work read-write there). `shown` is how the caller named the folder.
 */
export async function realWorkingDir(root: string, dir: string, shown = relative(root, dir) || "."): Promise<string> {
  let real: string;
  try {
    real = await Deno.realPath(dir);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new FleetError(
        "invalid_request",
        `The working directory "${shown}" does not exist: create it or pass another cwd`,
      );
    }
    throw e;
  }
  if (!(await Deno.stat(real)).isDirectory) {
    throw new FleetError("invalid_request", `The working directory "${shown}" is not a folder: pass a folder as cwd`);
  }
  const realRoot = await Deno.realPath(root);
  const rel = relative(realRoot, real);
  if (rel.startsWith("..") || isAbsolute(rel)) {
    throw new FleetError(
      "invalid_request",
      `The working directory "${shown}" resolves to "${real}", outside the root "${realRoot}": engines work only ` +
        `inside the root; pass a folder inside it`,
    );
  }
  return real;
}

/** Refuses an empty or blank prompt (no engine is started for it). */
export function requirePrompt(prompt: string | undefined, what = "prompt"): void {
  if (!prompt?.trim()) {
    throw new FleetError("invalid_request", `The ${what} is empty: say what the worker should do`);
  }
}
