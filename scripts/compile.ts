/**
 * Builds the standalone `poly` executable with `deno compile`.
 *
 * ```sh
 * deno task compile                      # this machine's target → dist/poly-<target>[.exe]
 * deno task compile --target aarch64-apple-darwin
 * deno task compile:all                  # the five release targets
 * ```
 *
 * Options: `--all`, `--target T` (repeatable), `--out-dir DIR` (default `dist`),
 * `--no-check` (skip type-checking), `--verbose` (print deno compile's output).
 *
 * - Permissions: `-P`, the same `permissions.default` set of deno.json that
 *   `deno task poly` (`deno run -q -P main.ts`) uses — one list for both.
 * - Embedding: see `_embed.ts` (run-time includes, excluded dev-only and foreign
 *   native packages, and the check of deno compile's listing afterwards).
 * - Stamp: build id and channel (see `_build_stamp.ts`) written into
 *   `lib/identity/_stamp.ts` for the build and restored afterwards.
 * - Base runtime: checked (and, where possible, downloaded) before anything is
 *   stamped; when it cannot be had, the task stops with a message saying how to
 *   supply it (`_denort.ts`).
 *
 * @module
 */
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { V8_FLAGS } from "../lib/identity/code.ts";
import { type BuildStamp, gitFacts, StaleStampError, stampFor, withStamp } from "./_build_stamp.ts";
import {
  childEnv,
  denoDir,
  denoVersion,
  failureCause,
  isBaseRuntimeFailure,
  probeRuntime,
  runtimeMissingMessage,
  runtimeSource,
} from "./_denort.ts";
import {
  excludesFor,
  knownPackages,
  missingEmbeds,
  parseEmbeddedListing,
  requiredEmbeds,
  RUNTIME_INCLUDES,
} from "./_embed.ts";
import { binaryName, hostTarget, isTarget, type Target, TARGETS } from "./_targets.ts";

/** The repository root. */
export const ROOT: string = fileURLToPath(new URL("../", import.meta.url)).replace(/[\\/]$/, "");

/**
 * The permission flags of the compiled binary: deno.json's default permission
 * set, exactly what the dev task (`deno run -q -P main.ts`) runs with. Add no
 * other permission flag here; change `permissions.default` instead.
 */
export const PERMISSION_FLAGS: readonly string[] = ["-P"];

/** The program's entry module. */
export const ENTRY = "main.ts";

/** Inputs of one `deno compile` invocation. */
export interface CompileArgsOptions {
  target: Target;
  /** Output path (relative to the repository root or absolute). */
  output: string;
  /** `--exclude` paths. */
  excludes?: readonly string[];
  /** Type-check (default true). */
  check?: boolean;
}

/** The argument list of `deno compile` for one target. */
export function compileArgs(options: CompileArgsOptions): string[] {
  return [
    "compile",
    ...PERMISSION_FLAGS,
    // The binary never asks: a permission outside the set is refused, as in the dev task.
    "--no-prompt",
    // The same V8 flags as the dev task and the source command (wasm engines stay on the baseline tier).
    ...V8_FLAGS,
    "--target",
    options.target,
    "--output",
    options.output,
    ...RUNTIME_INCLUDES.flatMap((path) => ["--include", path]),
    ...(options.excludes ?? []).flatMap((path) => ["--exclude", path]),
    ...(options.check === false ? ["--no-check"] : []),
    ENTRY,
  ];
}

/** Parsed command line of this script. */
export interface CompileCli {
  targets: Target[];
  outDir: string;
  check: boolean;
  verbose: boolean;
}

/** Thrown for a bad command line (exit code 2). */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Parses the script's arguments. */
export function parseCli(args: readonly string[], host = hostTarget()): CompileCli {
  const targets: Target[] = [];
  let all = false;
  let outDir = "dist";
  let check = true;
  let verbose = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    if (arg === "--all") all = true;
    else if (arg === "--target" || arg.startsWith("--target=")) {
      const t = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : value();
      if (!isTarget(t)) throw new UsageError(`unknown target "${t}": expected one of ${TARGETS.join(", ")}`);
      targets.push(t);
    } else if (arg === "--out-dir" || arg.startsWith("--out-dir=")) {
      outDir = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : value();
    } else if (arg === "--no-check") check = false;
    else if (arg === "--verbose") verbose = true;
    else throw new UsageError(`unknown argument "${arg}"`);
  }
  if (all) targets.push(...TARGETS);
  if (targets.length === 0) {
    if (!isTarget(host)) {
      throw new UsageError(
        `poly is not released for this machine (${host}); choose one with --target: ${TARGETS.join(", ")}`,
      );
    }
    targets.push(host);
  }
  return { targets: [...new Set(targets)], outDir, check, verbose };
}

const USAGE = `Usage: deno task compile [--target T]... [--all] [--out-dir DIR] [--no-check] [--verbose]
       deno task compile:all
Targets: ${TARGETS.join(", ")}`;

interface Captured {
  success: boolean;
  output: string;
}

/** Runs a command, collecting stdout and stderr together (and echoing them when `echo`). */
async function runCaptured(command: Deno.Command, echo: boolean): Promise<Captured> {
  const child = command.spawn();
  const dec = new TextDecoder();
  let output = "";
  const pump = async (stream: ReadableStream<Uint8Array>, sink: typeof Deno.stderr) => {
    for await (const chunk of stream) {
      output += dec.decode(chunk, { stream: true });
      if (echo) await sink.write(chunk);
    }
  };
  const [status] = await Promise.all([child.status, pump(child.stdout, Deno.stdout), pump(child.stderr, Deno.stderr)]);
  return { success: status.success, output };
}

