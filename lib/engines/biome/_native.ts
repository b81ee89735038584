/**
 * biome's native command line as a batch linter: many files, one process
 * (chunked only to stay far under the command-line length limit), the files read
 * by biome from their own paths. It is the same biome version as the
 * WebAssembly module, and {@link lintNative} turns its output into the same
 * findings the module gives for the same text (see `_shared.ts`).
 *
 * One run:
 *
 * - a private temporary directory holds the generated `biome.json` (the
 *   configuration the WebAssembly path applies, plus `vcs.enabled = false`) and
 *   is the working directory, so no `biome.json` / `biome.jsonc`, `.gitignore`,
 *   `.editorconfig` or `package.json` of the user's project is read;
 * - `biome lint --config-path=<dir>/biome.json --max-diagnostics=none --verbose
 *   --reporter=summary --reporter=json --reporter-file=<dir>/report-<n>.json <paths>`:
 *   the JSON report has every diagnostic with its file, severity, category,
 *   message and start/end line and column; the verbose summary on stdout lists
 *   the files biome processed. The WebAssembly path also pulls assist actions
 *   (organizeImports), which poly's result leaves out (`_shared.ts`: `outcome`); `lint`
 *   runs none, so a file that suppresses one takes that path ({@link nativeFindings});
 * - biome's columns count Unicode scalar values and its lines also end at a lone
 *   `\r`: {@link toIndex} maps them back to string indices exactly.
 *
 * - with a manifest (the nearest `package.json`'s fields biome reads, which turn
 *   on biome's domain rules), the directory also holds `pkg<i>/package.json` with
 *   them and a link `pkg<i>/<top folder>` to each top folder of the files below the
 *   manifest's directory (and `pkg<i>/<name>` to each file at the top), so each file
 *   is `pkg<i>/<path below the manifest's directory>` (rules read that path: next's
 *   `app/`, `pages/`); biome lints those paths (its project layout then has that
 *   manifest for every file, as on the command line in the repository), and each
 *   path's result is its file's. One process lints the files of several manifests
 *   this way, one `pkg<i>` each, as biome lints a monorepo's packages. A file no
 *   rule reads a manifest for ({@link manifestFree}: JSON, CSS, GraphQL), and
 *   every file under a manifest biome reads as none ({@link manifestNeutral}), is
 *   named by its own path even then: each folder or link costs a file-system
 *   entry, and a monorepo has a `package.json` per package.
 *
 * A file gets a native result only when biome lists it as processed and every
 * finding for it carries a position. Anything else — a file biome ignored or
 * protected (`package-lock.json`, `node_modules/`), one over its size limit, an
 * unknown extension, a path the reports could not name unambiguously, a crash,
 * unreadable output, no `sh` (or `node` on Windows) — leaves that file `undefined`, and the caller
 * lints it on the WebAssembly path. Nothing is ever reported clean for want of
 * a result.
 *
 * @module
 */
import pLimit from "p-limit";
import { basename, join, sep } from "node:path";
import { runExecutable } from "../host.ts";
import { ARGS_BUDGET } from "../batch.ts";
import { lineStarts } from "../text.ts";
import { type BiomeCommand, biomeCommand } from "./_bin.ts";
import type { Finding } from "./_shared.ts";
import type { NativeEngineConfig } from "../../config/native/types.ts";
import type { SourceFile } from "../types.ts";
import { makeTempDir, removeTemp } from "../../fs/temp.ts";
import { declinedByBiome } from "./_limits.ts";
import { readBytesSync } from "../../fs/read_bytes.ts";

/** Bytes of path arguments per process: far under every platform's command-line limit (the batch engines' budget). */
export const CHUNK_BYTES = ARGS_BUDGET;

/** One diagnostic of biome's JSON reporter (2.5). */
export interface JsonDiagnostic {
  severity: string;
  message: string;
  category?: string;
  location?: { path: string; start: { line: number; column: number }; end: { line: number; column: number } };
}

