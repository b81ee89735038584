/**
 * Engine identities: for every in-process or bundled engine, the upstream version
 * it wraps and a SHA-256 digest of the module bytes it runs — the
 * `poly.engines` map of every report. Host tools (rustfmt, shellcheck, go, ...)
 * are not digested: {@link hostTools} lists them as found (with version and path)
 * or missing.
 *
 * Hashing the engines' ~110 MB of modules and WebAssembly takes ~0.1 s, so each file's digest is remembered
 * on disk in `<cache home>/identity/sha256.json`, keyed by the file's path, size
 * and mtime; an engine's digest is SHA-256 over its files' digests, in order.
 * Finding an engine's files (resolving npm packages, loading the ast-grep parser
 * packages) costs ~50 ms over all engines, so the lists are remembered too, in
 * `<cache home>/identity/modules.json`, for as long as poly's code stamp (its
 * source files and lockfile, or its executable) stays the same.
 *
 * @example
 * ```ts
 * const engines = await engineIdentities(); // { gofmt: { version: "@wasm-fmt/gofmt 0.7.3", digest: "…" }, … }
 * const tools = await hostTools(); // [{ name: "shellcheck", found: true, version: "0.9.0", path: "/usr/bin/shellcheck" }, …]
 * ```
 *
 * @module
 */
import { join } from "node:path";
import { ENGINES } from "../engines/registry.ts";
import type { EngineSpec } from "../engines/types.ts";
import { askVersion, hostVersion } from "../engines/host.ts";
import { findExecutable, isIndirect } from "../fs/executable.ts";
import { refuseOpenLogs } from "../fs/read_log.ts";
import { cacheHome } from "../paths/mod.ts";
import { digestOf } from "../cache/digest.ts";
import {
  digestMemoChanged,
  type DigestMemoEntry,
  fileDigests,
  readDigestMemo,
  saveDigestMemo,
  saveIdentityMemo,
} from "./digests.ts";
import { compareText } from "../report/sort.ts";
import { context as scriptContext, pythonScript, sysPath } from "./python_script.ts";

/** One engine's identity. */
export interface EngineIdentity {
  version: string;
  digest: string;
}

/** One host tool as found on this machine. */
export interface HostTool {
  name: string;
  found: boolean;
  version?: string;
  path?: string;
  /** Engine ids or whole-project jobs that use it. */
  used_by: string[];
}

/** The engines' module lists changed in memory and are not written yet (see {@link saveMemos}). */
let modulesDirty = false;

/** Writes the memos that changed: once per {@link engineIdentities}, not once per engine. */
async function saveMemos(): Promise<void> {
  await saveDigestMemo();
  if (modulesDirty && modulesMemo) {
    modulesDirty = false;
    await saveIdentityMemo(modulesMemo.path, modulesMemo.memo);
  }
}

/** Path of the on-disk memo of each engine's module files. */
export function modulesMemoPath(): string {
  return join(cacheHome(), "identity", "modules.json");
}

interface ModulesMemo {
  /** The code identity (`codeIdentity()`, over the code stamp) the lists were found under. */
  stamp: string;
  /** `id\0upstream` → the engine's module URLs. */
  engines: Record<string, string[]>;
}

let modulesMemo: { path: string; stamp: string; memo: ModulesMemo } | undefined;

async function readModulesMemo(): Promise<{ path: string; stamp: string; memo: ModulesMemo }> {
  const path = modulesMemoPath();
  if (modulesMemo?.path === path) return modulesMemo;
  const { codeIdentity } = await import("../cache/build.ts");
  const stamp = await codeIdentity();
  let memo: ModulesMemo = { stamp, engines: {} };
  try {
    const value = JSON.parse(Deno.readTextFileSync(path)) as ModulesMemo;
    if (value?.stamp === stamp && value.engines && typeof value.engines === "object") memo = value;
  } catch { /* absent or damaged: find them again */ }
  modulesMemo = { path, stamp, memo };
  return modulesMemo;
}

/**
 * An engine's module URLs (`spec.moduleUrls()`), remembered on disk under the
 * code stamp. A remembered file that is gone sends {@link fileDigests} back here.
 */
async function moduleUrlsOf(spec: EngineSpec, fresh = false): Promise<string[]> {
  const { memo } = await readModulesMemo();
  const key = `${spec.id}\0${spec.upstream}`;
  const known = memo.engines[key];
  if (known && !fresh) return known;
  const urls = await spec.moduleUrls();
  memo.engines[key] = urls;
  modulesDirty = true;
  return urls;
}

/**
 * The identity of one engine (its module files hashed). `save: false` leaves
 * writing the memos to the caller ({@link saveMemos}).
 */