function log(line: string): void {
  console.error(line);
}

/** Checks that every target's base runtime can be had; returns one message per target that cannot. */
async function checkRuntimes(
  targets: readonly Target[],
  host: string,
  denortBin: string | undefined,
): Promise<string[]> {
  const version = denoVersion();
  const dir = await denoDir();
  const problems: string[] = [];
  for (const target of targets) {
    const source = await runtimeSource({ target, host, version, denoDir: dir, denortBin });
    const context = { target, host, version, denoDir: dir, denortBin };
    if (source.kind === "denort-bin") {
      const info = await Deno.stat(source.path).catch(() => undefined);
      if (!info?.isFile) {
        problems.push(runtimeMissingMessage({ ...context, cause: info ? "not a file" : "no such file" }));
      }
      continue;
    }
    if (source.kind === "cache") continue;
    if (denortBin && target !== host) log(`note: DENORT_BIN is used for ${host} only; ${target} needs its own runtime`);
    log(`checking that Deno's base runtime for ${target} can be downloaded (${source.url}) ...`);
    const failure = await probeRuntime({ target, env: childEnv({ NO_COLOR: "1" }, ["DENORT_BIN"]) });
    if (failure === undefined) continue;
    if (isBaseRuntimeFailure(failure)) {
      problems.push(runtimeMissingMessage({ ...context, cause: failureCause(failure) }));
    } else {
      problems.push(`Cannot build poly for ${target}: a trial deno compile failed:\n${failure.trim()}`);
    }
  }
  return problems;
}

/** Runs `deno compile` for one target with the given excludes. */
function runCompile(
  target: Target,
  output: string,
  excludes: string[],
  cli: CompileCli,
  host: string,
): Promise<Captured> {
  const args = compileArgs({ target, output: relative(ROOT, output) || output, excludes, check: cli.check });
  return runCaptured(
    new Deno.Command(Deno.execPath(), {
      args,
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: childEnv({ NO_COLOR: "1" }, target === host ? [] : ["DENORT_BIN"]),
      clearEnv: true,
    }),
    cli.verbose,
  );
}

/** Compiles one target; returns an error message or undefined. */
async function compileOne(
  target: Target,
  cli: CompileCli,
  host: string,
  denortBin: string | undefined,
): Promise<string | undefined> {
  const outDir = resolve(ROOT, cli.outDir);
  await Deno.mkdir(outDir, { recursive: true });
  const output = join(outDir, binaryName(target));
  log(`compiling ${target} -> ${relative(ROOT, output)} ...`);
  let excludes = excludesFor(await knownPackages(ROOT), target);
  let result = await runCompile(target, output, excludes, cli, host);
  if (result.success) {
    // deno compile may have installed packages for the target that were not
    // foreseen; if any of them should have been left out, build once more.
    const now = excludesFor(await knownPackages(ROOT), target);
    const missed = now.filter((dir) => !excludes.includes(dir));
    if (missed.length > 0) {
      log(`rebuilding ${target} without ${missed.length} package(s) installed during the build ...`);
      excludes = [...new Set([...excludes, ...now])];
      result = await runCompile(target, output, excludes, cli, host);
    }
  }
  if (!result.success) {
    if (isBaseRuntimeFailure(result.output)) {
      return runtimeMissingMessage({
        target,
        host,
        version: denoVersion(),
        denoDir: await denoDir(),
        denortBin,
        cause: failureCause(result.output),
      });
    }
    return `deno compile failed for ${target}:\n${result.output.trim()}`;
  }
  const listing = parseEmbeddedListing(result.output);
  if (listing === undefined) {
    log(`warning: deno compile printed no "Embedded Files" listing; the embedded engines were not verified`);
  } else {
    const missing = missingEmbeds(listing, await requiredEmbeds(ROOT, target));
    if (missing.length > 0) {
      await Deno.remove(output).catch(() => {});
      return `the ${target} build lacks files poly reads at run time, so it was removed:\n${
        missing.map((m) => `  - ${m}`).join("\n")
      }\n(a native package for ${target} may be missing from node_modules: run "deno install", or build on ${target})`;
    }
  }
  const size = (await Deno.stat(output)).size;
  log(`built ${relative(ROOT, output)} (${(size / 1e6).toFixed(1)} MB)`);
  return undefined;
}

/** Runs the build; returns the process exit code. */
export async function main(args: readonly string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE);
    return 0;
  }
  let cli: CompileCli;
  try {
    cli = parseCli(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    log(`compile: ${e.message}\n${USAGE}`);
    return 2;
  }
  const host = hostTarget();
  const denortBin = Deno.env.get("DENORT_BIN") || undefined;

  const problems = await checkRuntimes(cli.targets, host, denortBin);
  if (problems.length > 0) {
    log(problems.join("\n\n"));
    log(`\nNothing was built.`);
    return 1;
  }

  const denoJson = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const version: string = denoJson.version;
  const stamp: BuildStamp = stampFor(version, await gitFacts(ROOT));
  log(`poly ${version}: build ${stamp.buildId}, channel ${stamp.channel}`);

  const failures: string[] = [];
  try {
    await withStamp(join(ROOT, "lib", "identity", "_stamp.ts"), stamp, async () => {
      for (const target of cli.targets) {
        const failure = await compileOne(target, cli, host, denortBin);
        if (failure) {
          log(failure);
          failures.push(target);
        }
      }
    });
  } catch (e) {
    if (e instanceof StaleStampError) {
      log(`compile: ${e.message}`);
      return 1;
    }
    throw e;
  }
  if (failures.length > 0) {
    log(`\nFailed: ${failures.join(", ")}`);
    return 1;
  }
  return 0;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
