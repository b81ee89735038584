/**
 * Spawns the real `poly` process the way users run it: `deno run` with the
 * program's own permission set from deno.json (`-P`), from any directory.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { sourceCommand } from "../../lib/identity/code.ts";
import { tempDir } from "./temp.ts";

/** The repository root. */
export const REPO = fromFileUrl(new URL("../../", import.meta.url)).replace(/\/$/, "");

/** Path of deno.json (the one place permissions are kept). */
export const DENO_JSON = join(REPO, "deno.json");

/** Path of main.ts. */
export const MAIN = join(REPO, "main.ts");

/**
 * The argv prefix that starts poly from source with its permission flags. The test
 * run has already installed `node_modules/`, so each process uses it as it is
 * (`--node-modules-dir=manual`) instead of re-checking it at every start, which costs
 * Deno about a second per process here.
 */
export function polyCommand(): string[] {
  return sourceCommand(REPO);
}

/** Result of one poly run. */
export interface PolyRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options for {@link runPoly}. */
export interface RunPolyOptions {
  cwd?: string;
  env?: Record<string, string>;
  stdin?: string;
}

/**
 * Runs `poly ...args` as a child process and collects its output. The cache and
 * state homes default to a fresh temporary directory so tests never share state
 * with the developer's machine.
 */
export async function runPoly(args: string[], options: RunPolyOptions = {}): Promise<PolyRun> {
  const [exe, ...rest] = polyCommand();
  const isolated = await isolatedHomes();
  const child = new Deno.Command(exe, {
    args: [...rest, ...args],
    cwd: options.cwd ?? REPO,
    env: { NO_COLOR: "1", ...isolated, ...options.env },
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

let homes: Record<string, string> | undefined;

/** POLY_CACHE_HOME and POLY_STATE_HOME in a per-test-process temporary directory. */
export async function isolatedHomes(): Promise<Record<string, string>> {
  if (!homes) {
    const base = await tempDir({ prefix: "poly-test-home-" });
    homes = { POLY_CACHE_HOME: join(base, "cache"), POLY_STATE_HOME: join(base, "state") };
  }
  return homes;
}

/** Copies a fixture directory to a fresh temporary directory and returns its path. */
export async function copyFixture(relative: string): Promise<string> {
  const src = join(REPO, "fixtures", relative);
  const dest = await tempDir({ prefix: "poly-fixture-" });
  await copyDir(src, dest);
  return dest;
}

/** Copies the tree at `src` into the folder `dest` (links copied as links). */
export async function copyDir(src: string, dest: string): Promise<void> {
  for await (const entry of Deno.readDir(src)) {
    const from = join(src, entry.name);
    const to = join(dest, entry.name);
    if (entry.isDirectory) {
      await Deno.mkdir(to, { recursive: true });
      await copyDir(from, to);
    } else if (entry.isSymlink) {
      await Deno.symlink(await Deno.readLink(from), to);
    } else {
      await Deno.copyFile(from, to);
    }
  }
}

/** Whether golden files should be rewritten instead of compared (`POLY_UPDATE_GOLDEN=1`). */
export const UPDATE_GOLDEN = Deno.env.get("POLY_UPDATE_GOLDEN") === "1";

/** Compares `actual` with the golden file at `path`, or rewrites it under POLY_UPDATE_GOLDEN=1. */
export async function assertGolden(path: string, actual: string): Promise<void> {
  if (UPDATE_GOLDEN) {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, actual);
    return;
  }
  let expected: string;
  try {
    expected = await Deno.readTextFile(path);
  } catch {
    throw new Error(`Golden file ${path} is missing: run with POLY_UPDATE_GOLDEN=1 to create it, then review it`);
  }
  assert.equal(actual, expected, `output differs from golden file ${path}`);
}

/**
 * Runs `poly ...args` with its stdout a pipe whose reading end is closed before poly
 * writes anything (what `poly lint | head -0` does): poly's first write to stdout fails
 * with a broken pipe. Returns the exit code and what it said on stderr.
 */
export async function runPolyClosedStdout(
  args: string[],
  options: Omit<RunPolyOptions, "stdin"> = {},
): Promise<Omit<PolyRun, "stdout">> {
  const [exe, ...rest] = polyCommand();
  const child = new Deno.Command(exe, {
    args: [...rest, ...args],
    cwd: options.cwd ?? REPO,
    env: { NO_COLOR: "1", ...await isolatedHomes(), ...options.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  await child.stdout.cancel();
  const [stderr, status] = await Promise.all([new Response(child.stderr).text(), child.status]);
  return { code: status.code, stderr };
}

/** A {@link PolyRun} with whether it was killed for outliving its time limit. */
export interface BoundedPolyRun extends PolyRun {
  /** True when the process was still running after `ms` and was killed. */
  timedOut: boolean;
  /** Wall-clock milliseconds the process ran. */
  ms: number;
}

/**
 * {@link runPoly} with a hang guard: the process is killed (SIGKILL) when it is
 * still running after `ms` milliseconds, so a test of "poly no longer hangs"
 * fails in bounded time instead of hanging the suite.
 */
export async function runPolyWithin(ms: number, args: string[], options: RunPolyOptions = {}): Promise<BoundedPolyRun> {
  const [exe, ...rest] = polyCommand();
  const isolated = await isolatedHomes();
  const started = performance.now();
  const child = new Deno.Command(exe, {
    args: [...rest, ...args],
    cwd: options.cwd ?? REPO,
    env: { NO_COLOR: "1", ...isolated, ...options.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }, ms);
  const out = await child.output();
  clearTimeout(timer);
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    timedOut,
    ms: Math.round(performance.now() - started),
  };
}
