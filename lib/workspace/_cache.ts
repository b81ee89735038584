/**
 * Reuse of whole-project job outcomes. A check-mode outcome of a cacheable
 * built-in job (clippy, cargo-sort, cargo-machete, go vet — never cargo-deny,
 * whose advisories come from the network, never inline jobs, never fix mode) is
 * stored under a key over: the build identity of poly, the job's name, argv and
 * directory, the identity (path, size, mtime) of the programs it runs — and for
 * clippy and go vet run through rustup's proxy or a shim, the version the
 * toolchain reports in the job's directory —, a few
 * environment variables that change their behaviour, and a listing of the
 * project's own files (path, size and mtime of every file outside `target`,
 * `.git`, `node_modules`, `vendor` and Python caches, less the sources of other
 * languages — a `.py` or `.ts` file never changes what cargo or go vet says — and,
 * for a Go module, less nested modules and `testdata`). Any change to any of
 * those is a miss; an edit elsewhere in the repository is not.
 *
 * Outcomes are stored only when the tool ran to a verdict (passed or failed):
 * never an errored job, and never a failure to download dependencies (see
 * `_network.ts`), so a run without network does not become the project's result.
 *
 * The build identity is the result cache's (`lib/cache` `buildIdentity`). Entries
 * live beside the repository's result cache, in
 * `<cache dir of the anchor>/workspace/<key>.json`; `--no-cache` / `no_cache`
 * skips the lookup, `[cache] enabled = false` turns reading and writing off.
 *
 * @module
 */
import { basename, join, relative } from "node:path";
import { writeFileAtomic } from "../fs/atomic.ts";
import { digestOf } from "../cache/digest.ts";
import type { WorkspaceOutcome } from "../report/schema.ts";
import type { PlannedJob } from "./plan.ts";
import { which } from "./which.ts";
import { isIndirect } from "../fs/executable.ts";
import { runTree } from "./_spawn.ts";
import { compareText } from "../report/sort.ts";

/** A cached job outcome (without duration and the cached flag). */
export type CachedJob = Omit<WorkspaceOutcome["jobs"][number], "duration_ms" | "cached">;

/** Bumped when the key or entry format changes. */
const FORMAT = 1;

const ENV_KEYS = [
  "RUSTFLAGS",
  "CARGO_BUILD_TARGET",
  "CARGO_TARGET_DIR",
  "RUSTC_WRAPPER",
  "GOFLAGS",
  "GOOS",
  "GOARCH",
  "CGO_ENABLED",
];

const SKIP = new Set([
  "target",
  ".git",
  "node_modules",
  "vendor",
  ".poly",
  "__pycache__",
  ".venv",
  "venv",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  ".tox",
]);

/** Sources of languages whose files no built-in job reads (Rust and Go are added per job: see {@link foreign}). */
const OTHER_SOURCES = new Set([
  "py",
  "pyi",
  "pyw",
  "ipynb",
  "js",
  "mjs",
  "cjs",
  "jsx",
  "ts",
  "mts",
  "cts",
  "tsx",
  "vue",
  "svelte",
  "astro",
  "rb",
  "php",
  "java",
  "kt",
  "kts",
  "swift",
  "cs",
  "scala",
  "lua",
  "zig",
]);

/** Whether a file named `name` belongs to another ecosystem than the job's (its edits cannot change the outcome). */
export function foreign(tool: PlannedJob["tool"], name: string): boolean {
  const ext = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1).toLowerCase() : "";
  if (tool === "inline") return false;
  if (OTHER_SOURCES.has(ext)) return true;
  return tool === "go-vet" ? ext === "rs" : ext === "go";
}

/** Where one repository's workspace outcomes are kept. */
export interface WorkspaceCache {
  dir: string;
  /** Build identity (see lib/cache). */
  build: string;
}

/** Opens the workspace namespace of the cache of `anchor` (`root`: `[cache] dir`). */
export async function openWorkspaceCache(anchor: string, root?: string): Promise<WorkspaceCache> {
  // The checkout's own folder: a worktree does not share its main checkout's workspace outcomes.
  const { buildIdentity, checkoutDirFor } = await import("../cache/mod.ts");
  return { dir: join(checkoutDirFor(anchor, root), "workspace"), build: await buildIdentity() };
}

