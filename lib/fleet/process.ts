/**
 * Runs one engine process: stdin closed (some engines wait for input forever
 * otherwise), stdout and stderr collected with caps, the whole process group
 * killed on timeout or cancellation. Processes still running when poly exits are
 * killed too.
 *
 * @module
 */
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
  durationMs: number;
}

const live = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number): void {
  try {
    Deno.kill(-pid, "SIGKILL");
  } catch {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  globalThis.addEventListener("unload", () => {
    for (const pid of live) killGroup(pid);
  });
}

async function collect(
  stream: ReadableStream<Uint8Array>,
  max: number,
  keepTail: boolean,
): Promise<{ bytes: Uint8Array; total: number; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let total = 0;
  for await (const chunk of stream) {
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
  live.add(child.pid);
  let timedOut = false;
  let cancelled = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
  }, o.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    killGroup(child.pid);
  };
  if (o.signal?.aborted) onAbort();
  o.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const [out, err, status] = await Promise.all([
      collect(child.stdout, o.maxStdoutBytes, false),
      collect(child.stderr, o.maxStderrBytes ?? 256 * 1024, true),
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
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener("abort", onAbort);
    // Whatever the engine left behind in its group goes with it.
    killGroup(child.pid);
    live.delete(child.pid);
  }
}