/** Options for {@link lintNative} and `formatNative` (tests use them to see what happened). */
export interface NativeOptions {
  /** Overrides the command (tests: a missing program, a crashing one). */
  command?: BiomeCommand | null;
  /** Bytes of path arguments per process (tests: force several chunks). */
  chunkBytes?: number;
  /** Called with each process's exit code and how many files it processed. */
  onRun?: (info: { code: number; files: number; processed: number }) => void;
  /** Called once a process has been started (each chunk's). */
  onSpawn?: () => void;
  /** Called when a process waits for one of the {@link MAX_PROCESSES} running to end before it starts. */
  onQueued?: () => void;
  /** Called with how many entries (folders, manifest copies, links) a run made in its private folder. */
  onEntries?: (made: number) => void;
}

/**
 * biome processes one poly process runs at once, across runs and configurations (a monorepo whose packages each
 * carry a biome configuration of their own is a batch per package; one configuration's packages share a process,
 * `Biome.startLintGroups`). Each process uses every core itself (a thread per core), so a few overlap one another's
 * start and end, and more only share the cores: on 2 cores vite's packages over eight processes took 5–7% more CPU
 * than over three (cold `poly lint`, biome only, 0.913× and 0.975× wall over 7 and 11 pairs), and over three 5–9% more
 * than in one (docs/performance.md).
 */
export const MAX_PROCESSES = 3;

/** The slots of {@link MAX_PROCESSES}: every biome process starts in one. */
const processes = pLimit(MAX_PROCESSES);

/**
 * biome's line starts, as string indices: a line ends at `\n`, at `\r\n`, and at
 * a lone `\r` (biome's `LineIndexBuf::from_source_text`).
 */
export function biomeLineStarts(text: string): number[] {
  // Without a `\r`, only `\n` ends a line: found by `indexOf`, not character by character.
  if (!text.includes("\r")) return lineStarts(text);
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return starts;
}

/**
 * The string index of biome's 1-based line and column (the column counts
 * Unicode scalar values from the line start), or undefined when the position is
 * not inside the text.
 */
export function toIndex(text: string, starts: number[], line: number, column: number): number | undefined {
  if (line < 1 || line > starts.length || column < 1) return undefined;
  let index = starts[line - 1];
  const end = line < starts.length ? starts[line] : text.length;
  for (let n = 1; n < column; n++) {
    if (index >= end) return undefined;
    index += text.codePointAt(index)! > 0xffff ? 2 : 1;
  }
  return index;
}

/**
 * A file the command line can lint as the WebAssembly path does: an absolute path
 * biome's two reports can both carry verbatim (no quotes, control characters, or
 * backslashes other than Windows separators). A biome configuration file is one:
 * named on the command line (or through a link) it is linted as a file like any
 * other, never read as configuration (that is `--config-path` alone), and the
 * command line's `$schema` check is the one the WebAssembly path's findings are
 * brought to (`_shared.ts`).
 */
function eligible(path: string): boolean {
  // deno-lint-ignore no-control-regex
  const awkward = Deno.build.os === "windows" ? /["\x00-\x1f\x7f]/ : /["\\\x00-\x1f\x7f]/;
  return !awkward.test(path) && (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path));
}

/**
 * Whether biome's rules for `path` never read a manifest: JSON (a `package.json` included: its rules read the file
 * itself), CSS and GraphQL. The manifest's dependencies turn on domains of JavaScript rules, and its `type` decides
 * what a `.js` file is; anything that can hold a script (`.html`, `.vue`, `.svelte`, `.astro`) is not one of these.
 */
export function manifestFree(path: string): boolean {
  return /\.(json|jsonc|css|graphql|gql)$/i.test(path);
}

