/**
 * A watched workspace: what a resident poly (`poly daemon`) knows about the
 * files under one root between runs, kept true by the file-system events of
 * that root.
 *
 * Every event that matters advances a position. A run starts by {@link
 * LiveWorkspace.sync}ing (every event from before the call has then been
 * seen), records what it computes at that position, and a later run reuses a
 * record while no event after it touched what the record depends on:
 *
 * - a file's outcome: the file itself; for an engine with a cache context (go
 *   vet's package) any file that context may include; anything that may hide
 *   files under an old name (a removed or renamed directory);
 * - a discovery or a config set: the shape of the tree (a file or directory
 *   created, removed or renamed; an ignore or config file changed; a file whose
 *   language its first line decides, changed);
 * - everything: an event queue that overflowed, a watcher that stopped, a config
 *   file outside the root that changed, a sync that timed out.
 *
 * What cannot be watched is not remembered: files reached through a symbolic
 * link, files outside the root.
 *
 * @example
 * ```ts
 * const live = await LiveWorkspace.open("/repo", "/home/me/.local/state/poly/daemon");
 * await live.sync();
 * const report = await runLint({ paths: [], cwd: "/repo", memo: live });
 * ```
 *
 * @module
 */
import { basename } from "node:path";
import { NATIVE_NAMES } from "../config/native/mod.ts";
import { needsShebang } from "../discover/language.ts";
import { memoAllowed } from "./_allowed.ts";
import type { RunMemo } from "../run/types.ts";
import type { FileChange } from "../engines/types.ts";
import { makeTempDir, removeTempSync } from "../fs/temp.ts";

/** Files whose change can change what discovery finds, or the config of the files around them. */
const SHAPE_NAMES = new Set([".gitignore", ".ignore", "poly.toml", "poly.local.toml", ...NATIVE_NAMES]);

/** Paths with a remembered change, at most (see {@link LiveWorkspace.apply}). */
const MAX_CHANGED = 200_000;

/** How long a sync waits for its own marker to come back through the watcher. */
const SYNC_TIMEOUT_MS = 2000;

interface Recorded {
  signature: string;
  outcome: unknown;
  steps: number;
  contexts: string[];
  at: number;
}

interface Context {
  files?: (path: string, change?: FileChange) => boolean;
  /** Position of the last event that may have changed such a context. */
  at: number;
}

/** Counters for `poly daemon status`. */
export interface LiveStats {
  root: string;
  /** Events that mattered, since start. */
  events: number;
  /** Files with a remembered outcome. */
  files: number;
  /** Times everything was forgotten, and the last reason. */
  resets: number;
  lastReset?: string;
  /** Whether the watcher is running (when not, every run is a full run). */
  watching: boolean;
}

/** One watched root and the memo of its runs (see the module documentation). */
export class LiveWorkspace implements RunMemo {
  readonly root: string;
  readonly #markers: string;
  #watcher?: Deno.FsWatcher;
  #position = 0;
  #events = 0;
  /** Position of the last event per path. */
  readonly #changed = new Map<string, number>();
  /** Last change to the shape of the tree, and last reason to forget everything. */
  #shape = 0;
  #all = 0;
  #resets = 0;
  #lastReset?: string;
  readonly #contexts = new Map<string, Context>();
  readonly #outcomes = new Map<string, Recorded>();
  /** Every directory above a remembered file: removing or renaming one hides files under old names. */
  readonly #dirs = new Set<string>();
  readonly #shaped = new Map<string, { value: unknown; at: number }>();
  /** Config files inside the root that runs used (`extends` bases have any name). */
  readonly #sources = new Set<string>();
  /** Config files outside the root, by path: their stat line when last seen. */
  readonly #external = new Map<string, string>();
  readonly #waiting = new Map<string, () => void>();
  readonly #languages = new Set<string>();
  /** The program's own files (see {@link LiveWorkspace.ownChanged}). */
  readonly #own: string[] = [];
  #ownChanged = false;
  #marker = 0;

  private constructor(root: string, markers: string) {
    this.root = root;
    this.#markers = markers;
  }

  /**
   * Starts watching `root` (made real: events name real paths). `markers` is a
   * directory outside the root where sync markers are written; it is watched by
   * the same watcher, so a marker's event comes after every earlier event.
   */
  static async open(root: string, markers: string, own: readonly string[] = []): Promise<LiveWorkspace> {
    await Deno.mkdir(markers, { recursive: true });
    const live = new LiveWorkspace(await Deno.realPath(root), await Deno.realPath(markers));
    for (const path of own) {
      const real = await Deno.realPath(path).catch(() => undefined);
      if (real) live.#own.push(real);
    }
    live.#watch();
    return live;
  }

