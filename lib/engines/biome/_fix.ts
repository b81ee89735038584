/**
 * biome's native command line as the batch path of `poly lint --fix`
 * (`Biome.fixMany`), over private copies of the files' texts laid out as
 * `_copies.ts` says (each at its path below the configuration's directory,
 * beside a copy of its manifest's fields). One process per chunk:
 *
 * - `biome check --formatter-enabled=false --enforce-assist=false --write` in
 *   `w<n>/` over the copies: biome's safe fixes and the assist actions the
 *   configuration enables (organizeImports, unless the repository turns it off),
 *   what the WebAssembly path's `fixFile` applies (`safeFixes`), written into the
 *   copies; its JSON report holds the findings left in each fixed text;
 * - a file biome reads as the project's too (`package.json`, `tsconfig.json`:
 *   {@link projectFile}) is fixed in a folder of its own, so that it governs no
 *   other copy, as the WebAssembly path lints each file alone;
 * - the copies it changed are written back as they were and linted once more
 *   (`check` without `--write`, one process for them all): their findings before
 *   the fixes, which say how many issues the fixes removed, as the WebAssembly
 *   path counts them — all but those whose findings the caller knows (a check of
 *   the same text cached: `poly lint`, then `poly lint --fix`), none when it
 *   knows them all.
 *
 * A file gets a native result only when biome lists it as processed in both runs
 * it took part in and every finding in both is placed exactly in its text. Parse
 * errors are findings like the others, as on the lint path: the caller keeps a
 * file whose fixed text does not parse as it was (biome fixes a file that does
 * not parse, and a fix may break one that did), and a text as read that does not
 * parse is that syntax error, as `lint` throws it. Any other file without a
 * result, a diagnostic with no file or no category, a crash, unreadable output
 * leave that file `undefined`, and the caller fixes it on the WebAssembly path.
 * `tests/engines/biome/fix_test.ts` holds the two paths equal.
 *
 * @module
 */
import { join } from "node:path";
import { CHECK, findingsOf, type JsonDiagnostic, key, type NativeOptions, runBiome } from "./_native.ts";
import { type CopiesRun, type Copy, type FileCopy, onCopies } from "./_copies.ts";
import type { Finding } from "./_shared.ts";
import type { SourceFile } from "../types.ts";
import type { NativeEngineConfig } from "../../config/native/types.ts";
import { span } from "../../debug/timing.ts";

/**
 * biome's fix as `biome check --write` applies it without the formatter: lint's safe fixes and the assist actions the
 * configuration enables (`configuration(settings, "fix")`).
 */
const FIX = ["check", "--formatter-enabled=false", "--enforce-assist=false", "--write"];

/** A file's native fix: its text after biome's safe fixes, the findings left in it, and (when it changed) before. */
export interface NativeFix {
  text: string;
  after: Finding[];
  /** The findings in the text as it was: only when the fixes changed it, and the caller did not know them. */
  before?: Finding[];
}

/**
 * Applies biome's safe fixes to `files` with its native command line under `config` (whose globs are relative to
 * `root`, and whose files are read under `manifests[i]`, one per file: a monorepo's packages in one process, each below
 * its own manifest, as biome fixes them there); returns each file's {@link NativeFix}, or undefined for a file without
 * a native result (see the module doc). A file whose `known[i]` is true is not linted as it was (the caller knows its
 * findings): its fix has no `before`.
 */
export async function fixNative(
  files: SourceFile[],
  config: Record<string, unknown>,
  options: NativeOptions = {},
  root?: string,
  manifests: readonly (NativeEngineConfig | undefined)[] = [],
  known: readonly boolean[] = [],
): Promise<(NativeFix | undefined)[]> {
  return await onCopies(
    "poly-biome-fix-",
    files,
    config,
    options,
    root,
    files.map((_, i) => manifests[i]),
    (run, copies) => fixCopies(run, copies, options, known),
    projectFile,
  );
}

/**
 * Whether biome reads a file at `place` as its project's too (a `tsconfig.json`'s `jsx` turns on React's rules for
 * the `.tsx` files below it, a `package.json` is the manifest of the files below it): its copy goes in a folder of its
 * own, since the WebAssembly path lints each file alone, under the run's manifest only.
 */
export function projectFile(place: string): boolean {
  return /(?:^|\/)(?:package\.json|[jt]sconfig(?:\.[^/]*)?\.json)$/.test(place);
}

/**
 * Fixes one folder's copies in one process, then lints those it changed whose findings before are not `known`, as they
 * were, in another.
 */
async function fixCopies(
  { command, root, dir, n }: CopiesRun,
  copies: FileCopy[],
  options: NativeOptions,
  known: readonly boolean[],
): Promise<(NativeFix | undefined)[]> {
  const paths = copies.map((copy) => copy.place);
  const writing = span("biome fix write");
  const fixed = await findingsByPath(command, root, FIX, paths, join(dir, `fix-${n}.json`), options);
  writing();
  const out = copies.map((copy): NativeFix | undefined => {
    const raw = fixed.get(key(copy.place));
    if (!raw) return undefined;
    let text: string;
    try {
      text = Deno.readTextFileSync(join(root, copy.place));
    } catch {
      return undefined; // vanished: WebAssembly
    }
    const after = findingsOf(at(copy, text), raw);
    return after && { text, after };
  });
  const changed = copies.flatMap((copy, i) => out[i] && out[i].text !== copy.text && !known[copy.index] ? [i] : []);
  if (changed.length === 0) return out;
  try {
    for (const i of changed) Deno.writeTextFileSync(join(root, copies[i].place), copies[i].text);
  } catch {
    for (const i of changed) out[i] = undefined;
    return out;
  }
  const again = changed.map((i) => copies[i].place);
  const checking = span("biome fix before");
  const before = await findingsByPath(command, root, CHECK, again, join(dir, `before-${n}.json`), options);
  checking();
  for (const i of changed) {
    const raw = before.get(key(copies[i].place));
    const found = raw && findingsOf(at(copies[i], copies[i].text), raw);
    out[i] = found ? { ...out[i]!, before: found } : undefined;
  }
  return out;
}

/** A copy as a source file with `text` (findings are placed in it). */
function at(copy: Copy, text: string): SourceFile {
  return { path: copy.place, relPath: copy.place, language: "typescript", text };
}

/**
 * Runs one process in `dir` (which holds the configuration) over `paths` (relative to it): the diagnostics of each
 * path it processed, but those with a diagnostic of no category. Nothing when a diagnostic names no file (a
 * configuration problem).
 */
async function findingsByPath(
  command: CopiesRun["command"],
  dir: string,
  args: readonly string[],
  paths: string[],
  report: string,
  options: NativeOptions,
): Promise<Map<string, JsonDiagnostic[]>> {
  const out = new Map<string, JsonDiagnostic[]>();
  const run = await runBiome(command, dir, args, paths, report, options);
  if (!run || run.diagnostics.some((d) => !d.location)) return out;
  const ours = new Set(paths.map(key));
  for (const path of run.processed) if (ours.has(path)) out.set(path, []);
  const unknown = new Set<string>();
  for (const d of run.diagnostics) {
    const path = key(d.location!.path);
    if (d.category === undefined) unknown.add(path);
    out.get(path)?.push(d);
  }
  for (const path of unknown) out.delete(path);
  return out;
}