/**
 * The dependencies whose names biome looks up in a manifest, beyond `noUndeclaredDependencies`: those that turn on a
 * domain's rules (`react` the react domain's, `vitest` the test domain's, ...: biome's `RuleDomain`'s
 * `manifest_dependencies`, as `biome explain` lists them for each rule; tests/engines/biome/domains_test.ts checks this
 * list against the binary), React's version (read by React rules), and Node's builtin modules as packages
 * (`noNodejsModules` and `useNodejsImportProtocol` leave an import of `buffer` alone when `buffer` is a dependency;
 * biome's list of builtins is is-core-module's).
 */
export const DOMAIN_DEPENDENCIES: ReadonlySet<string> = new Set([
  "@builder.io/qwik",
  "@playwright/test",
  "@qwik.dev/core",
  "astro",
  "ava",
  "drizzle-orm",
  "jest",
  "mocha",
  "next",
  "react",
  "react-native",
  "solid",
  "svelte",
  "tailwindcss",
  "turbo",
  "vitest",
  "vue",
]);

/**
 * The names in is-core-module's `core.json` (every builtin of every Node version, with and without `node:`): the list
 * biome's own is taken from. Undefined when it cannot be read: then every dependency counts.
 */
let nodeBuiltins: Set<string> | undefined | null = null;

function builtins(): Set<string> | undefined {
  if (nodeBuiltins === null) {
    try {
      const core = new URL("core.json", import.meta.resolve("is-core-module/package.json"));
      nodeBuiltins = new Set(Object.keys(JSON.parse(Deno.readTextFileSync(core))));
    } catch {
      nodeBuiltins = undefined;
    }
  }
  return nodeBuiltins;
}

/** Whether biome reads anything of a dependency named `name` (see {@link DOMAIN_DEPENDENCIES}). */
function readsDependency(name: string): boolean {
  const known = builtins();
  return DOMAIN_DEPENDENCIES.has(name) || !known || known.has(name);
}

/** The names the manifest's dependency field `key` lists (a map; `bundleDependencies` a list), if it is one. */
function dependencyNames(key: string, value: unknown): string[] | undefined {
  if (key.startsWith("bundle")) {
    if (typeof value === "boolean") return []; // `bundleDependencies: true`: no list
    if (Array.isArray(value)) return value.every((v) => typeof v === "string") ? value : undefined;
  }
  return value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : undefined;
}

/**
 * Whether biome lints under `manifest` as under none, with `config`: it lists no dependency biome looks up (one that
 * would turn on a domain, or be one for `useNodejsImportProtocol`, `noNodejsModules` and the React rules: see
 * {@link DOMAIN_DEPENDENCIES}), it makes `.js` files modules (`"type": "module"` or no type, as without a manifest),
 * and no rule names the manifest in its message (`noUndeclaredDependencies`, which says where it looked, and reads
 * every dependency, is not turned on). A vite-like monorepo has hundreds of such `package.json`s; their files are named
 * by their own paths rather than through links.
 */
export function manifestNeutral(
  manifest: NativeEngineConfig,
  config: Record<string, unknown>,
  named = namesManifest(config),
): boolean {
  if (named) return false;
  for (const [k, v] of Object.entries(manifest.options)) {
    if (k === "name") continue; // read by noUndeclaredDependencies alone
    // A field biome could not read as a list (malformed) is not judged here: biome gets the manifest.
    if (k === "type" ? v !== "module" : dependencyNames(k, v)?.some(readsDependency) ?? true) return false;
  }
  return true;
}

/**
 * Whether `config` may turn on `noUndeclaredDependencies` (named anywhere, or its whole group turned on), whose
 * message names the manifest: asked once per configuration, not once per package ({@link manifestNeutral}).
 */
function namesManifest(config: Record<string, unknown>): boolean {
  const rules = (config.linter as { rules?: Record<string, unknown> } | undefined)?.rules;
  const correctness = rules?.correctness;
  if (correctness !== undefined && (correctness === null || typeof correctness !== "object")) return true;
  return JSON.stringify(config).includes('"noUndeclaredDependencies"');
}

