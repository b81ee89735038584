/**
 * Runs one engine process: stdin closed (some engines wait for input forever
 * otherwise), stdout and stderr collected with caps, the whole process tree
 * killed on timeout or cancellation: the child runs in its own process group,
 * which `sh` signals (poly's run permission names programs, and Deno refuses
 * `Deno.kill` under it), then the child itself is killed (`ChildProcess.kill`
 * needs no permission); a sandboxed child is bwrap, whose `--die-with-parent` and
 * private PID namespace take every process inside with it. A kill that fails is
 * reported, never swallowed. Processes still running when poly exits are killed
 * too, and so are they when a signal ends poly (lib/process/ending.ts).
 *
 * @module
 */
import { stopWithPoly } from "../process/ending.ts";
import { FleetError } from "./errors.ts";

/** Options for {@link runProcess}. */
export interface ProcessOptions {
  cmd: string;
  args: string[];
  cwd: string;
  /** The child's environment; with `clearEnv` it is the whole environment. */
  env?: Record<string, string>;
  clearEnv?: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
  /** stdout bytes kept (the rest is drained and counted). */
  maxStdoutBytes: number;
  /** stderr bytes kept (the tail). */
  maxStderrBytes?: number;
}

/** What a finished process left behind. */
export interface ProcessResult {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** Bytes the process wrote to stdout (including what was not kept). */
  stdoutBytes: number;
  stdoutTruncated: boolean;
  timedOut: boolean;
  cancelled: boolean;
  /** Why killing the process tree (on timeout or cancel) failed; undefined when it worked. */
  killFailure?: string;
  durationMs: number;
}

const live = new Set<Deno.ChildProcess>();
let exitHookInstalled = false;

/**
 * The process-group kill. poly's run permission names programs (deno.json), and Deno refuses
 * `Deno.kill` unless every program may run, so the group is signalled by `sh` (allowed by name).
 * A group that no longer exists is not a failure.
 */
const GROUP_KILL =
  `out=$(kill -KILL "-$1" 2>&1) || case "$out" in *"No such process"*) ;; *) echo "$out" >&2; exit 1 ;; esac`;

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** SIGKILLs the child itself; a child already gone is no failure. */
function killChild(child: Deno.ChildProcess): string | undefined {
  try {
    child.kill("SIGKILL");
    return undefined;
  } catch (e) {
    // Deno throws a TypeError once the child has exited (and was reaped).
    if (e instanceof TypeError) return undefined;
    return `could not kill process ${child.pid}: ${describe(e)}`;
  }
}

/**
 * Kills a child started with `detached` (its own process group) and everything in that group:
 * the group first (while its members live, its id cannot be reused), then the child. For bwrap,
 * `--die-with-parent` and the private PID namespace take the whole sandbox with it. Returns why
 * the kill failed, or undefined.
 */
