/**
 * What a compiled poly must carry besides its static module graph, and what it
 * can leave out.
 *
 * - `--include`: files poly reads at run time that no import reaches — the
 *   worker pool's module (`new Worker(new URL("./worker.ts", ...))`) and the
 *   built-in ast-grep rule pack (YAML read from `lib/rules/builtin/`). Modules
 *   loaded lazily are literal `import()`s, which `deno compile` embeds itself.
 * - npm packages: with a `node_modules` directory, `deno compile` embeds the
 *   whole tree, so every engine's WebAssembly module, ast-grep's N-API addon and
 *   parser libraries, oxlint's binding, and biome's native command line (its
 *   launcher and the target's `@biomejs/cli-<platform>` executable) travel inside
 *   the binary (the engines read them with `import.meta.resolve` + `Deno.readFile`,
 *   or copy them to the cache directory before loading or running them).
 * - `--exclude`: packages that only development uses ({@link DEV_ONLY_PACKAGES})
 *   and native packages built for other platforms than the target.
 *
 * After a build, {@link missingEmbeds} reads `deno compile`'s "Embedded Files"
 * listing and names whatever required file or package is not in it.
 *
 * @module
 */
import { join } from "node:path";
import { stripAnsi } from "./_text.ts";
import { nativeMatches, nativePlatformOf, type Target } from "./_targets.ts";

/** Repository-relative paths read at run time that no import reaches. */
export const RUNTIME_INCLUDES: readonly string[] = [
  "lib/run/worker.ts",
  "lib/engines/ruff/_warm.ts",
  "lib/rules/builtin",
];

/**
 * npm packages (and package-name prefixes ending in "-") that only development
 * and tests use; never imported by `main.ts`, `lib/`, `tools/` or `tui/`.
 */
export const DEV_ONLY_PACKAGES: readonly string[] = [
  "ink-testing-library",
];

/** One installed npm package in `node_modules/.deno`. */
export interface InstalledPackage {
  /** Package name, e.g. "@ast-grep/napi-linux-x64-gnu". */
  name: string;
  /** Version, e.g. "0.51.1". */
  version: string;
  /** The package's own directory, relative to the repository root. */
  dir: string;
}

/**
 * Parses a `node_modules/.deno` entry name (`@scope+name@1.2.3`, `name@1.2.3`,
 * with an optional `_<n>` peer-dependency suffix) into the package name and version.
 */
export function parseStoreEntry(entry: string): { name: string; version: string } | undefined {
  const m = /^(@[^+]+\+[^@]+|[^@+][^@]*)@([^_]+)(?:_.*)?$/.exec(entry);
  if (!m) return undefined;
  return { name: m[1].replace("+", "/"), version: m[2] };
}

