/**
 * Runs file tasks in parallel: small calls on the main thread, larger ones on a
 * pool of workers that pull from one queue. Outcomes come back in task order,
 * so the report is deterministic whatever the scheduling.
 *
 * A {@link Pool} outlives one call: a run that goes through its files window by
 * window (lib/run/mod.ts) gives each window's tasks to the same workers, which
 * keep their engines (and their result caches) loaded until {@link Pool.close}.
 *
 * @module
 */
import { CANCELLED } from "../process/run_signal.ts";
import { sourcePath } from "../identity/code.ts";
import { pathToFileURL } from "../paths/path.ts";
import { closeCaches, failed, type FileOutcome, type FileTask, processFile } from "./file.ts";

/** Options for a {@link Pool}. */
export interface PoolOptions {
  /** Upper bound on workers; default the CPU count. */
  jobs?: number;
  /** Once aborted, files not yet given to a thread (and those the workers hold) are reported cancelled. */
  signal?: AbortSignal;
  /** Nothing else runs on this thread meanwhile: it takes up to {@link ONE_SHOT_WORKER_THRESHOLD} files itself. */
  oneShot?: boolean;
}

/**
 * Below this many files a worker's start-up (engine load) costs more than it saves, in a process whose main thread
 * serves others while it runs (`poly mcp`, `poly serve`, `poly daemon`: files on it hold their requests).
 */
export const WORKER_THRESHOLD = 48;

/**
 * The same for a one-shot run (`poly lint`, `poly fmt` in their own process), whose main thread has nothing else to
 * do while the pool runs. A worker loads poly's modules and its engines again, and ruff's start there (its
 * WebAssembly compiled, its settings parsed, its first check) is ~0.3 s of CPU; on 2 cores this thread alone was ahead
 * of two workers at 60, 120 and 240 Python files, and behind them at 480 (docs/performance.md).
 */
export const ONE_SHOT_WORKER_THRESHOLD = 256;

type Reply = { id: number; outcome: FileOutcome } | { closed: { hits: number; misses: number } };

/** One call's tasks as the workers pull them. */
interface Batch {
  tasks: FileTask[];
  outcomes: FileOutcome[];
  next: number;
  done: number;
  finish(i: number, outcome: FileOutcome): void;
}

/** One worker of a {@link Pool}: the task it runs now (index into the current batch), if any. */
interface Slot {
  worker: Worker;
  current: number;
  /** Settles once the worker has stopped (closed, crashed). */
  ended: Promise<void>;
  alive: boolean;
}

/**
 * Workers kept across calls of {@link Pool.run}. Workers start on the first
 * call with enough tasks ({@link WORKER_THRESHOLD}, or {@link ONE_SHOT_WORKER_THRESHOLD}
 * with `oneShot`); a call with fewer runs on this thread, unless workers are up
 * already (they have the engines loaded). {@link Pool.close} stops them and
 * returns the cache counters of every thread.
 */
export class Pool {
  readonly #jobs: number;
  readonly #signal?: AbortSignal;
  readonly #threshold: number;
  readonly #slots: Slot[] = [];
  readonly #cache = { hits: 0, misses: 0 };
  #batch?: Batch;
  /** Resolves the current batch's wait once every slot is idle or gone. */
  #idle?: () => void;

  constructor(options: PoolOptions = {}) {
    this.#jobs = Math.max(1, options.jobs ?? navigator.hardwareConcurrency ?? 1);
    this.#signal = options.signal;
    this.#threshold = options.oneShot ? ONE_SHOT_WORKER_THRESHOLD : WORKER_THRESHOLD;
  }