export async function killTree(child: Deno.ChildProcess): Promise<string | undefined> {
  let group: string | undefined;
  try {
    const out = await new Deno.Command("sh", {
      args: ["-c", GROUP_KILL, "sh", String(child.pid)],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!out.success) {
      group = `could not kill process group ${child.pid}: ${
        new TextDecoder().decode(out.stderr).trim() || `sh exited with code ${out.code}`
      }`;
    }
  } catch (e) {
    group = `could not start "sh" to kill process group ${child.pid}: ${describe(e)}`;
  }
  const own = killChild(child);
  return [group, own].filter(Boolean).join("; ") || undefined;
}

/** {@link killTree} for poly's exit, where nothing asynchronous runs any more. */
function killTreeSync(child: Deno.ChildProcess): void {
  let failure: string | undefined;
  try {
    const out = new Deno.Command("sh", {
      args: ["-c", GROUP_KILL, "sh", String(child.pid)],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).outputSync();
    if (!out.success) failure = `could not kill process group ${child.pid}`;
  } catch (e) {
    failure = `could not start "sh" to kill process group ${child.pid}: ${describe(e)}`;
  }
  failure = [failure, killChild(child)].filter(Boolean).join("; ") || undefined;
  if (failure) console.error(`poly: ${failure}`);
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  globalThis.addEventListener("unload", () => {
    for (const child of live) killTreeSync(child);
  });
}

/** How long a killed tree's output may stay open (a process that left the tree holds it) before poly stops reading. */
const OUTPUT_GRACE_MS = 2_000;

async function collect(
  stream: ReadableStream<Uint8Array>,
  max: number,
  keepTail: boolean,
  stop: AbortSignal,
): Promise<{ bytes: Uint8Array; total: number; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let total = 0;
  const reader = stream.getReader();
  const onStop = () => void reader.cancel().catch(() => {});
  stop.addEventListener("abort", onStop, { once: true });
  try {
    while (true) {
      const { value: chunk, done } = await reader.read();
      if (done) break;
      total += chunk.length;
      if (keepTail) {
        chunks.push(chunk);
        kept += chunk.length;
        while (kept - (chunks[0]?.length ?? 0) >= max && chunks.length > 1) kept -= chunks.shift()!.length;
      } else if (kept < max) {
        const part = chunk.subarray(0, max - kept);
        chunks.push(part);
        kept += part.length;
      }
    }
  } finally {
    stop.removeEventListener("abort", onStop);
  }
  const bytes = new Uint8Array(kept);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { bytes, total, truncated: total > kept };
}

/**
 * Spawns `cmd` in its own process group and waits for it. A spawn refused by
 * Deno's run permission becomes a FleetError naming the program and the fix.
 */
export async function runProcess(o: ProcessOptions): Promise<ProcessResult> {
  const started = performance.now();
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(o.cmd, {
      args: o.args,
      cwd: o.cwd,
      env: o.env,
      clearEnv: o.clearEnv ?? false,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
  } catch (e) {
    if (e instanceof Deno.errors.NotCapable) {
      throw new FleetError(
        "engine_unavailable",
        `poly may not start "${o.cmd}": its run permission allows only the programs named in deno.json, ` +
          `resolved on PATH when poly started. Keep the sandbox on (poly then starts only bwrap), or put this ` +
          `program on PATH under its default name before starting poly`,
        { cause: e },
      );
    }
    if (e instanceof Deno.errors.NotFound) {
      throw new FleetError("engine_unavailable", `Could not start "${o.cmd}": not found`, { cause: e });
    }
    throw e;
  }
  installExitHook();
  live.add(child);
  // A signal that ends poly (a SIGTERM to it alone included) takes the engine's tree with it, sandbox or not.
  const release = stopWithPoly(() => killTreeSync(child));
  let timedOut = false;
  let cancelled = false;
  let killing: Promise<string | undefined> | undefined;
  let finished = false;
  let grace: ReturnType<typeof setTimeout> | undefined;
  const drained = new AbortController();
  const kill = () => (killing ??= killTree(child));
  // On timeout or cancel: kill the tree; once the child is gone, stop reading output a process that
  // escaped the tree may still hold open, so the call returns.
  const stop = () => {
    void kill();
    child.status.then(() => {
      if (!finished) grace = setTimeout(() => drained.abort(), OUTPUT_GRACE_MS);
    });
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, o.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    stop();
  };
  if (o.signal?.aborted) onAbort();
  o.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const [out, err, status] = await Promise.all([
      collect(child.stdout, o.maxStdoutBytes, false, drained.signal),
      collect(child.stderr, o.maxStderrBytes ?? 256 * 1024, true, drained.signal),
      child.status,
    ]);
    const dec = new TextDecoder();
    return {
      code: status.signal ? null : status.code,
      signal: status.signal,
      stdout: dec.decode(out.bytes),
      stderr: dec.decode(err.bytes),
      stdoutBytes: out.total,
      stdoutTruncated: out.truncated,
      timedOut,
      cancelled,
      killFailure: await killing,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    finished = true;
    release();
    clearTimeout(timer);
    clearTimeout(grace);
    o.signal?.removeEventListener("abort", onAbort);
    // Whatever the engine left behind in its group goes with it.
    const leftover = await kill();
    if (leftover && !timedOut && !cancelled) console.error(`poly: ${leftover}`);
    live.delete(child);
  }
}