/** The packages installed in `<root>/node_modules/.deno` (sorted by directory). */
export async function installedPackages(root: string): Promise<InstalledPackage[]> {
  const out: InstalledPackage[] = [];
  try {
    for await (const e of Deno.readDir(join(root, "node_modules", ".deno"))) {
      if (!e.isDirectory) continue;
      const parsed = parseStoreEntry(e.name);
      if (!parsed) continue;
      out.push({ ...parsed, dir: `node_modules/.deno/${e.name}/node_modules/${parsed.name}` });
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return out.sort((a, b) => a.dir.localeCompare(b.dir));
}

/** Whether a package is development-only (see {@link DEV_ONLY_PACKAGES}). */
export function isDevOnly(name: string): boolean {
  return DEV_ONLY_PACKAGES.some((p) => p.endsWith("-") ? name.startsWith(p) : name === p);
}

/**
 * The `--exclude` paths for a target: development-only packages, and native
 * packages for other platforms. (A package's own directory must be named: `deno
 * compile` does not exclude through the store entry's `node_modules` level.)
 */
export function excludesFor(packages: readonly InstalledPackage[], target: Target): string[] {
  const out: string[] = [];
  for (const p of packages) {
    const native = nativePlatformOf(p.name);
    if (isDevOnly(p.name) || (native && !nativeMatches(native, target))) out.push(p.dir);
  }
  return out;
}

/** One node of `deno compile`'s "Embedded Files" tree. */
export interface EmbeddedEntry {
  /** Path relative to the embedded root, `/`-separated. */
  path: string;
  /** A collapsed directory (`dir/*`): everything under it is embedded. */
  collapsed: boolean;
}

/**
 * Parses the "Embedded Files" tree `deno compile` prints (colours stripped):
 *
 * ```text
 * poly
 * ├── deno.json (4.13KB)
 * ├─┬ lib (2.07MB)
 * │ ├── agents/* (28.27KB)
 * │ └── run/worker.ts (1.69KB)
 * ```
 *
 * Returns undefined when the output has no such listing.
 */
export function parseEmbeddedListing(output: string): EmbeddedEntry[] | undefined {
  const lines = stripAnsi(output).split(/\r?\n/);
  const start = lines.findIndex((l) => l.trim() === "Embedded Files");
  if (start < 0) return undefined;
  const out: EmbeddedEntry[] = [];
  const stack: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const m = /^((?:[│ ] )*)[├└]─[─┬] (.+?)(?: \([^()]*\))?$/.exec(line);
    if (!m) {
      if (out.length > 0 && line.trim() === "") break;
      continue;
    }
    const depth = m[1].length / 2;
    stack.length = depth;
    const name = m[2];
    const collapsed = name.endsWith("/*");
    const rel = collapsed ? name.slice(0, -2) : name;
    const path = [...stack, rel].join("/");
    stack.push(rel);
    out.push({ path, collapsed });
  }
  return out;
}

/** Whether `path` (a file or directory) is embedded according to the listing. */
export function isEmbedded(listing: readonly EmbeddedEntry[], path: string): boolean {
  return listing.some((e) =>
    e.path === path || path.startsWith(e.path + "/") && e.collapsed || e.path.startsWith(path + "/")
  );
}

/** A package's platform-specific optional dependencies (its N-API addons): name → version spec. */
async function optionalNatives(root: string, p: InstalledPackage): Promise<Record<string, string>> {
  try {
    const json = JSON.parse(await Deno.readTextFile(join(root, p.dir, "package.json")));
    const deps: Record<string, string> = json.optionalDependencies ?? {};
    return Object.fromEntries(Object.entries(deps).filter(([name]) => nativePlatformOf(name) !== undefined));
  } catch {
    return {};
  }
}

/** Where a package would be installed in `node_modules/.deno`. */
export function storeDir(name: string, version: string): string {
  return `node_modules/.deno/${name.replace("/", "+")}@${version}/node_modules/${name}`;
}

/**
 * The installed packages plus the native packages for other platforms that
 * installed packages declare with an exact version: a cross build makes
 * `deno compile` install the target's variants, so their directories must be
 * known (to exclude the unwanted ones) before it runs.
 */
export async function knownPackages(root: string): Promise<InstalledPackage[]> {
  const installed = await installedPackages(root);
  const byDir = new Map(installed.map((p) => [p.dir, p]));
  for (const p of installed) {
    for (const [name, spec] of Object.entries(await optionalNatives(root, p))) {
      if (!/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(spec)) continue; // a range: the version is unknown
      const dir = storeDir(name, spec);
      if (!byDir.has(dir)) byDir.set(dir, { name, version: spec, dir });
    }
  }
  return [...byDir.values()].sort((a, b) => a.dir.localeCompare(b.dir));
}

/**
 * Everything a compiled binary for `target` must embed: the run-time includes,
 * every installed package that is not development-only or foreign native, and
 * for each package that declares platform-specific optional dependencies (the
 * N-API addons), the variant for the target.
 */
export async function requiredEmbeds(root: string, target: Target): Promise<string[]> {
  const packages = await installedPackages(root);
  const out = [...RUNTIME_INCLUDES];
  const excluded = new Set(excludesFor(packages, target));
  for (const p of packages) {
    if (excluded.has(p.dir)) continue;
    out.push(p.dir);
    if (isDevOnly(p.name)) continue;
    for (const [name, spec] of Object.entries(await optionalNatives(root, p))) {
      if (!nativeMatches(nativePlatformOf(name)!, target)) continue;
      const found = packages.find((q) => q.name === name);
      out.push(found ? found.dir : storeDir(name, spec));
    }
  }
  return [...new Set(out)];
}

/** The required paths missing from a compile's listing. */
export function missingEmbeds(listing: readonly EmbeddedEntry[], required: readonly string[]): string[] {
  return required.filter((path) => !isEmbedded(listing, path));
}