/**
 * Whether the command line applies a configuration exactly as the WebAssembly
 * path does: no file sets (`files` but its pathless settings), ignore lists,
 * overrides, extended or plugin files (their paths are relative to the
 * configuration's directory, a private one here), and no per-language assist
 * switches (the command line's `--assist-enabled` stands in for the WebAssembly
 * path pulling assist diagnostics regardless of the top-level switch).
 */
export function nativeSafe(config: Record<string, unknown>): boolean {
  return withoutKeys(
    config,
    ["vcs", "overrides", "extends", "plugins", "root"],
    ["includes", "include", "ignore", "overrides", "extends", "plugins"],
  );
}

/**
 * Whether the command line applies a configuration that is not {@link nativeSafe}
 * exactly as the WebAssembly path does once each file is linted at its own path
 * below the configuration's directory ({@link mirrored}): its only paths are
 * globs (`overrides`, `includes`), which then match as in the repository. File
 * sets, extended or plugin files, `root` and assist switches below the top level
 * (a language's, an override's) still go to the WebAssembly path.
 */
export function mirrorSafe(config: Record<string, unknown>): boolean {
  return withoutKeys(config, ["vcs", "extends", "plugins", "root"], ["ignore", "extends", "plugins"]);
}

/**
 * What {@link nativeSafe} and {@link mirrorSafe} check: `files` names no path, no key of `top` is at the top level,
 * none of `anywhere` at any depth (rule options aside), and no assist switch is below the top level.
 */
function withoutKeys(config: Record<string, unknown>, top: readonly string[], anywhere: readonly string[]): boolean {
  if (!pathlessFiles(config) || top.some((k) => k in config)) return false;
  const walk = (value: unknown, path: string): boolean => {
    if (path === "linter.rules" || value === null || typeof value !== "object") return true;
    for (const [k, v] of Object.entries(value)) {
      if (anywhere.includes(k)) return false;
      if (k === "assist" && path !== "") return false;
      if (!walk(v, path ? `${path}.${k}` : k)) return false;
    }
    return true;
  };
  return walk(config, "");
}

/**
 * `files` settings that name no path, which the command line applies as the WebAssembly path does: a file over
 * `maxSize` is one biome does not process (the WebAssembly path then refuses it: `refusedByBiome`, `_limits.ts`),
 * and poly hands biome no file of a kind it does not know. poly evaluates `files.includes` itself
 * (lib/config/native/biome.ts).
 */
const PATHLESS_FILES = new Set(["maxSize", "ignoreUnknown"]);

function pathlessFiles(config: Record<string, unknown>): boolean {
  const files = config.files;
  if (files === undefined) return true;
  return typeof files === "object" && files !== null && !Array.isArray(files) &&
    Object.keys(files).every((k) => PATHLESS_FILES.has(k));
}

/** Names the private directory holds itself: a file of the repository's root by one of them is not linked over it. */
const PRIVATE_NAMES = /^(biome\.json|report-\d+\.json)$/;

/**
 * Lays out the private directory `dir` as a mirror of `root` (the configuration's
 * directory) for a configuration whose globs are relative to it: each file is
 * linted at its own path below `root`. The folders that hold a manifest biome
 * should read (and the folders above them) are real, each manifest's with a copy
 * of the repository's `package.json` (linted itself as that copy: the same bytes
 * at the same path), as in the package layout; below them, the first folder on
 * a file's way that is not real is a link to the repository's (or the file
 * itself, at a real folder's level). Throws for a manifest outside `root` (the caller
 * then leaves every file to the WebAssembly path). Left to the WebAssembly path: a
 * file outside `root`, a `biome.json(c)` in a real folder below the root (biome would
 * read it as a nested configuration) and a root file named like one of the directory's
 * own (`biome.json`, the reports; a root `biome.jsonc` beside it is linted as a file, as
 * `--config-path` names the configuration). Returns how many entries it made.
 */