export async function engineIdentity(spec: EngineSpec, save = true): Promise<EngineIdentity> {
  let digests: string[];
  try {
    digests = await fileDigests(await moduleUrlsOf(spec), false);
  } catch {
    // A remembered file is gone (node_modules/ reinstalled elsewhere?): find the files again.
    digests = await fileDigests(await moduleUrlsOf(spec, true), false);
  }
  if (save) await saveMemos();
  return { version: spec.upstream, digest: digestOf(digests.join("\n")) };
}

let memo: Promise<Record<string, EngineIdentity>> | undefined;

/** Engine id → {version, digest} for every non-host engine, sorted by id. Computed once per process. */
export function engineIdentities(): Promise<Record<string, EngineIdentity>> {
  memo ??= (async () => {
    const out: Record<string, EngineIdentity> = {};
    const specs = ENGINES.filter((s) => s.tier !== "host").sort((a, b) => compareText(a.id, b.id));
    for (const spec of specs) out[spec.id] = await engineIdentity(spec, false);
    await saveMemos();
    return out;
  })();
  memo.catch(() => (memo = undefined));
  return memo;
}

/** Host programs poly may run, with how to ask each for its version, and who uses it. */
export const HOST_PROGRAMS: readonly { name: string; versionArgs: string[]; usedBy: string[] }[] = [
  { name: "shellcheck", versionArgs: ["--version"], usedBy: ["shellcheck"] },
  { name: "go", versionArgs: ["version"], usedBy: ["govet"] },
  { name: "rustfmt", versionArgs: ["--version"], usedBy: ["rustfmt"] },
  { name: "node", versionArgs: ["--version"], usedBy: ["oxlint", "eslint"] },
  { name: "cargo", versionArgs: ["--version"], usedBy: ["clippy (whole-project)"] },
  { name: "cargo-sort", versionArgs: ["--version"], usedBy: ["cargo-sort (whole-project)"] },
  { name: "cargo-machete", versionArgs: ["--version"], usedBy: ["cargo-machete (whole-project)"] },
  { name: "cargo-deny", versionArgs: ["--version"], usedBy: ["cargo-deny (whole-project)"] },
];

/** Every host tool poly can use: found (with version and path) or missing. */
export async function hostTools(): Promise<HostTool[]> {
  const programs = [...HOST_PROGRAMS];
  for (const spec of ENGINES) {
    if (spec.hostProgram && !programs.some((p) => p.name === spec.hostProgram)) {
      programs.push({ name: spec.hostProgram, versionArgs: ["--version"], usedBy: [spec.id] });
    }
  }
  return await Promise.all(programs.map(async (p) => {
    const path = findExecutable(p.name);
    if (!path) return { name: p.name, found: false, used_by: p.usedBy };
    const version = await hostVersion(p.name, p.versionArgs);
    return { name: p.name, found: true, ...(version ? { version } : {}), path, used_by: p.usedBy };
  }));
}

/**
 * Each engine's cache version as last found, with the epoch it was found in. A
 * resident process (`poly daemon`, `poly mcp`) runs for days: a host tool
 * upgraded meanwhile must not keep its results under the old version's keys, so
 * a host tool's version is found again in each epoch ({@link revalidateEngineVersions}:
 * once per run) — a `stat` of the program against the digest memo, a process only
 * when the program changed. In-process engines are poly's own code: theirs holds.
 */
const versions = new Map<string, { epoch: number; version: Promise<string> }>();
let epoch = 0;

/** Makes the next {@link engineCacheVersion} of a host tool look at the program again (each run calls this). */
export function revalidateEngineVersions(): void {
  epoch++;
}

/**
 * A host program's version: asked once (`askVersion` spawns it), then remembered in the digest memo by the real
 * file's path, size and mtime, so a run with a cache to answer from starts no process. A Python console script
 * (flake8, black) is remembered under what it runs as well: its interpreter and the folders that interpreter finds
 * packages in (lib/identity/python_script.ts). Any other script (a version manager's shim, which stays the same
 * while the version it runs changes) is asked every time, as is a link to a program of another name (rustup's
 * proxies, busybox): such a program is what its name makes it, and rustup's runs the toolchain a
 * `rust-toolchain.toml`, an override or `RUSTUP_TOOLCHAIN` picks, none of which changes the file.
 */
async function rememberedVersion(program: string, path: string, args: string[]): Promise<string | undefined> {
  let real: string;
  let info: Deno.FileInfo;
  try {
    real = Deno.realPathSync(path);
    info = Deno.statSync(real);
  } catch {
    return await askedEveryRun(program, args);
  }
  const indirect = isIndirect(path);
  const python = indirect ? pythonScript(real) : undefined;
  if (indirect && !python) return await askedEveryRun(program, args);
  const memo = readDigestMemo();
  const key = `${real} ${args.join(" ")}`;
  const mtime = info.mtime?.getTime() ?? 0;
  const hit = memo[key];
  if (hit && hit.size === info.size && hit.mtime === mtime) {
    if (!python) return hit.digest;
    if (hit.paths && hit.context === scriptContext(python, hit.paths)) return hit.digest;
  }
  let entry: Omit<DigestMemoEntry, "digest"> = { size: info.size, mtime };
  if (python) {
    const paths = await sysPath(python);
    if (!paths) return await askedEveryRun(program, args);
    // Taken before the version is asked: a package changed in between makes the next run ask again.
    entry = { ...entry, paths, context: scriptContext(python, paths) };
  }
  const version = await askVersion(program, args);
  if (version) {
    memo[key] = { ...entry, digest: version };
    digestMemoChanged();
    await saveMemos();
  }
  return version;
}