/** The cache key of `job`, or undefined when it must not be cached. */
export async function jobKey(job: PlannedJob, cache: WorkspaceCache): Promise<string | undefined> {
  if (!job.cacheable || !job.argv) return undefined;
  const names = [...new Set([job.argv[0], `${job.argv[0]}-${job.argv[1]}`])];
  const found = new Map(names.map((name) => [name, which(name)]));
  const programs = names.map((name) => {
    const path = found.get(name);
    if (!path) return [name, null];
    try {
      const info = Deno.statSync(path);
      return [path, info.size, info.mtime?.getTime() ?? 0];
    } catch {
      return [path, null];
    }
  });
  const env = ENV_KEYS.map((k) => {
    try {
      // Asked first: reading a variable the permission set does not grant would prompt on a terminal.
      if (Deno.permissions.querySync({ name: "env", variable: k }).state !== "granted") return [k, "?"];
      return [k, Deno.env.get(k) ?? null];
    } catch {
      return [k, "?"];
    }
  });
  const toolchain = await toolchainVersion(job, found.get(job.argv[0]));
  if (toolchain === undefined) return undefined;
  const tree = await treeListing(job.dir, job.tool);
  return digestOf(JSON.stringify([FORMAT, cache.build, job.name, job.argv, job.dir, programs, env, toolchain, tree]));
}

/** How a job's tool tells its version (clippy's and go's change with the toolchain rustup or a shim picks). */
const VERSION_ARGV: Partial<Record<PlannedJob["tool"], string[]>> = {
  clippy: ["cargo", "clippy", "--version"],
  "go-vet": ["go", "version"],
};

/**
 * The version a job's toolchain reports, when the program it runs is a link to another program or a script —
 * rustup's `cargo`, a version manager's `go` — whose file (in the key above) stays the same while the toolchain it
 * runs changes (`rustup update`, a `rust-toolchain.toml`): asked in the job's directory, where the toolchain is
 * picked, whole (a nightly's commit and date included). `path` is where the key above found the program. Null when the
 * program is what its file is; undefined when the version could not be asked (the outcome is then not cached).
 */
async function toolchainVersion(job: PlannedJob, path: string | undefined): Promise<string | null | undefined> {
  const argv = VERSION_ARGV[job.tool];
  const program = job.argv?.[0];
  if (!argv || !program || basename(program) !== argv[0]) return null;
  if (!path || !isIndirect(path)) return null;
  try {
    // The program the job runs, as it names it.
    const run = await runTree([program, ...argv.slice(1)], {
      cwd: job.dir,
      env: job.env,
      timeoutMs: VERSION_TIMEOUT_MS,
    });
    return run.code === 0 ? run.stdout.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** How long a toolchain may take to say its version (rustup may be busy with another process's update). */
const VERSION_TIMEOUT_MS = 60_000;

/** Reads a cached outcome. */
export async function cacheGet(cache: WorkspaceCache, key: string): Promise<CachedJob | undefined> {
  try {
    const text = await Deno.readTextFile(join(cache.dir, `${key}.json`));
    const entry = JSON.parse(text) as { format: number; job: CachedJob };
    return entry.format === FORMAT ? entry.job : undefined;
  } catch {
    return undefined;
  }
}

/** Stores an outcome (best effort: a cache that cannot be written is not an error of the run). */
export async function cachePut(cache: WorkspaceCache, key: string, job: CachedJob): Promise<void> {
  try {
    const dir = cache.dir;
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(join(dir, `${key}.json`), JSON.stringify({ format: FORMAT, job }));
  } catch {
    // Read-only cache home: run without caching.
  }
}

/** The digest of the listing of the project's own files under `root` (see the module doc). */
export async function treeListing(root: string, tool: PlannedJob["tool"]): Promise<string> {
  const lines: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      return;
    }
    // A nested Go module is a project of its own (it has its own job).
    if (tool === "go-vet" && dir !== root && entries.some((e) => e.name === "go.mod" && !e.isDirectory)) return;
    entries.sort((a, b) => compareText(a.name, b.name));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) {
        if (!SKIP.has(entry.name) && !(tool === "go-vet" && entry.name === "testdata")) await walk(path);
      } else if (foreign(tool, entry.name)) {
        continue;
      } else {
        try {
          const info = await Deno.stat(path);
          lines.push(`${relative(root, path)}\0${info.size}\0${info.mtime?.getTime() ?? 0}`);
        } catch {
          lines.push(`${relative(root, path)}\0?`);
        }
      }
    }
  };
  await walk(root);
  return digestOf(lines.join("\n"));
}
