/**
 * `deno task bundle`: builds the bundle main.ts loads the program from
 * (lib/identity/launch.ts) — `deno bundle` of lib/cli/program.ts, split at its
 * dynamic imports, into `dist/bundle/<key>/` (`POLY_BUNDLE_DIR/<key>/` when set),
 * where `<key>` is a digest of the checkout's code stamp, this script's and
 * Deno's version, taken before the build and again after it (a source file
 * changed meanwhile fails the build: run it again). `deno task install` builds
 * it too.
 *
 * - npm packages: bundled are only the pure-JavaScript ones most runs load
 *   ({@link BUNDLED}); every other package stays an import the checkout's
 *   `deno.json` resolves when the program runs, so each engine loads as its
 *   authors ship it (its WebAssembly, its native module, the files it reads
 *   beside itself).
 * - Deno's bundler gives its shared runtime chunk a `node:module` import (for
 *   `require` in bundled CommonJS), which would start Deno's Node layer (~40 ms)
 *   in every run, `poly --version` included: it is made lazy here, started at a
 *   chunk's first `require`. The build fails if the bundler makes it in another
 *   way, rather than ship a slower program.
 * - A bundle already built under the same stamp is kept as it is (a running
 *   daemon may still load its chunks); of the others the newest {@link KEEP} - 1
 *   stay, the rest are removed.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sourceStamp, statLine } from "../lib/identity/code.ts";
import { BUNDLE_ENTRY, bundleFolder, bundleParent } from "../lib/identity/launch.ts";

/** The checkout this script belongs to. */
export const CHECKOUT: string = fileURLToPath(new URL("../", import.meta.url)).replace(/[\\/]$/, "");

/**
 * The npm packages (keys of deno.json's `imports`) bundled with the program; every other one stays external. An
 * external package costs a run Deno's npm resolution, and a CommonJS one its Node module loader (jsonc-parser and json5
 * did: ~50 ms before biome started on vite, docs/performance.md). `yaml` stays external: its Node entry is CommonJS, and
 * bundled, `await import("yaml")` lost the named exports poly takes from it.
 */
export const BUNDLED: ReadonlySet<string> = new Set([
  "zod",
  "@optique/core",
  "@optique/core/",
  "@optique/run",
  "smol-toml",
  "picomatch",
  "ignore",
  "p-limit",
  "p-map",
  "diff",
  "re2js",
  "semver",
  "jsonc-parser",
  "json5",
  "markdownlint",
  "markdownlint/",
]);

/** How long `deno bundle` may take (it takes ~1–3 s here) before it is stopped and the build fails. */
export const BUILD_TIMEOUT_MS = 300_000;

/** How many bundles a checkout keeps: the one just built and the newest others. */
export const KEEP = 3;

/** What Deno's bundler writes in its runtime chunk, and what it becomes: `require` made when first called. */
export const EAGER_REQUIRE = 'import { createRequire as __deno_internal_createRequire } from "node:module";\n' +
  "var __require = __deno_internal_createRequire(import.meta.url);";
export const LAZY_REQUIRE = "var __deno_require;\n" +
  "var __require = (id) => (__deno_require ??= " +
  'globalThis.process.getBuiltinModule("node:module").createRequire(import.meta.url))(id);';

/** The `--external` flags for the import map `imports`: every key not in {@link BUNDLED}. */
export function externalFlags(imports: Record<string, string>): string[] {
  return Object.keys(imports).filter((key) => !BUNDLED.has(key)).sort().map((key) =>
    `--external=${key.endsWith("/") ? `${key}*` : key}`
  );
}

/** `text` of a bundled chunk with its eager `require` made lazy; how many it changed (0 or 1). */
export function lazyRequire(text: string): { text: string; changed: number } {
  const at = text.indexOf(EAGER_REQUIRE);
  if (at < 0) return { text, changed: 0 };
  return { text: text.slice(0, at) + LAZY_REQUIRE + text.slice(at + EAGER_REQUIRE.length), changed: 1 };
}

/** Thrown when the bundle cannot be built as it must be (exit code 1, the message printed). */
export class BundleError extends Error {
  override name = "BundleError";
}

