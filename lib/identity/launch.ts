/**
 * How main.ts loads the program (lib/cli/program.ts): for `poly lint` and
 * `poly fmt` in this process, from a bundle of it that `deno task bundle` (or
 * `deno task install`) built for this checkout, when one was built from the
 * checkout's source as it is now, else (and for every other command) from source.
 *
 * A bundle's chunks (`dist/bundle/<key>/`) replace ~160 modules of poly's own
 * and most of its pure-JavaScript packages' modules, which Deno otherwise
 * resolves and reads one by one (docs/performance.md). Its key is a digest of the code
 * stamp it was built under (lib/identity/code.ts `sourceStamp`: every source
 * file's path, inode, size and mtime), of the build script's and of Deno's
 * version, so an edit to any source file, to `deno.json`, `deno.lock` or the
 * build script, or another Deno, makes the checkout run from source until the
 * next build: a bundle is never run for code other than its own.
 * `POLY_BUNDLE=off` runs from source whatever is built; `POLY_BUNDLE_DIR` keeps
 * the bundles elsewhere (a checkout the user cannot write to); `POLY_DEBUG=launch`
 * says on stderr which way the program was loaded, and why.
 *
 * @module
 */
import { join, pathToFileURL } from "../paths/path.ts";
import { sourceStamp, statLine } from "./code.ts";
import { type Launch, launched, recordLaunch } from "./_launch.ts";
import { shortDigest } from "../cache/short_digest.ts";
import { debugging } from "../debug/flags.ts";

export { launched } from "./_launch.ts";
export type { Launch } from "./_launch.ts";

/** Where the bundles of a checkout are built, relative to it (one folder per key), unless `POLY_BUNDLE_DIR` says. */
export const BUNDLE_DIR = "dist/bundle";

/** The folder the checkout at `root` keeps its bundles in: `POLY_BUNDLE_DIR`, else `<root>/dist/bundle`. */
export function bundleParent(root: string): string {
  return Deno.env.get("POLY_BUNDLE_DIR") || join(root, BUNDLE_DIR);
}

/** A bundle's entry module (lib/cli/program.ts, bundled). */
export const BUNDLE_ENTRY = "program.js";

/** The recipe of a bundle besides the source: the script that builds it, relative to the checkout. */
export const BUNDLE_SCRIPT = "scripts/bundle.ts";

/**
 * The folder name of the checkout's bundle built under `stamp`: the first 32
 * hex digits of SHA-256 over the stamp's lines, the build script's stat line and
 * Deno's version (the bundler's), so a bundle is run only by what built it.
 */
export async function bundleKey(root: string, stamp: readonly string[]): Promise<string> {
  const lines = [...stamp, statLine(join(root, BUNDLE_SCRIPT)) ?? BUNDLE_SCRIPT, `deno ${Deno.version.deno}`];
  return await shortDigest(lines.join("\n"));
}

/** The folder of the bundle of the checkout at `root` built under `stamp`. */
export async function bundleFolder(root: string, stamp: readonly string[]): Promise<string> {
  return join(bundleParent(root), await bundleKey(root, stamp));
}

/**
 * Chooses how the program of the checkout at `root` loads, and records it for
 * the program (lib/identity/_launch.ts): the URL of the bundle's entry, or
 * undefined to load it from source. A bundle serves the runs that start
 * engines, `poly lint` and `poly fmt` in this process, which take the code
 * stamp anyway (the replay's key): for any other command, or one a `poly daemon`
 * answers, the stamp would cost more (~15–25 ms) than the bundle saves, and the
 * program loads from source. The stamp is taken only when a bundle folder
 * exists (a checkout with none pays nothing here).
 */
export async function chooseProgram(root: string, args: readonly string[]): Promise<string | undefined> {
  const launch: Launch = { root };
  recordLaunch(launch);
  const why = await choose(root, args, launch);
  if (why !== undefined && debugging("launch")) console.error(`poly: the program runs from source: ${why}`);
  if (launch.bundle !== undefined && debugging("launch")) console.error(`poly: the program runs from ${launch.bundle}`);
  return launch.bundle === undefined ? undefined : pathToFileURL(join(launch.bundle, BUNDLE_ENTRY)).href;
}

/** Sets `launch.bundle` when a bundle is to run; else says why not. */
async function choose(root: string, args: readonly string[], launch: Launch): Promise<string | undefined> {
  if (Deno.build.standalone) return "a compiled binary carries its modules";
  if (Deno.env.get("POLY_BUNDLE") === "off") return "POLY_BUNDLE=off";
  if (args[0] !== "lint" && args[0] !== "fmt") return `a bundle serves \`poly lint\` and \`poly fmt\` only`;
  // Where the daemon's client will find one (lib/daemon/client.ts), the run is the daemon's.
  const { daemonDir, entriesFor, listEntries, memoAllowed } = await import("../daemon/registry.ts");
  if (memoAllowed() && entriesFor(Deno.cwd(), listEntries(daemonDir())).length > 0) return "a poly daemon answers here";
  const parent = bundleParent(root);
  try {
    Deno.statSync(parent);
  } catch {
    return `no bundle is built (\`deno task bundle\` builds one in ${parent})`;
  }
  launch.stamp = sourceStamp(root);
  const folder = await bundleFolder(root, launch.stamp);
  try {
    Deno.statSync(join(folder, BUNDLE_ENTRY));
  } catch {
    return "no bundle is built from the source as it is now (`deno task bundle` builds one)";
  }
  launch.bundle = folder;
  return undefined;
}

/**
 * Records that the bundle's entry did not load (a folder removed meanwhile, a
 * chunk missing) before main.ts loads the program from source; says why under
 * `POLY_DEBUG=launch`.
 */
export function bundleFailed(root: string, error: unknown): void {
  const stamp = launched()?.stamp;
  recordLaunch({ root, ...(stamp ? { stamp } : {}) });
  if (debugging("launch")) {
    const why = error instanceof Error ? error.message : String(error);
    console.error(`poly: the program runs from source: the bundle did not load (${why})`);
  }
}
