/**
 * biome's native command line as the batch path of formatting
 * (`Biome.formatMany`: check runs and `poly fmt --fix` alike), over private
 * copies of the files' texts laid out as `_copies.ts` says (each at its path
 * below the configuration's directory, beside the manifest whose
 * `"type": "commonjs"` makes `.js` files scripts — format settings carry one only
 * then). One process per chunk:
 *
 * - `biome format --write --config-path=w<n>/biome.json --verbose
 *   --reporter=summary --reporter=json --reporter-file=<dir>/format-<n>.json <paths>`
 *   in `w<n>/` (started as in `_native.ts`);
 * - a file gets a native result when biome lists it as processed and reports
 *   no diagnostic for it (its result is the copy's text afterwards), or when
 *   every diagnostic biome reports for it is a parse error placed in its text
 *   (with the one saying formatting was aborted): its result is then the same
 *   syntax error the WebAssembly path gives, each error at its line and column.
 *
 * Anything else — a file without a place among the copies (`_copies.ts`), a
 * crash, unreadable output — leaves that file `undefined`, and the caller
 * formats it on the WebAssembly path. `tests/engines/biome/format_test.ts` holds
 * the two paths equal.
 *
 * @module
 */
import { join } from "node:path";
import { findingsOf, type JsonDiagnostic, key, type NativeOptions, runBiome } from "./_native.ts";
import { type CopiesRun, type Copy, onCopies } from "./_copies.ts";
import { syntaxError } from "./_shared.ts";
import type { SourceFile, SourceSyntaxError } from "../types.ts";
import type { NativeEngineConfig } from "../../config/native/types.ts";

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
  return await onCopies(
    "poly-biome-fmt-",
    files,
    config,
    options,
    root,
    files.map(() => manifest),
    (run, copies) => formatCopies(run, copies, options),
  );
}

/** Formats one folder's copies in one process and reads the answered ones back (or makes their parse errors). */
async function formatCopies(
  { command, root, dir, n }: CopiesRun,
  copies: Copy[],
  options: NativeOptions,
): Promise<(NativeFormat | undefined)[]> {
  const paths = copies.map((copy) => copy.place);
  const { answered, unparsed } = await runChunk(command, root, join(dir, `format-${n}.json`), paths, options);
  return copies.map((copy) => {
    const errors = unparsed.get(key(copy.place));
    if (errors) return parseErrors(copy, errors);
    if (!answered.has(key(copy.place))) return undefined;
    try {
      return Deno.readTextFileSync(join(root, copy.place));
    } catch {
      return undefined; // vanished: WebAssembly
    }
  });
}

/**
 * Runs one process in `dir` (which holds the configuration) over `paths` (relative to it), its report in `report`:
 * the paths it formatted without a diagnostic, and those whose every diagnostic is a parse error (with the one saying
 * formatting was aborted), with them.
 */
async function runChunk(
  command: CopiesRun["command"],
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
function parseErrors(item: Copy, errors: JsonDiagnostic[]): SourceSyntaxError | undefined {
  const file: SourceFile = { path: item.place, relPath: item.place, language: "typescript", text: item.text };
  const findings = findingsOf(file, errors);
  return findings && syntaxError(item.text, findings);
}
