/**
 * biome's native command line over private copies of files' texts, the layout
 * its format path (`_format.ts`) and its fix path (`_fix.ts`) share — the paths
 * where biome writes, so never the repository's own files. One run:
 *
 * - a private temporary directory holds the generated `biome.json` (the
 *   configuration the WebAssembly path applies, plus `vcs.enabled = false`)
 *   and, per process, a folder `w<n>/` with a copy of that `biome.json` and of
 *   each file's text (the text poly read, so what biome works on is exactly what
 *   the report is about) at the file's path below the configuration's directory
 *   (`root`: the governing biome, prettier or oxfmt file's), else relative to the
 *   run — the path the WebAssembly path gives it — so biome picks the same parser
 *   and the same well-known-file rules (`package.json`, `tsconfig.json`,
 *   `.vscode/*.json`), and the configuration's globs (`overrides`) match as in the
 *   repository; the copies of one process are removed before the next one's are
 *   written;
 * - under a manifest, a copy of its fields at its own place among the copies
 *   (biome reads the nearest `package.json` above a file), as the WebAssembly
 *   path puts it beside the file;
 * - the caller's work runs in `w<n>/` over the copies' paths and says what each
 *   copy's result is.
 *
 * A file with no place — one biome ignores or protects, a path that leaves the
 * configuration's directory or the run or has awkward characters, a biome
 * configuration file biome would read as one (below the top, or `biome.json`
 * itself), a configuration naming paths that are not globs (`extends`, `files`
 * lists), a manifest outside the configuration's directory, no room to write
 * it, no `sh` (or `node` on Windows) — has no native result (undefined), and the
 * caller takes the WebAssembly path for it.
 *
 * @module
 */
import { dirname, join, sep } from "node:path";
import { type BiomeCommand, biomeCommand } from "./_bin.ts";
import { CHUNK_BYTES, inBiomeDir, mirrorSafe, type NativeOptions, nativeSafe } from "./_native.ts";
import type { SourceFile } from "../types.ts";
import type { NativeEngineConfig } from "../../config/native/types.ts";
import { declinedByBiome } from "./_limits.ts";
import { relativeInside } from "../../paths/inside.ts";

/** Bytes of file text copied per process (at most; UTF-16 length × 3 as the bound). */
const TEXT_BYTES = 64 * 1024 * 1024;

/**
 * Whether a copy at `path` would be read as configuration: a biome configuration file (`biome.json`,
 * `.biome.jsonc`, ...) in a folder, which biome reads as a nested one, or `biome.json` itself, the generated
 * configuration's place. Any other at the top is a file like another there (the generated `biome.json` wins).
 */
function readAsConfig(path: string): boolean {
  return /[/\\]\.?biome\.jsonc?$/.test(path) || path === "biome.json";
}

/**
 * Where a file's copy goes under `w<n>/`: its path relative to the run, when that
 * is a plain relative path biome's reports can carry verbatim; else undefined.
 */
