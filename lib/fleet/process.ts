/**
 * Runs one engine process: stdin closed (some engines wait for input forever
 * otherwise), stdout and stderr collected with caps, the whole process tree
 * killed on timeout or cancellation (lib/process/group.ts: the child runs in its
 * own process group); a sandboxed child is bwrap, whose `--die-with-parent` and
 * private PID namespace take every process inside with it. A kill that fails is
 * reported, never swallowed. Processes still running when poly exits are killed
 * too, and so are they when a signal ends poly (lib/process/ending.ts).
 *
 * @module
 */
import { collect, killTreeSync, killTreeWithPoly, TreeStop } from "../process/group.ts";
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

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  globalThis.addEventListener("unload", () => {
    for (const child of live) killTreeSync(child);
  });
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
  const release = killTreeWithPoly(child);
  let timedOut = false;
  let cancelled = false;
  // On timeout or cancel: kill the tree; once the child is gone, stop reading output a process that
  // escaped the tree may still hold open, so the call returns.
  const tree = new TreeStop(child);
  const timer = setTimeout(() => {
    timedOut = true;
    tree.stop();
  }, o.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    tree.stop();
  };
  if (o.signal?.aborted) onAbort();
  o.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const [out, err, status] = await Promise.all([
      collect(child.stdout, tree.drained, o.maxStdoutBytes),
      collect(child.stderr, tree.drained, o.maxStderrBytes ?? 256 * 1024, true),
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
      killFailure: await tree.killing,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    tree.close();
    release();
    clearTimeout(timer);
    o.signal?.removeEventListener("abort", onAbort);
    // Whatever the engine left behind in its group goes with it.
    const leftover = await tree.kill();
    if (leftover && !timedOut && !cancelled) console.error(`poly: ${leftover}`);
    live.delete(child);
  }
}
