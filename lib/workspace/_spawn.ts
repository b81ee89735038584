/**
 * Runs one whole-project job's process tree, with a timeout and cancellation
 * that stop every process the job started (cargo's rustc children included).
 *
 * How: each job runs under a small `sh` wrapper in its own session
 * (`detached`, so its own process group). On timeout or cancel poly sends the
 * wrapper SIGTERM; the wrapper forwards SIGTERM to its whole group, waits a
 * second, then SIGKILLs the group. Poly's run permission names only programs,
 * and `Deno.kill` of a group needs the unrestricted run permission, so the
 * signal fan-out happens inside the wrapper.
 *
 * Being in a group of its own, a job never sees the Ctrl-C a terminal sends to poly's group, nor a signal a caller
 * sends poly alone: while jobs run, SIGINT, SIGTERM and SIGHUP stop them first (as on timeout), then take their usual
 * course — the process ends, or a listener of its own (`poly daemon`) handles them. No job outlives the poly that
 * started it.
 *
 * @module
 */
import { stopWithPoly } from "../process/ending.ts";
import { concatBytes } from "../io/bytes.ts";

/** The wrapper: run "$@" in the background, forward TERM to the whole process group. */
const WRAPPER = [
  `trap 'trap "" TERM; kill -TERM 0 2>/dev/null; sleep 1; kill -KILL 0 2>/dev/null' TERM`,
  `"$@" &`,
  `wait $!`,
].join("\n");

/** Bytes of stdout/stderr kept per stream (the tail is kept). */
const MAX_CAPTURE = 16 * 1024 * 1024;

/** Options for {@link runTree}. */
export interface RunTreeOptions {
  cwd: string;
  /** Kill the tree after this many milliseconds. */
  timeoutMs?: number;
  /** Kill the tree when aborted. */
  signal?: AbortSignal;
  /** Extra environment variables (the rest is inherited). */
  env?: Record<string, string>;
}

/** What a job's process did. */
export interface TreeResult {
  /** Exit code (null when it was killed by a signal). */
  code: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
  cancelled: boolean;
}

/** A job's process could not be started at all (no such program, permission). */
export class SpawnError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SpawnError";
  }
}

/**
 * Runs `argv` in `cwd` and collects its output. Never throws for a non-zero exit;
 * throws {@link SpawnError} when the process cannot be started.
 */
export async function runTree(argv: readonly string[], options: RunTreeOptions): Promise<TreeResult> {
  const started = performance.now();
  if (options.signal?.aborted) {
    return { code: null, stdout: "", stderr: "", durationMs: 0, timedOut: false, cancelled: true };
  }
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("sh", {
      args: ["-c", WRAPPER, "sh", ...argv],
      cwd: options.cwd,
      env: options.env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
  } catch (error) {
    throw new SpawnError(`could not start "${argv[0]}": ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  let timedOut = false;
  let cancelled = false;
  let killed = false;
  let escalation: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    if (killed) return;
    killed = true;
    try {
      child.kill("SIGTERM");
    } catch {
      // Already gone.
    }
    // The wrapper SIGKILLs the group after a second; if it is itself stuck, kill it.
    escalation = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
    }, 5_000);
  };
  const onAbort = () => {
    cancelled = true;
    stop();
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const done = stopWithPoly(stop);
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => {
    timedOut = true;
    stop();
  }, options.timeoutMs);
  try {
    const [stdout, stderr, status] = await Promise.all([
      collect(child.stdout),
      collect(child.stderr),
      child.status,
    ]);
    return {
      code: killed ? null : status.code,
      stdout,
      stderr,
      durationMs: Math.round(performance.now() - started),
      timedOut,
      cancelled: cancelled && !timedOut,
    };
  } finally {
    clearTimeout(timer);
    clearTimeout(escalation);
    options.signal?.removeEventListener("abort", onAbort);
    done();
  }
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk);
    size += chunk.length;
    while (size > MAX_CAPTURE && chunks.length > 1) size -= chunks.shift()!.length;
  }
  return new TextDecoder().decode(concatBytes(chunks));
}