/**
 * A version only the program can tell, asked now: no read of poly's shows what
 * it depends on, so a run that needs it is not kept for replay (lib/cache/replay.ts).
 */
function askedEveryRun(program: string, args: string[]): Promise<string | undefined> {
  refuseOpenLogs(`${program}'s version is asked of it every run (a script or a link to another program)`);
  return askVersion(program, args);
}

/** The version of the host program `program` (its path, whether it was found), for a cache key. */
async function hostProgramVersion(program: string): Promise<{ version?: string; path?: string }> {
  const path = findExecutable(program);
  if (!path) return {};
  const version = await rememberedVersion(program, path, program === "go" ? ["version"] : ["--version"]);
  return version ? { version, path } : { path };
}

/**
 * The engine version that goes into cache keys: for in-process and bundled
 * engines the upstream version and module digest, for host tools the program's
 * version and path (so upgrading shellcheck invalidates its cached results) and
 * the variables of its environment that change what it reports.
 */
export function engineCacheVersion(spec: EngineSpec): Promise<string> {
  const memoKey = `${spec.id}\0${spec.upstream}`;
  const onHost = spec.tier === "host" || spec.hostProgram !== undefined;
  const known = versions.get(memoKey);
  if (known && (!onHost || known.epoch === epoch)) return known.version;
  const version = (async () => {
    if (spec.tier === "host") {
      const program = spec.hostProgram ?? spec.id;
      const { version, path } = await hostProgramVersion(program);
      return `${program} ${version ?? "unknown"} ${path ?? "missing"}${hostEnvLine(spec)}`;
    }
    // Only this engine's modules are hashed (memoized on disk); the full map is not needed here.
    const listed = memo ? (await memo)[spec.id] : undefined;
    const own = listed?.version === spec.upstream ? listed : await engineIdentity(spec);
    const host = spec.hostProgram
      ? ` ${spec.hostProgram} ${(await hostProgramVersion(spec.hostProgram)).version ?? "missing"}`
      : "";
    return `${own.version}#${own.digest}${host}`;
  })();
  versions.set(memoKey, { epoch, version });
  return version;
}

/** ` NAME=value` for each of a host tool's {@link EngineSpec.hostEnv} variables that is set. */
function hostEnvLine(spec: EngineSpec): string {
  let line = "";
  for (const name of spec.hostEnv ?? []) {
    const value = readEnv(name);
    if (value !== undefined) line += ` ${name}=${JSON.stringify(value)}`;
  }
  return line;
}

function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined; // not readable under this permission set: as unset
  }
}

/** One engine as `poly engines` lists it. */
export interface EngineListing {
  id: string;
  tier: EngineSpec["tier"];
  lint: string[];
  format: string[];
  fix: boolean;
  /** False for opt-in engines (run only when their table exists in poly.toml). */
  default_enabled: boolean;
  upstream: string;
  /** SHA-256 of the module bytes (in-process and bundled engines). */
  digest?: string;
  /** The program it runs (host tools; `node` for oxlint). */
  program?: string;
  /** Whether it can run here (its host program is on PATH). */
  available: boolean;
  /** The host program's version, when it has one. */
  program_version?: string;
}

/** The document `poly engines` prints (and an MCP caller can read). */
export interface EnginesDocument {
  engines: EngineListing[];
  host_tools: HostTool[];
}

/** Every engine with tier, languages, upstream version and digest, and every host tool. */
export async function enginesDocument(): Promise<EnginesDocument> {
  const [ids, tools] = await Promise.all([engineIdentities(), hostTools()]);
  const engines = ENGINES.map((spec): EngineListing => {
    const tool = spec.hostProgram ? tools.find((t) => t.name === spec.hostProgram) : undefined;
    return {
      id: spec.id,
      tier: spec.tier,
      lint: [...spec.lintLanguages],
      format: [...spec.formatLanguages],
      fix: spec.capabilities.fix,
      default_enabled: spec.defaultEnabled,
      upstream: spec.upstream,
      ...(ids[spec.id] ? { digest: ids[spec.id].digest } : {}),
      ...(spec.hostProgram ? { program: spec.hostProgram } : {}),
      available: tool ? tool.found : true,
      ...(tool?.version ? { program_version: tool.version } : {}),
    };
  });
  return { engines, host_tools: tools };
}
