/**
 * Running host tools (shellcheck, go, rustfmt, node): spawning them with text on
 * stdin and reading their versions (finding one on PATH is `findExecutable`, in
 * lib/fs/executable.ts); and the native executables poly ships in npm packages
 * ({@link runExecutable}, {@link platformTriple}). A tool that is
 * absent or not allowed to run becomes an {@link EngineUnavailableError}: the
 * files it would have checked are skipped with that reason, never reported clean.
 *
 * @module
 */
import { EngineError, EngineUnavailableError } from "./types.ts";
import { basename } from "node:path";
import { collect, GROUPS, killTreeWithPoly, TreeStop } from "../process/group.ts";
import { runSignal } from "../process/run_signal.ts";

/** Output of one host tool run. */
export interface HostRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options for {@link runHost}. */
export interface HostRunOptions {
  stdin?: string;
  cwd?: string;
  env?: Record<string, string>;
  /** How long the process may run; {@link HOST_TIMEOUT_MS} unless given (tests). */
  timeoutMs?: number;
  /** The tool's name in messages (a native executable runs through `sh`). */
  name?: string;
  /**
   * The tool starts no process of its own (biome's and ast-grep's command lines): it runs in poly's process group
   * and is stopped alone, which makes its start cheaper (lib/process/group.ts). Otherwise it gets a group of its own.
   */
  alone?: boolean;
}

/**
 * How long one host tool's process may run before poly stops it (SIGKILL): a batch of thousands of files takes
 * seconds, and a hung engine would otherwise hang the run, or an MCP call, for good. A host tool's files are then
 * errored; biome's and ast-grep's go to their in-process builds.
 */
export const HOST_TIMEOUT_MS = 10 * 60_000;

const decoder = new TextDecoder();

/**
 * Runs a host program by name (it must be in the run permission list) and
 * collects its output. Throws {@link EngineUnavailableError} when the program is
 * missing or may not be run.
 */
export async function runHost(program: string, args: string[], options: HostRunOptions = {}): Promise<HostRun> {
  const name = options.name ?? program;
  // A cancelled run (an MCP client's cancelled call, a daemon's client gone) stops its engines' processes too, and
  // starts none.
  const signal = runSignal();
  if (signal?.aborted) throw new EngineError(`${name} was stopped: the run was cancelled`);
  const grouped = GROUPS && !options.alone;
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args,
      cwd: options.cwd,
      env: options.env,
      stdin: options.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      // Its own process group unless it runs alone: a timeout or a cancel stops what the tool started too (`go vet`
      // its `vet` and `compile` runs), which would otherwise run on and hold its output open.
      detached: grouped,
    }).spawn();
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new EngineUnavailableError(`${program} not found on PATH`);
    if (e instanceof Deno.errors.PermissionDenied || (e as Error).name === "NotCapable") {
      throw new EngineUnavailableError(`${program} may not be run by poly: ${(e as Error).message}`);
    }
    throw e;
  }
  // A signal that ends poly ends the tool and what it started too (lib/process/ending.ts), not only poly.
  const release = killTreeWithPoly(child, grouped);
  const limit = options.timeoutMs ?? HOST_TIMEOUT_MS;
  let stopped: "late" | "cancelled" | undefined;
  // Once the tool is gone, output that a process which left its group still holds open is not waited for.
  const tree = new TreeStop(child, grouped);
  const stop = (why: "late" | "cancelled") => {
    stopped ??= why;
    tree.stop();
  };
  const timer = setTimeout(() => stop("late"), limit);
  const cancel = () => stop("cancelled");
  signal?.addEventListener("abort", cancel, { once: true });
  try {
    const output = Promise.all([collect(child.stdout, tree.drained), collect(child.stderr, tree.drained)]);
    if (options.stdin !== undefined) {
      const writer = child.stdin.getWriter();
      try {
        await writer.write(new TextEncoder().encode(options.stdin));
        await writer.close();
      } catch {
        // the tool exited without reading all of stdin; its output says why
      }
    }
    const [[out, err], status] = await Promise.all([output, child.status]);
    if (stopped) {
      const failure = await tree.killing;
      const why = stopped === "late"
        ? `${name} did not finish within ${limit / 1000} s and was stopped`
        : `${name} was stopped: the run was cancelled`;
      throw new EngineError(failure ? `${why} (${failure})` : why);
    }
    return { code: status.code, stdout: decoder.decode(out.bytes), stderr: decoder.decode(err.bytes) };
  } finally {
    tree.close();
    clearTimeout(timer);
    signal?.removeEventListener("abort", cancel);
    release();
  }
}