  /** Processes every task (never rejects for a per-file problem); outcomes in task order. */
  async run(tasks: FileTask[], onProgress?: (done: number, total: number) => void): Promise<FileOutcome[]> {
    const outcomes = new Array<FileOutcome>(tasks.length);
    const batch: Batch = {
      tasks,
      outcomes,
      next: 0,
      done: 0,
      finish(i, outcome) {
        outcomes[i] = outcome;
        onProgress?.(++batch.done, tasks.length);
      },
    };
    const wanted = Math.min(this.#jobs, Math.ceil(tasks.length / (this.#threshold / 2)));
    const alive = this.#slots.filter((s) => s.alive).length;
    // Workers already started take a small call too: this thread would load the same engines again.
    if (tasks.length > 0 && (alive > 0 || (this.#jobs > 1 && tasks.length >= this.#threshold && wanted >= 2))) {
      for (let n = alive; n < wanted; n++) this.#start();
      this.#batch = batch;
      const idle = new Promise<void>((resolve) => (this.#idle = resolve));
      // Once cancelled, the files the workers hold are reported cancelled now (their late replies are dropped).
      const cancel = () => {
        for (const slot of this.#slots) {
          if (slot.current >= 0 && outcomes[slot.current] === undefined) {
            batch.finish(slot.current, failed(tasks[slot.current], CANCELLED));
          }
          slot.current = -1;
        }
        this.#checkIdle();
      };
      this.#signal?.addEventListener("abort", cancel, { once: true });
      for (const slot of this.#slots) if (slot.alive) this.#feed(slot);
      this.#checkIdle();
      await idle;
      this.#signal?.removeEventListener("abort", cancel);
      this.#batch = undefined;
    }
    // The small-run path, and anything a crashed worker left unassigned, run on this thread.
    for (let i = 0; i < tasks.length; i++) {
      if (outcomes[i] !== undefined) continue;
      batch.finish(i, this.#signal?.aborted ? failed(tasks[i], CANCELLED) : await processFile(tasks[i]));
    }
    return outcomes;
  }

  /** Stops the workers and closes this thread's caches; the result-cache hits and misses of every thread. */
  async close(): Promise<{ hits: number; misses: number }> {
    await Promise.all(
      this.#slots.filter((s) => s.alive).map((slot) => {
        slot.worker.postMessage({ close: true });
        return slot.ended;
      }),
    );
    const own = await closeCaches();
    this.#cache.hits += own.hits;
    this.#cache.misses += own.misses;
    return { ...this.#cache };
  }

  #start(): void {
    // From the program's source even when the program runs from a bundle (lib/identity/launch.ts).
    const url = pathToFileURL(sourcePath("lib/run/worker.ts")).href;
    const worker = new Worker(url, { type: "module" });
    let end!: () => void;
    const slot: Slot = { worker, current: -1, ended: new Promise((resolve) => (end = resolve)), alive: true };
    const stop = () => {
      slot.alive = false;
      slot.current = -1;
      worker.terminate();
      end();
      this.#checkIdle();
    };
    worker.onmessage = (event: MessageEvent<Reply>) => {
      if ("closed" in event.data) {
        this.#cache.hits += event.data.closed.hits;
        this.#cache.misses += event.data.closed.misses;
        return stop();
      }
      const batch = this.#batch;
      if (batch && slot.current === event.data.id) batch.finish(event.data.id, event.data.outcome);
      slot.current = -1;
      this.#feed(slot);
      this.#checkIdle();
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const batch = this.#batch;
      if (batch && slot.current >= 0 && batch.outcomes[slot.current] === undefined) {
        batch.finish(
          slot.current,
          failed(batch.tasks[slot.current], `internal error: worker crashed: ${event.message}`),
        );
      }
      stop();
    };
    this.#slots.push(slot);
  }

  /** Gives an idle worker the next task of the current batch, if there is one and the run goes on. */
  #feed(slot: Slot): void {
    const batch = this.#batch;
    if (!batch || !slot.alive || slot.current >= 0) return;
    if (this.#signal?.aborted || batch.next >= batch.tasks.length) return;
    slot.current = batch.next++;
    slot.worker.postMessage({ id: slot.current, task: batch.tasks[slot.current] });
  }

  #checkIdle(): void {
    if (!this.#idle) return;
    if (this.#slots.some((s) => s.alive && s.current >= 0)) return;
    const batch = this.#batch;
    // Once cancelled, the task a worker was given last is reported cancelled (as before, when the pool closed).
    if (batch && !this.#signal?.aborted && batch.next < batch.tasks.length && this.#slots.some((s) => s.alive)) {
      return;
    }
    const resolve = this.#idle;
    this.#idle = undefined;
    resolve();
  }
}