function mirrored(
  dir: string,
  root: string,
  chosen: readonly { paths: readonly string[]; manifest?: NativeEngineConfig }[],
  alias: Map<string, string>,
  args: string[],
): number {
  const base = root.endsWith(sep) ? root : root + sep;
  const below = (path: string) => path.startsWith(base) ? path.slice(base.length).split(sep).join("/") : undefined;
  const parent = (rel: string) => rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "";
  const real = new Set<string>([""]);
  /** Each real folder's manifest: the repository's file, copied whole (biome reads the fields it reads there). */
  const copies = new Map<string, string>();
  for (const { manifest } of chosen) {
    if (!manifest) continue;
    const at = manifest.root === root ? "" : below(manifest.root);
    // A manifest above the configuration's directory has no place in its mirror: the WebAssembly path lints these.
    if (at === undefined) throw new Error(`${manifest.root} is outside ${root}`);
    copies.set(at, manifest.files[0].path);
    for (let d = at; d !== ""; d = parent(d)) real.add(d);
  }
  let made = 0;
  for (const folder of [...real].sort()) {
    if (folder === "") continue;
    Deno.mkdirSync(join(dir, folder));
    made++;
  }
  for (const [folder, original] of copies) {
    Deno.copyFileSync(original, join(dir, folder, "package.json"));
    made++;
  }
  const linked = new Set<string>();
  for (const { paths } of chosen) {
    for (const path of paths) {
      const rel = below(path);
      if (rel === undefined) continue;
      const folder = parent(rel);
      const name = rel.slice(folder.length && folder.length + 1);
      if (folder !== "" && real.has(folder) && /^biome\.jsonc?$/.test(name)) continue;
      if (folder === "" && PRIVATE_NAMES.test(name)) continue;
      // A manifest is linted as its copy (the same bytes at the same path); any other file through the first
      // entry on its way that is not a real folder: a link (once) to the repository's.
      let at = "";
      for (const part of copies.get(folder) === path ? [] : rel.split("/")) {
        at = at ? `${at}/${part}` : part;
        if (real.has(at)) continue;
        if (!linked.has(at)) {
          linked.add(at);
          Deno.symlinkSync(join(root, at), join(dir, at), at === rel ? undefined : { type: "dir" });
          made++;
        }
        break;
      }
      alias.set(rel, key(path));
      args.push(rel);
    }
  }
  return made;
}

/** The normalised form used to match report paths with inputs (forward slashes). */
export function key(path: string): string {
  return Deno.build.os === "windows" ? path.replace(/\\/g, "/") : path;
}

/** The paths listed under "Files processed:" in the verbose summary reporter's output. */
export function processedFiles(stdout: string): Set<string> {
  const out = new Set<string>();
  const lines = stdout.split(/\r?\n/);
  const at = lines.findIndex((l) => /^\s*i Files processed:\s*$/.test(l));
  if (at < 0) return out;
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === "") continue;
    const m = /^ {2}- (.+)$/.exec(line);
    if (!m) break;
    out.add(key(m[1]));
  }
  return out;
}

/**
 * Parses the JSON reporter's output. biome escapes `\n`, `\r`, `\t`, `\b`, `\f`,
 * quotes and backslashes in messages but writes other control characters raw;
 * in its compact output those can only stand inside strings, so they are escaped
 * before parsing.
 */