/**
 * Runs a native executable that poly ships inside an npm package (biome's and
 * ast-grep's command lines) by its path. Deno's run permission names programs,
 * not paths, so on POSIX systems it starts as `sh -c 'exec "$0" "$@"' <path> <args>`:
 * the shell (in the permission list for workspace jobs) replaces itself with the
 * executable at once, where the package's Node.js launcher costs 100–160 ms per
 * start. On Windows, which has no `sh`, it starts as `node <launcher> <args>`.
 * These executables start no process of their own: each runs `alone`.
 *
 * On POSIX systems the shell first caps the memory the executable may write to
 * ({@link EXECUTABLE_DATA_KIB}, `ulimit -d`): a file that sends one of these tools
 * into allocating without end (biome 2.5.14 on a draw.io SVG in fastapi's docs: 24 GB
 * resident within a minute, the machine's whole memory) ends it with an allocation
 * failure in 1.5 s instead, and its files go to the WebAssembly path or are reported
 * errored. (The data limit, not the address space's: glibc reserves 64 MB of address
 * space per arena, so an address-space cap would fail a many-threaded run on a machine
 * with many cores.)
 */
export async function runExecutable(
  executable: { path: string; launcher: string },
  args: string[],
  options: HostRunOptions = {},
): Promise<HostRun> {
  const named = { name: basename(executable.path), alone: true, ...options };
  if (Deno.build.os === "windows") return await runHost("node", [executable.launcher, ...args], named);
  const capped = `ulimit -d ${EXECUTABLE_DATA_KIB} 2>/dev/null; exec "$0" "$@"`;
  for (let attempt = 0;; attempt++) {
    const run = await runHost("sh", ["-c", capped, executable.path, ...args], named);
    if (attempt === TEXT_BUSY_RETRIES.length || !textBusy(run)) return run;
    await new Promise((resolve) => setTimeout(resolve, TEXT_BUSY_RETRIES[attempt]));
  }
}

/**
 * Waits (ms) before starting an executable again that the kernel refused as "text file busy" (ETXTBSY): a copy poly
 * has just written (a compiled poly's biome, lib/engines/biome/_bin.ts) is refused while any process still holds it
 * open for writing, and a process another thread forks in that time holds the copy's descriptor until it executes
 * its own program. The shell ran nothing then, so starting again is safe; ~0.8 s in all.
 */
const TEXT_BUSY_RETRIES = [25, 50, 100, 200, 400];

/** Whether the shell could not execute the program because it was open for writing (its exit 126 and message). */
function textBusy(run: HostRun): boolean {
  return run.code === 126 && /Text file busy/.test(run.stderr);
}

/**
 * The memory (KiB) a shipped executable may write to: 2 GiB, far above what one
 * process uses (biome's and ast-grep's runners give one process at most 256 KB of paths; biome over
 * vite's 2,456 files: 130 MB resident, 131 MB with 256 threads under this cap). The
 * runaway above reached it in 1.5 s; a 4 GiB cap took 9.5 s, most of it the kernel's.
 */
export const EXECUTABLE_DATA_KIB = 2 * 1024 * 1024;

/** First version-looking token of a tool's `--version` output. */
export function parseVersion(output: string): string | undefined {
  const m = /\d+\.\d+(?:\.\d+)?(?:[-+][\w.-]+)?/.exec(output);
  return m?.[0];
}

const versions = new Map<string, Promise<string | undefined>>();

/**
 * Programs whose `--version` also names the plug-ins they run (`flake8`: `7.1.1 (mccabe: 0.7.0, pycodestyle: ...)`),
 * which change what they report: their version is all of it.
 */
const PLUGGABLE = new Set(["flake8"]);

/** The version of a host program (`args` default `--version`), asked of it now; undefined when absent. */
export function askVersion(program: string, args: string[] = ["--version"]): Promise<string | undefined> {
  return runHost(program, args).then((r) => {
    const output = r.stdout + "\n" + r.stderr;
    const version = parseVersion(output);
    // Its words, however the terminal's width wrapped them.
    return version && PLUGGABLE.has(program) ? r.stdout.trim().replace(/\s+/g, " ") : version;
  }).catch(() => undefined);
}

/**
 * {@link askVersion}, memoized per process: for what lists the tools (`poly doctor`,
 * `poly engines`). Cache keys take theirs from lib/identity/engines.ts, which notices an upgrade.
 */
export function hostVersion(program: string, args: string[] = ["--version"]): Promise<string | undefined> {
  const key = [program, ...args].join(" ");
  let p = versions.get(key);
  if (!p) {
    p = askVersion(program, args);
    versions.set(key, p);
  }
  return p;
}

/** The N-API platform triple of this machine, e.g. "linux-x64-gnu". */
export function platformTriple(): string {
  const arch = Deno.build.arch === "x86_64" ? "x64" : "arm64";
  if (Deno.build.os === "linux") return `linux-${arch}-${Deno.build.env === "musl" ? "musl" : "gnu"}`;
  if (Deno.build.os === "darwin") return `darwin-${arch}`;
  if (Deno.build.os === "windows") return `win32-${arch}-msvc`;
  return `${Deno.build.os}-${arch}`;
}
