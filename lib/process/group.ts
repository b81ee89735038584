/**
 * A child process and everything it starts, stopped together. A tool that starts processes of its own (`go vet`
 * its `vet` and `compile` runs, git its remote helpers, an agent CLI its tools) leaves them running when only it
 * is killed, and they hold its output open: its caller then waits for them too. So such a child is started
 * `detached` (its own process group) and stopped as a group: `sh` signals the group (poly's run permission names
 * programs, and Deno refuses `Deno.kill` under it), then the child itself is killed (`ChildProcess.kill` needs no
 * permission). A kill that fails is reported, never swallowed.
 *
 * Being in a group of its own, such a child never sees the Ctrl-C a terminal sends to poly's group: a signal that
 * ends poly stops its group through {@link killTreeWithPoly} (lib/process/ending.ts).
 *
 * A tool that starts no process of its own (biome's and ast-grep's command lines) needs no group: it is started in
 * poly's and stopped alone (`grouped` false below). That start is cheaper: Deno starts a `detached` child with `fork`,
 * which copies poly's page tables (5–25 ms of poly's thread a start on these machines), and any other with `vfork`
 * (under 1 ms).
 *
 * @module
 */
import { stopWithPoly } from "./ending.ts";
import { concatBytes } from "../io/bytes.ts";

/**
 * Whether children get process groups of their own (`detached`), which `sh` kills: POSIX systems. On Windows a child
 * is started and stopped alone.
 */
export const GROUPS: boolean = Deno.build.os !== "windows";

/** The process-group kill; a group that no longer exists is not a failure. */
const GROUP_KILL =
  `out=$(kill -KILL "-$1" 2>&1) || case "$out" in *"No such process"*) ;; *) echo "$out" >&2; exit 1 ;; esac`;

/** `sh` running {@link GROUP_KILL} on `child`'s group; its stderr says why when it fails. */
function groupKill(child: Deno.ChildProcess): Deno.Command {
  return new Deno.Command("sh", {
    args: ["-c", GROUP_KILL, "sh", String(child.pid)],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  });
}

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
 * Kills a child started with `detached` and everything in its process group: the group first (while its members
 * live, its id cannot be reused), then the child; a child started in poly's group (`grouped` false) alone. For bwrap,
 * `--die-with-parent` and the private PID namespace take the whole sandbox with it. Returns why the kill failed, or
 * undefined.
 */
export async function killTree(child: Deno.ChildProcess, grouped = GROUPS): Promise<string | undefined> {
  let group: string | undefined;
  if (grouped) {
    try {
      const out = await groupKill(child).output();
      if (!out.success) {
        group = `could not kill process group ${child.pid}: ${
          new TextDecoder().decode(out.stderr).trim() || `sh exited with code ${out.code}`
        }`;
      }
    } catch (e) {
      group = `could not start "sh" to kill process group ${child.pid}: ${describe(e)}`;
    }
  }
  const own = killChild(child);
  return [group, own].filter(Boolean).join("; ") || undefined;
}

/** {@link killTree} where nothing asynchronous runs any more (poly's exit, an ending signal); failures on stderr. */
export function killTreeSync(child: Deno.ChildProcess, grouped = GROUPS): void {
  let failure: string | undefined;
  if (grouped) {
    try {
      const out = groupKill(child).outputSync();
      if (!out.success) failure = `could not kill process group ${child.pid}`;
    } catch (e) {
      failure = `could not start "sh" to kill process group ${child.pid}: ${describe(e)}`;
    }
  }
  failure = [failure, killChild(child)].filter(Boolean).join("; ") || undefined;
  if (failure) console.error(`poly: ${failure}`);
}

/** A signal that ends poly takes the child's whole group with it; call what this returns once the child is done. */
export function killTreeWithPoly(child: Deno.ChildProcess, grouped = GROUPS): () => void {
  return stopWithPoly(() => killTreeSync(child, grouped));
}

/** How long a killed tree's output may stay open (a process that left the tree holds it) before poly stops reading. */
const OUTPUT_GRACE_MS = 2_000;

/**
 * Stopping one child's tree, once. {@link TreeStop.stop} kills the group ({@link killTree}) and, once the child is
 * gone, gives output that a process which left the tree still holds open {@link OUTPUT_GRACE_MS} more before
 * {@link TreeStop.drained} aborts the reads ({@link collect}), so the caller returns. {@link TreeStop.close} once the
 * output is read.
 */
export class TreeStop {
  readonly #drained = new AbortController();
  #killing?: Promise<string | undefined>;
  #grace?: ReturnType<typeof setTimeout>;
  #closed = false;

  /** `grouped`: the child was started `detached` (see {@link killTree}). */
  constructor(readonly child: Deno.ChildProcess, readonly grouped: boolean = GROUPS) {}

  /** What the reads of the child's output stop on. */
  get drained(): AbortSignal {
    return this.#drained.signal;
  }

  /** The kill, once one was made: why it failed, or undefined. */
  get killing(): Promise<string | undefined> | undefined {
    return this.#killing;
  }

  /** Kills the tree (once), and stops the reads {@link OUTPUT_GRACE_MS} after the child is gone. */
  stop(): void {
    void this.kill();
    this.child.status.then(() => {
      if (!this.#closed) this.#grace ??= setTimeout(() => this.#drained.abort(), OUTPUT_GRACE_MS);
    });
  }

  /** Kills the tree, once (also what is left of it after the child ended); why it failed, or undefined. */
  kill(): Promise<string | undefined> {
    return this.#killing ??= killTree(this.child, this.grouped);
  }

  /** The output is read: no grace to wait for. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#grace);
  }
}

/** What {@link collect} read. */
export interface Collected {
  bytes: Uint8Array;
  /** Bytes the stream carried (including what was not kept). */
  total: number;
  truncated: boolean;
}

/**
 * Reads `stream` to its end, keeping at most `max` bytes (the head, or with `keepTail` the tail); once `stop`
 * aborts, it stops reading (a process that left the tree may hold the stream open) and returns what it has.
 */
export async function collect(
  stream: ReadableStream<Uint8Array>,
  stop: AbortSignal,
  max = Infinity,
  keepTail = false,
): Promise<Collected> {
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
  return { bytes: concatBytes(chunks), total, truncated: total > kept };
}