export function parseReport(json: string): JsonDiagnostic[] {
  // deno-lint-ignore no-control-regex
  const safe = json.trim().replace(/[\x00-\x1f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const doc = JSON.parse(safe) as { diagnostics?: JsonDiagnostic[] };
  if (!Array.isArray(doc.diagnostics)) throw new Error("no diagnostics array");
  return doc.diagnostics;
}

/** The findings of one processed file, or undefined when one of them cannot be placed exactly. */
export function findingsOf(file: SourceFile, raw: JsonDiagnostic[]): Finding[] | undefined {
  let starts: number[] | undefined;
  const out: Finding[] = [];
  for (const d of raw) {
    const loc = d.location!;
    if (loc.start.line === 0) return undefined; // no span in the report: the WebAssembly path knows better
    starts ??= biomeLineStarts(file.text);
    const a = toIndex(file.text, starts, loc.start.line, loc.start.column);
    const b = toIndex(file.text, starts, loc.end.line, loc.end.column);
    if (a === undefined || b === undefined || b < a) return undefined;
    out.push({
      ...(d.category !== undefined ? { category: d.category } : {}),
      severity: d.severity === "info" ? "information" : d.severity,
      description: d.message,
      range: [a, b],
    });
  }
  return out;
}

/**
 * biome's lint with its assist actions: `check` without the formatter is `lint` plus assist actions, as the
 * WebAssembly path pulls assist diagnostics (organizeImports) whatever `assist.enabled` says. A fix counts what it
 * fixed against this (`_fix.ts`).
 */
export const CHECK: readonly string[] = [
  "check",
  "--formatter-enabled=false",
  "--assist-enabled=true",
  "--enforce-assist=false",
];

/** What a native lint run found: for each path biome processed (by {@link key}), its report's diagnostics. */
export type NativeLint = Map<string, JsonDiagnostic[]>;

/** What one process of biome's command line processed and reported. */
export interface BiomeRun {
  /** The paths listed as processed (by {@link key}). */
  processed: Set<string>;
  diagnostics: JsonDiagnostic[];
}

/**
 * Runs biome's command line once in `dir` (which holds the generated
 * `biome.json`): `command` (the subcommand and its own flags) over `paths`, with
 * the verbose summary on stdout and the JSON report in `report`. Undefined when
 * it could not start or left no readable report; `options.onRun` hears of it.
 * At most {@link MAX_PROCESSES} run at once; the rest wait their turn
 * (`options.onQueued` hears of the wait).
 */
export async function runBiome(
  binary: BiomeCommand,
  dir: string,
  command: readonly string[],
  paths: string[],
  report: string,
  options: NativeOptions,
): Promise<BiomeRun | undefined> {
  const args = [
    ...command,
    `--config-path=${join(dir, "biome.json")}`,
    "--colors=off",
    "--max-diagnostics=none",
    "--diagnostic-level=info",
    "--no-errors-on-unmatched",
    "--log-level=none",
    "--verbose",
    "--reporter=summary",
    "--reporter=json",
    `--reporter-file=${report}`,
    "--",
    ...paths,
  ];
  // The slot is held until the report is read: `onRun` is heard before another process starts in it.
  const done = processes(async (): Promise<BiomeRun | undefined> => {
    let run;
    try {
      const running = runExecutable({ path: binary.binary, launcher: binary.script }, args, {
        cwd: dir,
        env: { ...binary.env, NO_COLOR: "1", BIOME_LOG_LEVEL: "none" },
      });
      options.onSpawn?.();
      run = await running;
    } catch {
      return undefined; // no sh (node on Windows), or not allowed to run it
    }
    let diagnostics: JsonDiagnostic[];
    try {
      diagnostics = parseReport(new TextDecoder().decode(readBytesSync(report)));
    } catch {
      options.onRun?.({ code: run.code, files: paths.length, processed: 0 });
      return undefined; // crashed or wrote no report
    }
    const processed = processedFiles(run.stdout);
    options.onRun?.({ code: run.code, files: paths.length, processed: processed.size });
    return { processed, diagnostics };
  });
  if (processes.pendingCount > 0) options.onQueued?.(); // behind others: it starts when one of them ends
  return await done;
}

async function runChunk(
  command: BiomeCommand,
  dir: string,
  n: number,
  paths: string[],
  options: NativeOptions,
  alias: Map<string, string>,
): Promise<NativeLint> {
  const out: NativeLint = new Map();
  // `lint`, not `check`: the assist actions `check` adds cost ~10% of biome's time (hono), and poly reports none.
  const run = await runBiome(command, dir, ["lint"], paths, join(dir, `report-${n}.json`), options);
  if (!run) return out;
  const original = (path: string) => alias.get(path) ?? path;
  const ours = new Set(paths.map(key));
  for (const path of run.processed) if (ours.has(path)) out.set(original(path), []);
  for (const d of run.diagnostics) {
    // Not one of ours (a configuration message): then nothing is processed either.
    if (d.location) out.get(original(key(d.location.path)))?.push(d);
  }
  return out;
}

/** Files one native process lints under one manifest (the nearest `package.json`'s fields), or under none. */
export interface NativePackage {
  /** Absolute paths; their bytes are what the findings will be placed in. */
  paths: readonly string[];
  manifest?: NativeEngineConfig;
}

/**
 * Runs biome's native command line under `config` over the files of `packages`,
 * each package's files with its manifest (see the module doc): package `i`'s
 * manifest is `pkg<i>/package.json` in the private directory and its files are
 * linted through links below it, so one process lints many packages as biome
 * lints a monorepo, each file with its nearest manifest. A configuration whose
 * paths are globs ({@link mirrorSafe}) is applied below a mirror of `root`, its
 * directory, instead ({@link mirrored}). Starts nothing when the command line is
 * missing, or the configuration has other paths, or globs and no `root`; a path
 * it cannot take, or gives no result for, is simply absent from the answer.
 */
export async function runNativeLint(
  packages: readonly NativePackage[],
  config: Record<string, unknown>,
  options: NativeOptions = {},
  root?: string,
): Promise<NativeLint> {
  const out: NativeLint = new Map();
  const command = options.command === undefined ? await biomeCommand() : options.command;
  // Globs relative to the configuration's directory: its files are linted at their paths below it ({@link mirrored}).
  const mirror = !nativeSafe(config);
  if (!command || (mirror && (root === undefined || !mirrorSafe(config)))) return out;
  // Each path once; odd paths stay on the WebAssembly path.
  const seen = new Set<string>();
  const chosen = packages.map(({ paths, manifest }) => ({
    manifest,
    paths: paths.filter((path) => {
      if (!eligible(path) || seen.has(path)) return false;
      seen.add(path);
      return true;
    }),
  }));
  if (seen.size === 0) return out;
  await inBiomeDir("poly-biome-", config, async (dir) => {
    // With a manifest, biome lints links in a package directory holding it (see the module doc).
    const alias = new Map<string, string>();
    const args: string[] = [];
    let made = 0;
    const named = namesManifest(config);
    try {
      if (mirror) made += mirrored(dir, root!, chosen, alias, args);
      else {
        for (const [p, { paths, manifest }] of chosen.entries()) {
          if (!manifest || manifestNeutral(manifest, config, named)) {
            args.push(...paths);
            continue;
          }
          // A file whose rules never read a manifest is named by its own path: no link to make for it.
          const throughLinks = paths.filter((path) => !manifestFree(path));
          args.push(...paths.filter(manifestFree));
          if (throughLinks.length === 0) continue;
          const pkg = `pkg${p}`;
          await Deno.mkdir(join(dir, pkg));
          await Deno.writeTextFile(join(dir, pkg, "package.json"), JSON.stringify(manifest.options));
          made += 2;
          const root = manifest.root.endsWith(sep) ? manifest.root : manifest.root + sep;
          // One link per top-level folder (and per file at the top): links spread over a package's
          // folders cost ~0.5 ms each on ext4, ~0.2-0.4 s for a 400-file package, before biome starts.
          // biome lints the paths it is given through them and does not walk into them.
          const linked = new Set<string>();
          for (const [i, path] of throughLinks.entries()) {
            // The path below the manifest's directory, kept: rules read it (next's `app/`, `pages/`).
            const below = path.startsWith(root) ? path.slice(root.length).split(sep).join("/") : undefined;
            let link: string;
            if (below === undefined || below === "package.json") {
              // Outside it, or the manifest itself: a folder of its own (not over the manifest's copy).
              link = `${pkg}/.poly-${i}/${basename(path)}`;
              Deno.mkdirSync(join(dir, pkg, `.poly-${i}`));
              Deno.symlinkSync(path, join(dir, link));
              made += 2;
            } else {
              link = `${pkg}/${below}`;
              const slash = below.indexOf("/");
              const top = slash < 0 ? below : below.slice(0, slash);
              if (!linked.has(top)) {
                linked.add(top);
                Deno.symlinkSync(join(root, top), join(dir, pkg, top), slash < 0 ? undefined : { type: "dir" });
                made++;
              }
            }
            alias.set(link, key(path));
            args.push(link);
          }
        }
      }
    } catch {
      return; // no links (a platform without them): the WebAssembly path lints these files
    }
    options.onEntries?.(made);
    const limit = options.chunkBytes ?? CHUNK_BYTES;
    let chunk: string[] = [];
    let bytes = 0;
    let n = 0;
    const flush = async () => {
      if (chunk.length === 0) return;
      for (const [path, found] of await runChunk(command, dir, n++, chunk, options, alias)) out.set(path, found);
      chunk = [];
      bytes = 0;
    };
    const encoder = new TextEncoder();
    for (const path of args) {
      const size = encoder.encode(path).length + 1;
      if (bytes + size > limit) await flush();
      chunk.push(path);
      bytes += size;
    }
    await flush();
  });
  return out;
}

/**
 * Runs `fn` in a new private temporary directory holding `config` as its
 * `biome.json` (with `vcs.enabled = false`), then removes the directory. Does
 * nothing when the directory cannot be made or written.
 */
export async function inBiomeDir(
  prefix: string,
  config: Record<string, unknown>,
  fn: (dir: string) => Promise<void>,
): Promise<void> {
  let dir: string;
  try {
    dir = await makeTempDir(prefix);
    await Deno.writeTextFile(join(dir, "biome.json"), JSON.stringify({ ...config, vcs: { enabled: false } }));
  } catch {
    return;
  }
  try {
    await fn(dir);
  } finally {
    await removeTemp(dir);
  }
}

/** A suppression comment naming an assist action (`// biome-ignore assist/source/organizeImports: ...`). */
const ASSIST_SUPPRESSION = /biome-ignore(?:-all|-start|-end)?\s+assist\b/;

/**
 * Each file's findings from a native run, or undefined where it has none. A
 * path named twice gets the run's result once more only with the same text.
 */
export function nativeFindings(run: NativeLint, files: readonly SourceFile[]): (Finding[] | undefined)[] {
  const first = new Map<string, SourceFile>();
  return files.map((f) => {
    const raw = run.get(key(f.path));
    // Named on its command line, biome lints what its walk never would: the WebAssembly path refuses it. Without the
    // assist actions, `lint` calls a comment suppressing one unused: the WebAssembly path runs them.
    if (!raw || declinedByBiome(f.relPath) || ASSIST_SUPPRESSION.test(f.text)) return undefined;
    const earlier = first.get(key(f.path));
    if (earlier && earlier.text !== f.text) return undefined;
    first.set(key(f.path), f);
    return findingsOf(f, raw);
  });
}

/**
 * Lints `files` (each `text` equal to the bytes at its `path`) with biome's
 * native command line under `config`; returns each file's findings, or
 * undefined for a file without a native result (see the module doc).
 */
export async function lintNative(
  files: SourceFile[],
  config: Record<string, unknown>,
  options: NativeOptions = {},
  manifest?: NativeEngineConfig,
  root?: string,
): Promise<(Finding[] | undefined)[]> {
  return nativeFindings(
    await runNativeLint([{ paths: files.map((f) => f.path), manifest }], config, options, root),
    files,
  );
}
