/**
 * biome's native command line as the batch path of formatting
 * (`Biome.formatMany`: check runs and `poly fmt --fix` alike). One run:
 *
 * - a private temporary directory holds the generated `biome.json` (the
 *   configuration the WebAssembly path applies, plus `vcs.enabled = false`)
 *   and, per process, a folder `w<n>/` with a copy of that `biome.json` and of
 *   each file's text (the text poly read, so what biome formats is exactly what
 *   the report is about) at the file's path below the configuration's directory
 *   (`root`: the governing biome, prettier or oxfmt file's), else relative to the
 *   run — the path the WebAssembly path gives it ({@link biomePath}) — so biome
 *   picks the same parser and the same well-known-file rules (`package.json`,
 *   `tsconfig.json`, `.vscode/*.json`), and the configuration's globs
 *   (`overrides`, a prettier file's overrides mapped onto biome's) match as in the
 *   repository; the copies of one process are removed before the next one's are
 *   written;
 * - under a manifest (the settings carry one only when its `"type": "commonjs"`
 *   makes `.js` files scripts), a copy of its fields at its own place among the
 *   copies, as the WebAssembly path puts it beside the file;
 * - `biome format --write --config-path=w<n>/biome.json --verbose
 *   --reporter=summary --reporter=json --reporter-file=<dir>/format-<n>.json <paths>`
 *   in `w<n>/` (started as in `_native.ts`);
 * - a file gets a native result when biome lists it as processed and reports
 *   no diagnostic for it (its result is the copy's text afterwards), or when
 *   every diagnostic biome reports for it is a parse error placed in its text
 *   (with the one saying formatting was aborted): its result is then the same
 *   syntax error the WebAssembly path gives, each error at its line and column.
 *
 * Anything else — a file biome ignores or protects, one over its
 * size limit, a path that leaves the configuration's directory or the run or has
 * awkward characters, a biome configuration file biome would read as one (below
 * the top, or `biome.json` itself), a configuration naming paths
 * that are not globs (`extends`, `files` lists), a manifest outside the
 * configuration's directory, a crash, unreadable output, no `sh` (or `node` on
 * Windows) — leaves that file `undefined`, and the caller formats it on the
 * WebAssembly path. `tests/engines/biome/format_test.ts` holds the two paths equal.
 *
 * @module
 */
import { dirname, join, sep } from "node:path";
import { type BiomeCommand, biomeCommand } from "./_bin.ts";
import {
  CHUNK_BYTES,
  findingsOf,
  inBiomeDir,
  type JsonDiagnostic,
  key,
  mirrorSafe,
  type NativeOptions,
  nativeSafe,
  runBiome,
} from "./_native.ts";
import { syntaxError } from "./_shared.ts";
import type { SourceFile, SourceSyntaxError } from "../types.ts";
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
 * Where each of `files` and the manifest go among the copies (see the module doc): below `root` when the
 * configuration has one (its globs are relative to it), else by the path relative to the run. A file outside it, or
 * whose place {@link placeOf} refuses, has none; a manifest without a place leaves every file without one (its
 * `.js` files would be read as modules).
 */
export function placesOf(
  files: readonly { path: string; relPath: string }[],
  root: string | undefined,
  manifest: NativeEngineConfig | undefined,
): { files: (string | undefined)[]; manifest?: string } {
  let base = root;
  if (base === undefined && manifest) {
    // No configuration's directory: the run's, from a file's path and its path relative to the run.
    const f = files.find((f) => f.path.endsWith(sep + f.relPath.split("/").join(sep)));
    base = f && f.path.slice(0, f.path.length - f.relPath.length - 1);
  }
  const below = (path: string) => {
    const rel = base === undefined ? undefined : relativeInside(base, path);
    return rel === undefined ? undefined : placeOf(rel);
  };
  if (manifest) {
    const at = below(manifest.files[0]?.path ?? "");
    if (at === undefined) return { files: files.map(() => undefined) };
    return { files: files.map((f) => below(f.path)), manifest: at };
  }
  return { files: files.map((f) => root === undefined ? placeOf(f.relPath) : below(f.path)) };
}

/** A file's native result: its formatted text, or its parse errors. */
export type NativeFormat = string | SourceSyntaxError;

/**
 * Formats `files` with biome's native command line under `config` (whose globs are relative to `root`, and whose
 * `.js` files are read under `manifest`); returns each file's formatted text or parse errors, or undefined for a file
 * without a native result (see the module doc).
 */
