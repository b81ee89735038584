/**
 * Where running daemons are found: one `<pid>.json` per daemon (and its
 * `<pid>.sock`) in `<state home>/daemon/`. Cheap to import: a `poly lint` looks
 * here before it loads anything else.
 *
 * @module
 */
import { stateHome } from "../paths/mod.ts";

export { memoAllowed } from "./_allowed.ts";

/** What a running daemon says about itself. */
export interface DaemonEntry {
  pid: number;
  /** The real path of the watched root. */
  root: string;
  socket: string;
  /** ISO time it started. */
  started: string;
  version: string;
}

/** The directory of daemon entries, sockets, logs and sync markers. */
export function daemonDir(home: string = stateHome()): string {
  return `${home}/daemon`;
}

/** The entry file of a daemon. */
export function entryPath(dir: string, pid: number): string {
  return `${dir}/${pid}.json`;
}

/** The folder of a daemon's sync markers. */
export function markersPath(dir: string, pid: number): string {
  return `${dir}/markers-${pid}`;
}

/** Removes a daemon's entry, socket and markers (when it stops, or once found dead). */
export async function removeEntry(dir: string, entry: Pick<DaemonEntry, "pid" | "socket">): Promise<void> {
  await Deno.remove(entryPath(dir, entry.pid)).catch(() => {});
  await Deno.remove(entry.socket).catch(() => {});
  await Deno.remove(markersPath(dir, entry.pid), { recursive: true }).catch(() => {});
}

/** Every entry in `dir` (malformed or unreadable ones are left out). */
export function listEntries(dir: string = daemonDir()): DaemonEntry[] {
  const out: DaemonEntry[] = [];
  let names: Deno.DirEntry[];
  try {
    names = [...Deno.readDirSync(dir)];
  } catch {
    return out;
  }
  for (const entry of names) {
    if (!entry.isFile || !entry.name.endsWith(".json")) continue;
    try {
      const value = JSON.parse(Deno.readTextFileSync(`${dir}/${entry.name}`));
      if (typeof value?.pid === "number" && typeof value.root === "string" && typeof value.socket === "string") {
        out.push(value as DaemonEntry);
      }
    } catch {
      // being written, or not ours
    }
  }
  return out.sort((a, b) => a.root < b.root ? -1 : a.root > b.root ? 1 : a.pid - b.pid);
}

/** Whether `path` is `root` or below it. */
export function within(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

/** The daemons whose root holds `cwd`, the nearest root first. */
export function entriesFor(cwd: string, entries: DaemonEntry[]): DaemonEntry[] {
  return entries.filter((e) => within(e.root, cwd)).sort((a, b) => b.root.length - a.root.length);
}