export function placeOf(relPath: string): string | undefined {
  // deno-lint-ignore no-control-regex
  if (/["\\\x00-\x1f\x7f]/.test(relPath)) return undefined;
  if (relPath.startsWith("/") || /^[A-Za-z]:/.test(relPath)) return undefined;
  const parts = relPath.split("/");
  if (parts.some((p) => p === "" || p === "." || p === "..")) return undefined;
  if (readAsConfig(relPath) || declinedByBiome(relPath)) return undefined;
  return relPath;
}

/**
 * Where each of `files` and its manifest (`manifests[i]`, the file's nearest `package.json`, when biome reads one for
 * it) go among the copies (see the module doc): below `root` when the configuration has one (its globs are relative to
 * it), else by the path relative to the run. A file outside it, or whose place {@link placeOf} refuses, has none; nor
 * has a file whose manifest has none, or shares its place with another manifest's different fields (its `.js` files
 * would be read as modules, its dependencies' rules would not run). Each manifest placed is listed once, with the
 * fields biome reads as its text.
 */
export function placesOf(
  files: readonly { path: string; relPath: string }[],
  root: string | undefined,
  manifests: readonly (NativeEngineConfig | undefined)[],
): { files: (string | undefined)[]; manifests: Copy[] } {
  let base = root;
  if (base === undefined && manifests.some((m) => m !== undefined)) {
    // No configuration's directory: the run's, from a file's path and its path relative to the run.
    const f = files.find((f) => f.path.endsWith(sep + f.relPath.split("/").join(sep)));
    base = f && f.path.slice(0, f.path.length - f.relPath.length - 1);
  }
  const below = (path: string) => {
    const rel = base === undefined ? undefined : relativeInside(base, path);
    return rel === undefined ? undefined : placeOf(rel);
  };
  /** Each manifest's fields by place, and each manifest's place (undefined: none, or taken by other fields). */
  const fields = new Map<string, string>();
  const placed = new Map<NativeEngineConfig, string | undefined>();
  const placeOfManifest = (manifest: NativeEngineConfig) => {
    if (placed.has(manifest)) return placed.get(manifest);
    const at = below(manifest.files[0]?.path ?? "");
    const text = JSON.stringify(manifest.options);
    const ok = at !== undefined && (fields.get(at) ?? text) === text;
    if (ok) fields.set(at, text);
    placed.set(manifest, ok ? at : undefined);
    return ok ? at : undefined;
  };
  const out = files.map((f, i) => {
    const manifest = manifests[i];
    if (manifest) return placeOfManifest(manifest) === undefined ? undefined : below(f.path);
    return root === undefined ? placeOf(f.relPath) : below(f.path);
  });
  return { files: out, manifests: [...fields].map(([place, text]) => ({ place, text })) };
}

/** One copy of a process's folder: its path there (relative to the folder) and its text. */
export interface Copy {
  place: string;
  text: string;
}

/** A copy of one of the files given to {@link onCopies}: its index among them. */
export interface FileCopy extends Copy {
  index: number;
}

/** Where one process works: its folder `w<n>/` (the copies, a copy of `biome.json`), and the private directory. */
export interface CopiesRun {
  command: BiomeCommand;
  /** `w<n>/`: the process's working directory, where the copies lie. */
  root: string;
  /** The private directory, for the process's reports (`<name>-<n>.json`). */
  dir: string;
  n: number;
}

/**
 * Runs `work` over copies of `files` (see the module doc), chunk by chunk, one folder `w<n>/` each, under `config`
 * (whose globs are relative to `root`, and whose files are read under `manifests[i]`, one per file, as for
 * {@link placesOf}); `work` is given the copies it may
 * use (those written) and returns each one's result, or undefined. The copies `separate` picks lie in folders of
 * their own, never beside the others. Returns each file's result, or undefined for a file without one.
 */
export async function onCopies<T>(
  prefix: string,
  files: readonly SourceFile[],
  config: Record<string, unknown>,
  options: NativeOptions,
  root: string | undefined,
  manifests: readonly (NativeEngineConfig | undefined)[],
  work: (run: CopiesRun, copies: FileCopy[]) => Promise<(T | undefined)[]>,
  separate?: (place: string) => boolean,
): Promise<(T | undefined)[]> {
  const out: (T | undefined)[] = files.map(() => undefined);
  const command = options.command === undefined ? await biomeCommand() : options.command;
  // Globs relative to the configuration's directory: they match once each copy is at its path below it.
  if (!command || !(nativeSafe(config) || (root !== undefined && mirrorSafe(config)))) return out;
  const places = placesOf(files, root, manifests);
  const seen = new Set<string>();
  const chosen: { i: number; place: string }[] = [];
  const apart: typeof chosen = [];
  places.files.forEach((place, i) => {
    if (place === undefined || seen.has(place)) return;
    seen.add(place);
    (separate?.(place) ? apart : chosen).push({ i, place });
  });
  if (chosen.length + apart.length === 0) return out;
  await inBiomeDir(prefix, config, async (dir) => {
    const encoder = new TextEncoder();
    const pathLimit = options.chunkBytes ?? CHUNK_BYTES;
    let chunk: typeof chosen = [];
    let pathBytes = 0;
    let textBytes = 0;
    let n = 0;
    const flush = async () => {
      if (chunk.length === 0) return;
      const items = chunk.map((c) => ({ index: c.i, place: c.place, text: files[c.i].text }));
      const results = await inFolder({ command, root: join(dir, `w${n}`), dir, n: n++ }, items, work, places.manifests);
      chunk.forEach((c, j) => (out[c.i] = results[j]));
      chunk = [];
      pathBytes = 0;
      textBytes = 0;
    };
    for (const list of [chosen, apart]) {
      for (const c of list) {
        const size = encoder.encode(c.place).length + 4;
        const text = files[c.i].text.length * 3;
        if (pathBytes + size > pathLimit || textBytes + text > TEXT_BYTES) await flush();
        chunk.push(c);
        pathBytes += size;
        textBytes += text;
      }
      await flush();
    }
  });
  return out;
}

/**
 * Copies one chunk's texts under `run.root` beside the configuration (and the manifests' fields, each unless a file
 * of the chunk is that manifest itself), runs `work` there over the copies written and removes them.
 */
async function inFolder<T>(
  run: CopiesRun,
  items: FileCopy[],
  work: (run: CopiesRun, copies: FileCopy[]) => Promise<(T | undefined)[]>,
  manifests: readonly Copy[],
): Promise<(T | undefined)[]> {
  const { root } = run;
  const out: (T | undefined)[] = items.map(() => undefined);
  const made = new Set<string>();
  const write = (place: string, text: string) => {
    const path = join(root, place);
    const parent = dirname(path);
    if (!made.has(parent)) {
      Deno.mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    Deno.writeTextFileSync(path, text);
  };
  try {
    try {
      Deno.mkdirSync(root);
      Deno.copyFileSync(join(run.dir, "biome.json"), join(root, "biome.json"));
      for (const manifest of manifests) {
        if (!items.some((item) => item.place === manifest.place)) write(manifest.place, manifest.text);
      }
    } catch {
      return out; // no room for the configuration or the manifest: WebAssembly
    }
    const written: number[] = [];
    items.forEach((item, j) => {
      try {
        write(item.place, item.text);
        written.push(j);
      } catch {
        // a path the file system refuses (a name too long, a file where a folder must go): WebAssembly
      }
    });
    if (written.length === 0) return out;
    const results = await work(run, written.map((j) => items[j]));
    written.forEach((j, k) => (out[j] = results[k]));
    return out;
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}
