/**
 * Self-fingerprint: what this process is running from, recorded at start and
 * re-checked before every MCP tool call but `version`, so a long-lived server
 * never answers with the behaviour of a binary (or source tree) that has since
 * been replaced.
 *
 * - Compiled (`Deno.build.standalone`): the executable's device, inode, size and
 *   mtime. Upgrading poly replaces the file (new inode) or rewrites it (new size
 *   or mtime); deleting it is noticed too.
 * - From source (`deno run main.ts`): the program's source tree — every file
 *   under `lib/` and `tools/` (modules, and the data files they read at run time
 *   such as the built-in rule pack), `main.ts`, `deno.json` and `deno.lock` —
 *   plus any other local module reachable from `main.ts` (static and literal
 *   dynamic imports, `new URL(..., import.meta.url)` assets), each with device,
 *   inode, size and mtime.
 *
 * Statting is cheap (no hashing): a check of a few hundred files costs about a
 * millisecond with the synchronous calls used here; a compiled binary is one stat.
 *
 * @example
 * ```ts
 * const print = takeFingerprint();
 * const drift = checkFingerprint(print);
 * if (drift) throw new Error(staleMessage(print, drift));
 * ```
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath as fromFileUrl, pathToFileURL as toFileUrl } from "node:url";
import { BUILD_ID, VERSION } from "./build.ts";
import { listTree, SOURCE_DIRS, sourcePath } from "./code.ts";

/** One file the process runs from, as it was at start. */
export interface FingerprintEntry {
  path: string;
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

/** What the process runs from. */
export interface SelfFingerprint {
  /** "executable" for a compiled binary, "modules" when run from source. */
  kind: "executable" | "modules";
  /** The compiled binary, or main.ts when run from source. */
  executable: string;
  entries: FingerprintEntry[];
  /** `performance.now()` when the fingerprint was taken (for uptime). */
  startedAt: number;
  pid: number;
  /** Run from source with `tree: "defer"`: the source tree is not in `entries` yet (see {@link completeTree}). */
  treePending?: boolean;
}

/** A file that changed underneath the running process. */
export interface Drift {
  path: string;
  change: "deleted" | "replaced" | "modified";
}

/** Options for {@link takeFingerprint}. */
export interface FingerprintOptions {
  /** Force a mode (tests); default: compiled when `Deno.build.standalone`. */
  kind?: "executable" | "modules";
  /** Entry module for the source walk; default the repository's main.ts. */
  main?: string;
  /** "defer": leave the module-graph walk to {@link extendWithGraph} (default: walk now). */
  graph?: "now" | "defer";
  /**
   * "defer": record only main.ts, deno.json and deno.lock now and the rest of the
   * source tree at {@link completeTree} (the stdio server does it as soon as
   * `initialize` is answered; any check does it first). Default: now.
   */
  tree?: "now" | "defer";
}

const REPO_MAIN = sourcePath("main.ts");

/** Records what this process runs from. */
export function takeFingerprint(options: FingerprintOptions = {}): SelfFingerprint {
  const kind = options.kind ?? (Deno.build.standalone ? "executable" : "modules");
  const startedAt = performance.now();
  if (kind === "executable") {
    const executable = Deno.execPath();
    return {
      kind,
      executable,
      entries: [statEntry(executable)].filter((e) => e !== undefined),
      startedAt,
      pid: Deno.pid,
    };
  }
  const main = options.main ?? REPO_MAIN;
  const root = dirname(main);
  const files = new Set([main, join(root, "deno.json"), join(root, "deno.lock")]);
  const entries = [...files].sort().map(statEntry).filter((e) => e !== undefined);
  const print: SelfFingerprint = { kind, executable: main, entries, startedAt, pid: Deno.pid, treePending: true };
  if (options.tree !== "defer") completeTree(print);
  if (options.graph !== "defer") extendWithGraph(print);
  return print;
}

/** Adds the source tree's files to a fingerprint taken with `tree: "defer"` (once; a no-op otherwise). */
export function completeTree(print: SelfFingerprint): void {
  if (!print.treePending) return;
  delete print.treePending;
  const root = dirname(print.executable);
  const known = new Set(print.entries.map((e) => e.path));
  const files = new Set<string>();
  // Every file of the source folders is fingerprinted.
  for (const dir of SOURCE_DIRS) listTree(join(root, dir), files);
  for (const file of [...files].sort()) {
    if (known.has(file)) continue;
    const entry = statEntry(file);
    if (entry) print.entries.push(entry);
  }
  print.entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Adds the modules reachable from main.ts that lie outside the source tree
 * (e.g. `tui/`) to a from-source fingerprint. {@link takeFingerprint} does it
 * at once unless told to defer it (the server does it right after answering
 * `initialize`, to keep start-up fast); the source tree itself is covered from
 * the start either way.
 */
export function extendWithGraph(print: SelfFingerprint): void {
  if (print.kind !== "modules") return;
  completeTree(print);
  const known = new Set(print.entries.map((e) => e.path));
  for (const file of moduleGraph(print.executable)) {
    if (known.has(file)) continue;
    const entry = statEntry(file);
    if (entry) print.entries.push(entry);
  }
}

/** Returns the first file that was deleted, replaced or modified since `print` was taken, or undefined. */
export function checkFingerprint(print: SelfFingerprint): Drift | undefined {
  completeTree(print);
  for (const entry of print.entries) {
    const now = statEntry(entry.path);
    if (!now) return { path: entry.path, change: "deleted" };
    if (now.ino !== entry.ino || now.dev !== entry.dev) return { path: entry.path, change: "replaced" };
    if (now.size !== entry.size || now.mtimeMs !== entry.mtimeMs) return { path: entry.path, change: "modified" };
  }
  return undefined;
}

/** Seconds since the fingerprint was taken (the server's uptime). */
export function uptimeSeconds(print: SelfFingerprint): number {
  return Math.round((performance.now() - print.startedAt) / 100) / 10;
}

/** The message of a refused call: names pid, version, build id and uptime, and asks for a restart. */
export function staleMessage(print: SelfFingerprint, drift: Drift): string {
  const what = print.kind === "executable" ? "executable" : "source module";
  return `This poly server (pid ${print.pid}, version ${VERSION}, build ${BUILD_ID}, up ${
    formatUptime(uptimeSeconds(print))
  }) is out of date: its ${what} "${drift.path}" was ${drift.change} after it started. ` +
    `Restart the MCP server (reconnect or reload it in your client) so calls run the installed poly.`;
}

/**
 * A short digest of the fingerprint (paths, inodes, sizes, mtimes): one value
 * that changes when anything the process runs from changes.
 */
export function fingerprintDigest(print: SelfFingerprint): string {
  completeTree(print);
  // FNV-1a 64-bit over the entries: not cryptographic, only a change detector.
  let hash = 0xcbf29ce484222325n;
  const text = print.entries.map((e) => `${e.path}\0${e.dev}\0${e.ino}\0${e.size}\0${e.mtimeMs}`).join("\n");
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}

function formatUptime(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

function statEntry(path: string): FingerprintEntry | undefined {
  try {
    const info = Deno.statSync(path);
    return { path, dev: info.dev ?? 0, ino: info.ino ?? 0, size: info.size, mtimeMs: info.mtime?.getTime() ?? 0 };
  } catch {
    return undefined;
  }
}

const SPECIFIER = [
  /\bfrom\s*["']([^"']+)["']/g,
  /\bimport\s*\(\s*["']([^"']+)["']\s*[,)]/g,
  /\bimport\s+["']([^"']+)["']/g,
  /\bnew\s+URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url\s*\)/g,
];

const PARSED = /\.(ts|tsx|mts|js|mjs|jsx)$/;

/**
 * The local files reachable from `main` through relative specifiers. Bare and
 * `npm:` specifiers are left out (their versions are pinned by deno.lock, which
 * is fingerprinted). A specifier that names no file (e.g. in a comment) is skipped.
 */
export function moduleGraph(main: string): Set<string> {
  const seen = new Set<string>();
  const queue = [main];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    try {
      if (!Deno.statSync(file).isFile) continue;
    } catch {
      continue;
    }
    seen.add(file);
    if (!PARSED.test(file)) continue;
    let text: string;
    try {
      text = Deno.readTextFileSync(file);
    } catch {
      continue;
    }
    const base = toFileUrl(file);
    for (const pattern of SPECIFIER) {
      for (const match of text.matchAll(pattern)) {
        const spec = match[1];
        if (!spec.startsWith("./") && !spec.startsWith("../") && !spec.startsWith("file:")) continue;
        try {
          const url = new URL(spec, base);
          if (url.protocol === "file:") queue.push(fromFileUrl(url));
        } catch {
          // not a URL after all
        }
      }
    }
  }
  return seen;
}

let processPrint: SelfFingerprint | undefined;

/** The fingerprint of this process, taken on first use (the server takes it at start). */
export function processFingerprint(options: Pick<FingerprintOptions, "graph" | "tree"> = {}): SelfFingerprint {
  processPrint ??= takeFingerprint(options);
  return processPrint;
}

/** Makes `print` the process's fingerprint (a server started with its own, e.g. in tests). */
export function setProcessFingerprint(print: SelfFingerprint): void {
  processPrint = print;
}