  /**
   * Whether any of the program's own files (`own` of {@link open}: poly's
   * executable or sources) changed since the watch began: this process then runs
   * other code than a poly started now would.
   */
  get ownChanged(): boolean {
    return this.#ownChanged;
  }

  #watch(): void {
    try {
      this.#watcher = Deno.watchFs([this.root, this.#markers, ...this.#own], { recursive: true });
    } catch (error) {
      this.#watcher = undefined;
      this.#ownChanged = this.#own.length > 0; // unwatched: cannot vouch for the code from now on
      this.#reset(`the watcher could not start: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const watcher = this.#watcher;
    (async () => {
      try {
        for await (const event of watcher) this.apply(event);
      } catch (error) {
        this.#reset(`the watcher failed: ${error instanceof Error ? error.message : String(error)}`);
        this.#ownChanged = this.#own.length > 0; // unwatched from now on: cannot vouch for the code
      } finally {
        if (this.#watcher === watcher) this.#watcher = undefined;
      }
    })();
  }

  /** Stops watching; every later lookup misses. */
  close(): void {
    const watcher = this.#watcher;
    this.#watcher = undefined;
    watcher?.close();
    this.#reset("closed");
  }

  /** Applies one file-system event (exported for tests, which feed events by hand). */
  apply(event: Deno.FsEvent): void {
    if (event.flag === "rescan") {
      this.#reset("the event queue overflowed");
      return;
    }
    if (event.kind === "access") return;
    for (const path of event.paths) {
      if (path.startsWith(this.#markers + "/")) {
        this.#waiting.get(path)?.();
        continue;
      }
      if (this.#own.some((own) => path === own || path.startsWith(own + "/"))) this.#ownChanged = true;
      if (path !== this.root && !path.startsWith(this.root + "/")) continue;
      const rel = path.slice(this.root.length + 1);
      // A repository's own database changes with every git command; only its exclude file matters.
      const git = rel === ".git" || rel.startsWith(".git/") || rel.includes("/.git/") || rel.endsWith("/.git");
      if (git && !rel.endsWith(".git/info/exclude")) continue;
      const at = ++this.#position;
      this.#events++;
      this.#changed.set(path, at);
      // A build writing files by the hundred thousand (in ignored folders too): start over rather than grow.
      if (this.#changed.size > MAX_CHANGED) this.#reset(`more than ${MAX_CHANGED} paths changed`);
      const change = event.kind === "create" || event.kind === "modify" || event.kind === "remove"
        ? event.kind
        : undefined;
      for (const context of this.#contexts.values()) if (!context.files || context.files(path, change)) context.at = at;
      if (event.kind === "modify") {
        if (git || SHAPE_NAMES.has(basename(path)) || this.#sources.has(path) || needsShebang(path)) {
          this.#shape = at;
        }
        continue;
      }
      this.#shape = at;
      // A directory removed or renamed (or an event that does not say): files below it may come back changed.
      if (event.kind !== "create" && (this.#dirs.has(path) || path === this.root)) this.#all = at;
      if (event.kind === "any" || event.kind === "other") this.#all = at;
    }
  }

  #reset(reason: string): void {
    this.#all = ++this.#position;
    this.#shape = this.#all;
    this.#resets++;
    this.#lastReset = reason;
    // Every record from before now is void: what changed before it no longer needs remembering.
    this.#changed.clear();
    this.#outcomes.clear();
    this.#dirs.clear();
    this.#shaped.clear();
  }

  /**
   * Returns once every event from before the call has been applied: writes a
   * marker file and waits for the watcher to report it. Also checks config
   * files outside the root. When the watcher is not running or the marker does
   * not come back in time, everything is forgotten (the run is a full run).
   */
  async sync(): Promise<void> {
    for (const [path, line] of this.#external) {
      if (statLine(path) !== line) {
        this.#external.clear();
        this.#reset(`a config file outside the root changed: ${path}`);
        break;
      }
    }
    if (!this.#watcher) {
      this.#reset("not watching");
      this.#watch();
      return;
    }
    const marker = `${this.#markers}/sync-${Deno.pid}-${++this.#marker}`;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const seen = new Promise<boolean>((resolve) => {
      this.#waiting.set(marker, () => resolve(true));
      timer = setTimeout(() => resolve(false), SYNC_TIMEOUT_MS);
    });
    try {
      await Deno.writeTextFile(marker, "");
      if (!await seen) this.#reset("the watcher did not report a marker in time");
    } finally {
      clearTimeout(timer);
      this.#waiting.delete(marker);
      await Deno.remove(marker).catch(() => {});
    }
  }

  position(): number {
    return this.#position;
  }

  covers(path: string): boolean {
    return this.#watcher !== undefined && path.startsWith(this.root + "/");
  }

  shaped<T>(key: string): T | undefined {
    const found = this.#shaped.get(key);
    return found && found.at >= this.#shape && found.at >= this.#all ? found.value as T : undefined;
  }

  rememberShaped<T>(key: string, value: T, at: number): void {
    if (!this.#watcher || at < this.#all) return;
    this.#shaped.delete(key);
    this.#shaped.set(key, { value, at });
    // A handful of distinct requests (paths, excludes, config) at most: the oldest goes.
    if (this.#shaped.size > 32) this.#shaped.delete(this.#shaped.keys().next().value!);
  }

  outcome<T>(path: string, signature: string): { outcome: T; steps: number } | undefined {
    const found = this.#outcomes.get(path);
    if (!found || found.signature !== signature || found.at < this.#all) return undefined;
    if (found.at < (this.#changed.get(path) ?? 0)) return undefined;
    for (const id of found.contexts) if (found.at < (this.#contexts.get(id)?.at ?? Infinity)) return undefined;
    return { outcome: found.outcome as T, steps: found.steps };
  }

  remember<T>(
    path: string,
    signature: string,
    entry: {
      outcome: T;
      steps: number;
      contexts: { id: string; files?: (path: string, change?: FileChange) => boolean }[];
    },
    at: number,
  ): void {
    if (!this.covers(path) || at < this.#all) return;
    for (const { id, files } of entry.contexts) {
      // Events before a context was known were not matched against it: it holds from now on.
      if (!this.#contexts.has(id)) this.#contexts.set(id, { ...(files ? { files } : {}), at: this.#position });
    }
    this.#outcomes.set(path, {
      signature,
      outcome: entry.outcome,
      steps: entry.steps,
      contexts: entry.contexts.map((c) => c.id),
      at,
    });
    for (let dir = parent(path); dir.length > this.root.length && !this.#dirs.has(dir); dir = parent(dir)) {
      this.#dirs.add(dir);
    }
  }

  noteSources(paths: Iterable<string>): void {
    for (const path of paths) {
      if (path.startsWith(this.root + "/")) this.#sources.add(path);
      else if (!this.#external.has(path)) this.#external.set(path, statLine(path));
    }
  }

  noteLanguages(languages: Iterable<string>): void {
    for (const language of languages) this.#languages.add(language);
  }

  /** Every language a run through this memo had files of. */
  languages(): ReadonlySet<string> {
    return this.#languages;
  }

  /** Counters for `poly daemon status`. */
  stats(): LiveStats {
    return {
      root: this.root,
      events: this.#events,
      files: this.#outcomes.size,
      resets: this.#resets,
      ...(this.#lastReset ? { lastReset: this.#lastReset } : {}),
      watching: this.#watcher !== undefined,
    };
  }
}

function parent(path: string): string {
  const i = path.lastIndexOf("/");
  return i > 0 ? path.slice(0, i) : "/";
}

function statLine(path: string): string {
  try {
    const info = Deno.statSync(path);
    return `${info.ino ?? ""}:${info.size}:${info.mtime?.getTime() ?? ""}`;
  } catch (error) {
    return error instanceof Error ? error.name : "error";
  }
}

const shared = new Map<string, Promise<LiveWorkspace | undefined>>();

/**
 * The watched workspace for `root` that one process's runs share (`poly mcp`
 * serving many lint calls): opened on first use, watching until the process
 * exits. Undefined with `POLY_DAEMON=0`, or when it cannot be opened (the runs
 * then go without it).
 */
export function sharedWorkspace(root: string): Promise<LiveWorkspace | undefined> {
  let live = shared.get(root);
  if (!live) {
    live = (async () => {
      if (!memoAllowed()) return undefined;
      try {
        const markers = await makeTempDir("poly-markers-");
        globalThis.addEventListener("unload", () => removeTempSync(markers));
        return await LiveWorkspace.open(root, markers);
      } catch {
        return undefined;
      }
    })();
    shared.set(root, live);
  }
  return live;
}
