/**
 * biome's native command line as the batch path of formatting
 * (`Biome.formatMany`: check runs and `poly fmt --fix` alike). One run:
 *
 * - a private temporary directory holds the generated `biome.json` (the
 *   configuration the WebAssembly path applies, plus `vcs.enabled = false`)
 *   and, per process, under `w<n>/`, a copy of each file's text (the text poly
 *   read, so what biome formats is exactly what the report is about) at the
 *   file's path relative to the run, so biome picks the same parser and the same
 *   well-known-file rules (`package.json`, `tsconfig.json`, `.vscode/*.json`) the
 *   WebAssembly path picks from that path; the copies of one process are removed
 *   before the next one's are written;
 * - `biome format --write --config-path=<dir>/biome.json --verbose
 *   --reporter=summary --reporter=json --reporter-file=<dir>/format-<n>.json <paths>`
 *   in that directory (started as in `_native.ts`);
 * - a file gets a native result only when biome lists it as processed and
 *   reports no diagnostic for it; its result is the copy's text afterwards.
 *
 * Anything else — a parse error (the WebAssembly path then gives the errored
 * record its line and column), a file biome ignores or protects, one over its
 * size limit, a path that is absolute, leaves the run or has awkward
 * characters, a biome configuration file, a crash, unreadable output, no `sh`
 * (or `node` on Windows) — leaves that file `undefined`, and the caller formats
 * it on the WebAssembly path. `tests/engines/biome/format_test.ts` holds the two
 * paths equal.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { type BiomeCommand, biomeCommand } from "./_bin.ts";
import { CHUNK_BYTES, inBiomeDir, key, type NativeOptions, nativeSafe, runBiome } from "./_native.ts";
import type { SourceFile } from "../types.ts";
import { declinedByBiome } from "./_limits.ts";

/** Bytes of file text copied per process (at most; UTF-16 length × 3 as the bound). */
const TEXT_BYTES = 64 * 1024 * 1024;

/**
 * Whether `path` names a biome configuration file (`biome.json`, `.biome.jsonc`, ...):
 * the native format path keeps those off its private copies, where a copy would be
 * read as configuration for the copies beside it.
 */
function isBiomeConfig(path: string): boolean {
  return /(^|[/\\])\.?biome\.jsonc?$/.test(path);
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
  if (isBiomeConfig(relPath) || declinedByBiome(relPath)) return undefined;
  return relPath;
}

/**
 * Formats `files` with biome's native command line under `config`; returns each
 * file's formatted text, or undefined for a file without a native result (see
 * the module doc).
 */
export async function formatNative(
  files: SourceFile[],
  config: Record<string, unknown>,
  options: NativeOptions = {},
): Promise<(string | undefined)[]> {
  const out: (string | undefined)[] = files.map(() => undefined);
  const command = options.command === undefined ? await biomeCommand() : options.command;
  if (!command || !nativeSafe(config)) return out;
  const seen = new Set<string>();
  const chosen: { i: number; place: string }[] = [];
  files.forEach((f, i) => {
    const place = placeOf(f.relPath);
    if (place === undefined || seen.has(place)) return;
    seen.add(place);
    chosen.push({ i, place });
  });
  if (chosen.length === 0) return out;
  await inBiomeDir("poly-biome-fmt-", config, async (dir) => {
    const encoder = new TextEncoder();
    const pathLimit = options.chunkBytes ?? CHUNK_BYTES;
    let chunk: typeof chosen = [];
    let pathBytes = 0;
    let textBytes = 0;
    let n = 0;
    const flush = async () => {
      if (chunk.length === 0) return;
      await formatChunk(command, dir, n++, chunk.map((c) => ({ place: c.place, text: files[c.i].text })), options)
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
 * Copies one chunk's texts under `dir/w<n>/`, formats them in one process,
 * reads the answered ones back and removes the copies; undefined for a file
 * without a native result.
 */
async function formatChunk(
  command: BiomeCommand,
  dir: string,
  n: number,
  items: { place: string; text: string }[],
  options: NativeOptions,
): Promise<(string | undefined)[]> {
  const root = `w${n}`;
  const out: (string | undefined)[] = items.map(() => undefined);
  const made = new Set<string>();
  const written: number[] = [];
  items.forEach((item, j) => {
    const path = join(dir, root, item.place);
    try {
      const parent = dirname(path);
      if (!made.has(parent)) {
        Deno.mkdirSync(parent, { recursive: true });
        made.add(parent);
      }
      Deno.writeTextFileSync(path, item.text);
      written.push(j);
    } catch {
      // a path the file system refuses (a name too long, a file where a folder must go): WebAssembly
    }
  });
  try {
    if (written.length === 0) return out;
    const paths = written.map((j) => `${root}/${items[j].place}`);
    const answered = await runChunk(command, dir, n, paths, options);
    written.forEach((j, k) => {
      if (!answered.has(key(paths[k]))) return;
      try {
        out[j] = Deno.readTextFileSync(join(dir, paths[k]));
      } catch {
        // vanished: WebAssembly
      }
    });
    return out;
  } finally {
    await Deno.remove(join(dir, root), { recursive: true }).catch(() => {});
  }
}

/** Runs one process over `paths` (relative to `dir`); returns the paths it formatted without a diagnostic. */
async function runChunk(
  command: BiomeCommand,
  dir: string,
  n: number,
  paths: string[],
  options: NativeOptions,
): Promise<Set<string>> {
  const run = await runBiome(command, dir, ["format", "--write"], paths, join(dir, `format-${n}.json`), options);
  if (!run) return new Set();
  const diagnosed = new Set(run.diagnostics.map((d) => key(d.location?.path ?? "")));
  // A diagnostic without a location may concern any file (a configuration problem): nothing is answered.
  if (diagnosed.has("")) return new Set();
  return new Set([...run.processed].filter((p) => !diagnosed.has(p)));
}