/** Builds the bundle of the checkout at `root` (if none is built for its stamp yet); returns its folder. */
export async function buildBundle(root: string = CHECKOUT): Promise<{ folder: string; built: boolean }> {
  const stamp = sourceStamp(root);
  const folder = await bundleFolder(root, stamp);
  if (exists(join(folder, BUNDLE_ENTRY))) return { folder, built: false };
  const parent = bundleParent(root);
  await Deno.mkdir(parent, { recursive: true });
  const temp = await Deno.makeTempDir({ dir: parent, prefix: ".build-" });
  try {
    const config = JSON.parse(await Deno.readTextFile(join(root, "deno.json"))) as { imports: Record<string, string> };
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "-q",
        "--code-splitting",
        "--platform=deno",
        "--format=esm",
        "--node-modules-dir=manual",
        ...externalFlags(config.imports),
        `--outdir=${temp}`,
        join(root, "lib", "cli", "program.ts"),
      ],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(BUILD_TIMEOUT_MS), // a bundler that hangs is stopped, never left behind
    }).output().catch((error) => {
      if (error instanceof DOMException && error.name === "TimeoutError") {
        throw new BundleError(`deno bundle did not finish in ${BUILD_TIMEOUT_MS / 1000} s: stopped`);
      }
      throw error;
    });
    if (!out.success) {
      const why = new TextDecoder().decode(out.stderr).trim().split("\n").slice(0, 5).join("\n");
      throw new BundleError(`deno bundle failed (exit ${out.code}):\n${why}`);
    }
    for (const entry of Deno.readDirSync(temp)) {
      if (!entry.isFile || !entry.name.endsWith(".js")) continue;
      const path = join(temp, entry.name);
      const { text, changed } = lazyRequire(await Deno.readTextFile(path));
      if (changed) await Deno.writeTextFile(path, text);
      else if (text.includes("__deno_internal_createRequire")) {
        throw new BundleError(
          `${entry.name}: Deno's bundler makes \`require\` in a way scripts/bundle.ts does not know (update it)`,
        );
      }
    }
    if (!exists(join(temp, BUNDLE_ENTRY))) throw new BundleError(`deno bundle wrote no ${BUNDLE_ENTRY}`);
    if (await bundleFolder(root, sourceStamp(root)) !== folder) {
      throw new BundleError("the source changed while the bundle was built: run `deno task bundle` again");
    }
    try {
      await Deno.rename(temp, folder);
    } catch (error) {
      // Another build of the same stamp got there first: its bundle is this one's.
      if (!exists(join(folder, BUNDLE_ENTRY))) throw error;
      await Deno.remove(temp, { recursive: true });
    }
  } catch (error) {
    await Deno.remove(temp, { recursive: true }).catch(() => {});
    throw error;
  }
  await prune(parent, folder);
  return { folder, built: true };
}

/** Removes the bundles beyond the {@link KEEP} newest (the one just built always stays) and builds left behind. */
async function prune(parent: string, keep: string): Promise<void> {
  const bundles: { path: string; mtime: number }[] = [];
  for (const entry of Deno.readDirSync(parent)) {
    const path = join(parent, entry.name);
    if (!entry.isDirectory || path === keep) continue;
    const mtime = Deno.statSync(path).mtime?.getTime() ?? 0;
    // A build's folder: another build's still under way, or one that was killed (an hour is longer than any build).
    if (entry.name.startsWith(".build-")) {
      if (Date.now() - mtime > 3_600_000) await Deno.remove(path, { recursive: true }).catch(() => {});
    } else bundles.push({ path, mtime });
  }
  bundles.sort((a, b) => b.mtime - a.mtime);
  for (const { path } of bundles.slice(KEEP - 1)) await Deno.remove(path, { recursive: true }).catch(() => {});
}

/** Whether `path` can be stat-ed (a bundle's entry is there). */
function exists(path: string): boolean {
  return statLine(path) !== undefined;
}

if (import.meta.main) {
  try {
    const { folder, built } = await buildBundle();
    console.log(built ? `bundled the program into ${folder}` : `the bundle for this source is built: ${folder}`);
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(1);
  }
}
