/**
 * The code stamp: what changes whenever poly's code does. For a compiled binary,
 * the executable's inode, size and mtime; run from source, the path, inode, size
 * and mtime of every source file (`main.ts`, `deno.json`, `deno.lock`, `lib/`,
 * `tools/`). Part of the build identity (lib/cache/build.ts), and what a daemon
 * and its client compare. Cheap to import: no dependency.
 *
 * @module
 */
import { fileURLToPath, join, sep } from "../paths/path.ts";
import { statx } from "../fs/statx.ts";
import { launched } from "./_launch.ts";

/**
 * The checkout poly's source is in (the folder of `main.ts`, with a trailing
 * separator): where a file of the program is found by its path, whether the
 * program was loaded from source or from a bundle of it (lib/identity/launch.ts),
 * whose modules lie elsewhere.
 */
export function sourceRoot(): string {
  const root = launched()?.root;
  return root === undefined ? fileURLToPath(new URL("../../", import.meta.url)) : join(root, sep);
}

/**
 * A file of the program by its path in the checkout (`lib/run/worker.ts`): in
 * {@link sourceRoot}, or in a compiled binary, where `deno compile` embedded it
 * (each such file is in its run-time includes: tests/dist/compile_test.ts finds
 * them by this call).
 */
export function sourcePath(path: string): string {
  return join(sourceRoot(), path);
}

/** Source folders of the program, beside main.ts. */
export const SOURCE_DIRS: readonly string[] = ["lib", "tools"];
const SOURCE_FILES = ["main.ts", "deno.json", "deno.lock"];
const SOURCE_EXT = /\.(ts|tsx|js|mjs|json|yml|yaml|toml)$/;

/** `path:inode:size:mtime`, or undefined when it cannot be stat-ed. */
export function statLine(path: string): string | undefined {
  const fast = statx(path, true);
  if (fast) return `${path}:${fast.ino}:${fast.size}:${fast.mtime ?? ""}`;
  try {
    const info = Deno.statSync(path);
    return `${path}:${info.ino ?? ""}:${info.size}:${info.mtime?.getTime() ?? ""}`;
  } catch {
    return undefined;
  }
}

/**
 * The stat lines of poly's own source files when run from source (sorted).
 * Synchronous: ~500 stats, where a promise per call would cost more than the calls.
 */
export function sourceStamp(root: string = sourceRoot()): string[] {
  const lines: string[] = [];
  for (const f of SOURCE_FILES) {
    const line = statLine(join(root, f));
    if (line) lines.push(line);
  }
  const files = new Set<string>();
  for (const d of SOURCE_DIRS) listTree(join(root, d), files);
  for (const path of files) {
    if (!SOURCE_EXT.test(path)) continue;
    const line = statLine(path);
    if (line) lines.push(line);
  }
  return lines.sort();
}

/** Adds every file under `dir` (recursively; an unreadable folder adds nothing) to `into`. */
export function listTree(dir: string, into: Set<string>): void {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return;
  }
  for (const entry of entries) {
    // An entry's name has no separator: joined as it is (normalizing ~570 paths cost a warm run ~7 ms).
    const path = `${dir}${sep}${entry.name}`;
    if (entry.isDirectory) listTree(path, into);
    else into.add(path);
  }
}

let code: readonly string[] | undefined;

/**
 * The code stamp (computed once per process): the executable's stat line when
 * compiled, else {@link sourceStamp} — the one main.ts took when it chose how
 * to load the program (a bundle is run only under the stamp it was built from).
 * Whatever poly's code or its lockfile changes, this changes.
 */
export function codeStamp(): readonly string[] {
  code ??= Deno.build.standalone
    ? [statLine(Deno.execPath()) ?? "unknown-executable"]
    : launched()?.stamp ?? sourceStamp();
  return code;
}

/**
 * The files whose change changes {@link codeStamp}: the executable when
 * compiled, else the source files and folders it stats. A resident poly
 * watches them to know when it has gone stale.
 */
export function codePaths(root: string = sourceRoot()): string[] {
  if (Deno.build.standalone) return [Deno.execPath()];
  return [...SOURCE_FILES, ...SOURCE_DIRS].map((name) => join(root, name));
}

/** {@link codeStamp} taken again now (not remembered): what the program's files are at this moment. */
export function freshCodeStamp(): readonly string[] {
  return Deno.build.standalone ? [statLine(Deno.execPath()) ?? "unknown-executable"] : sourceStamp();
}

/**
 * The V8 flags every way of starting poly passes (this source command, the
 * `deno task poly` dev task, the compiled binary):
 *
 * - WebAssembly engines (ruff among them, and the wasm formatters) stay on V8's
 *   baseline compiler. Tiering their hot functions up to the optimizing
 *   compiler, in every worker at once, was what set a large run's peak memory
 *   (150–200 MB of compile memory and optimized code on 2 workers, measured in
 *   docs/discovery-and-reports.md), and a cold run is not slower for it (the
 *   optimizing compiles took CPU the workers needed).
 * - The young generation stays small (semi-spaces of 2 MB, where V8 grows them
 *   to 8–16 MB): a run's short-lived objects are collected sooner, in memory
 *   the process has already touched, instead of in fresh pages it faults in one
 *   by one. A cold `poly lint` spends less CPU in the kernel for it (biome only:
 *   0.94–0.97× the time on vite, docs/performance.md).
 */
export const V8_FLAGS: readonly string[] = [
  "--v8-flags=--no-wasm-dynamic-tiering,--no-wasm-tier-up,--max-semi-space-size=2,--wasm-max-mem-pages=32768",
];

/**
 * The command line that runs poly from the source checkout at `root` as users
 * and the tests do: `deno run` with the program's permission set from that
 * checkout's `deno.json`, never prompting for a permission outside it
 * (`--no-prompt`), `node_modules/` used as installed (not re-checked at every
 * start), and {@link V8_FLAGS}.
 */
export function sourceCommand(root: string): string[] {
  return [
    Deno.execPath(),
    "run",
    "-q",
    "-P",
    "--no-prompt",
    "--node-modules-dir=manual",
    ...V8_FLAGS,
    "--config",
    join(root, "deno.json"),
    join(root, "main.ts"),
  ];
}
