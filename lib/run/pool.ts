/**
 * Runs file tasks in parallel: small runs on the main thread, larger ones on a
 * pool of workers that pull from one queue. Outcomes come back in task order,
 * so the report is deterministic whatever the scheduling.
 *
 * @module
 */
import { closeCaches, failed, type FileOutcome, type FileTask, processFile } from "./file.ts";

/** Options for {@link runTasks}. */
export interface PoolOptions {
  /** Upper bound on workers; default the CPU count. */
  jobs?: number;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/** What {@link runTasks} returns. */
export interface PoolResult {
  /** One outcome per task, in task order. */
  outcomes: FileOutcome[];
  /** Result-cache hits and misses over all threads. */
  cache: { hits: number; misses: number };
}

/** Below this many files a worker's start-up (engine load) costs more than it saves. */
export const WORKER_THRESHOLD = 48;

const CANCELLED = "cancelled before this file was processed";

type Reply = { id: number; outcome: FileOutcome } | { closed: { hits: number; misses: number } };

/** Processes every task; never rejects for a per-file problem. */
export async function runTasks(tasks: FileTask[], options: PoolOptions = {}): Promise<PoolResult> {
  const jobs = Math.max(1, options.jobs ?? navigator.hardwareConcurrency ?? 1);
  const outcomes = new Array<FileOutcome>(tasks.length);
  const cache = { hits: 0, misses: 0 };
  let done = 0;
  const finish = (i: number, outcome: FileOutcome) => {
    outcomes[i] = outcome;
    options.onProgress?.(++done, tasks.length);
  };
  const runHere = async (i: number) =>
    finish(i, options.signal?.aborted ? failed(tasks[i], CANCELLED) : await processFile(tasks[i]));
  const addCounters = (c: { hits: number; misses: number }) => {
    cache.hits += c.hits;
    cache.misses += c.misses;
  };

  const workers = Math.min(jobs, Math.ceil(tasks.length / (WORKER_THRESHOLD / 2)));
  if (jobs > 1 && tasks.length >= WORKER_THRESHOLD && workers >= 2) {
    let next = 0;
    const url = new URL("./worker.ts", import.meta.url).href;
    const runWorker = () =>
      new Promise<void>((resolve) => {
        const worker = new Worker(url, { type: "module" });
        let current = -1;
        let closing = false;
        const end = () => {
          worker.terminate();
          resolve();
        };
        const close = () => {
          if (closing) return;
          closing = true;
          if (current >= 0 && outcomes[current] === undefined) finish(current, failed(tasks[current], CANCELLED));
          worker.postMessage({ close: true });
        };
        const feed = () => {
          if (options.signal?.aborted || next >= tasks.length) return close();
          current = next++;
          worker.postMessage({ id: current, task: tasks[current] });
        };
        worker.onmessage = (event: MessageEvent<Reply>) => {
          if ("closed" in event.data) {
            addCounters(event.data.closed);
            return end();
          }
          finish(event.data.id, event.data.outcome);
          feed();
        };
        worker.onerror = (event) => {
          event.preventDefault();
          if (current >= 0 && outcomes[current] === undefined) {
            finish(current, failed(tasks[current], `internal error: worker crashed: ${event.message}`));
          }
          end();
        };
        options.signal?.addEventListener("abort", close, { once: true });
        feed();
      });
    await Promise.all(Array.from({ length: workers }, runWorker));
  }
  // The small-run path, and anything a crashed worker left unassigned, run on this thread.
  for (let i = 0; i < tasks.length; i++) if (outcomes[i] === undefined) await runHere(i);
  addCounters(await closeCaches());
  return { outcomes, cache };
}