export async function formatNative(
  files: SourceFile[],
  config: Record<string, unknown>,
  options: NativeOptions = {},
  root?: string,
  manifest?: NativeEngineConfig,
): Promise<(NativeFormat | undefined)[]> {
  const out: (NativeFormat | undefined)[] = files.map(() => undefined);
  const command = options.command === undefined ? await biomeCommand() : options.command;
  // Globs relative to the configuration's directory: they match once each copy is at its path below it.
  if (!command || !(nativeSafe(config) || (root !== undefined && mirrorSafe(config)))) return out;
  const places = placesOf(files, root, manifest);
  const seen = new Set<string>();
  const chosen: { i: number; place: string }[] = [];
  places.files.forEach((place, i) => {
    if (place === undefined || seen.has(place)) return;
    seen.add(place);
    chosen.push({ i, place });
  });
  if (chosen.length === 0) return out;
  const fields = manifest && { place: places.manifest!, text: JSON.stringify(manifest.options) };
  await inBiomeDir("poly-biome-fmt-", config, async (dir) => {
    const encoder = new TextEncoder();
    const pathLimit = options.chunkBytes ?? CHUNK_BYTES;
    let chunk: typeof chosen = [];
    let pathBytes = 0;
    let textBytes = 0;
    let n = 0;
    const flush = async () => {
      if (chunk.length === 0) return;
      const items = chunk.map((c) => ({ place: c.place, text: files[c.i].text }));
      await formatChunk(command, dir, n++, items, options, fields)
        .then((texts) => chunk.forEach((c, j) => (out[c.i] = texts[j])));
      chunk = [];
      pathBytes = 0;
      textBytes = 0;
    };
    for (const c of chosen) {
      const size = encoder.encode(c.place).length + 4;
      const text = files[c.i].text.length * 3;
      if (pathBytes + size > pathLimit || textBytes + text > TEXT_BYTES) await flush();
      chunk.push(c);
      pathBytes += size;
      textBytes += text;
    }
    await flush();
  });
  return out;
}

/**
 * Copies one chunk's texts under `dir/w<n>/` beside the configuration (and the manifest's fields, unless a file of
 * the chunk is the manifest itself), formats them in one process there, reads the answered ones back (or makes their
 * parse errors) and removes the copies; undefined for a file without a native result.
 */
async function formatChunk(
  command: BiomeCommand,
  dir: string,
  n: number,
  items: { place: string; text: string }[],
  options: NativeOptions,
  manifest?: { place: string; text: string },
): Promise<(NativeFormat | undefined)[]> {
  const root = join(dir, `w${n}`);
  const out: (NativeFormat | undefined)[] = items.map(() => undefined);
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
      Deno.copyFileSync(join(dir, "biome.json"), join(root, "biome.json"));
      if (manifest && !items.some((item) => item.place === manifest.place)) write(manifest.place, manifest.text);
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
    const paths = written.map((j) => items[j].place);
    const { answered, unparsed } = await runChunk(command, root, join(dir, `format-${n}.json`), paths, options);
    written.forEach((j, k) => {
      const errors = unparsed.get(key(paths[k]));
      if (errors) {
        out[j] = parseErrors(items[j], errors);
        return;
      }
      if (!answered.has(key(paths[k]))) return;
      try {
        out[j] = Deno.readTextFileSync(join(root, paths[k]));
      } catch {
        // vanished: WebAssembly
      }
    });
    return out;
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

/**
 * Runs one process in `dir` (which holds the configuration) over `paths` (relative to it), its report in `report`:
 * the paths it formatted without a diagnostic, and those whose every diagnostic is a parse error (with the one saying
 * formatting was aborted), with them.
 */
async function runChunk(
  command: BiomeCommand,
  dir: string,
  report: string,
  paths: string[],
  options: NativeOptions,
): Promise<{ answered: Set<string>; unparsed: Map<string, JsonDiagnostic[]> }> {
  const none = { answered: new Set<string>(), unparsed: new Map<string, JsonDiagnostic[]>() };
  const run = await runBiome(command, dir, ["format", "--write"], paths, report, options);
  if (!run) return none;
  const diagnosed = Map.groupBy(run.diagnostics, (d) => key(d.location?.path ?? ""));
  // A diagnostic without a location may concern any file (a configuration problem): nothing is answered.
  if (diagnosed.has("")) return none;
  const unparsed = new Map<string, JsonDiagnostic[]>();
  for (const [path, list] of diagnosed) {
    const parse = list.filter((d) => d.category === "parse");
    if (parse.length > 0 && list.every((d) => d.category === "parse" || d.category === "format")) {
      unparsed.set(path, parse);
    }
  }
  return { answered: new Set([...run.processed].filter((p) => !diagnosed.has(p))), unparsed };
}

/**
 * The syntax error biome's parse diagnostics make of a file's text, as the WebAssembly path makes it; undefined when
 * one of them cannot be placed exactly (the WebAssembly path then says).
 */
function parseErrors(item: { place: string; text: string }, errors: JsonDiagnostic[]): SourceSyntaxError | undefined {
  const file: SourceFile = { path: item.place, relPath: item.place, language: "typescript", text: item.text };
  const findings = findingsOf(file, errors);
  return findings && syntaxError(item.text, findings);
}
