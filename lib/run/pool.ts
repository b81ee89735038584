/**
 * Runs file tasks in parallel: small runs on the main thread, larger ones on a
 * pool of workers that pull from one queue. Outcomes come back in task order,
 * so the report is deterministic whatever the scheduling.
 *
 * @module
 */
import { type FileOutcome, type FileTask, processFile } from "./file.ts";

/** Options for {@link runTasks}. */
export interface PoolOptions {
  /** Upper bound on workers; default the CPU count. */
  jobs?: number;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/** Below this many files a worker's start-up (engine load) costs more than it saves. */
export const WORKER_THRESHOLD = 48;

function cancelled(task: FileTask): FileOutcome {
  const error = "cancelled before this file was processed";
  return { relPath: task.relPath, checked: false, error, record: { path: task.relPath, error } };
}

/** Processes every task; never rejects for a per-file problem. */
export async function runTasks(tasks: FileTask[], options: PoolOptions = {}): Promise<FileOutcome[]> {
  const jobs = Math.max(1, options.jobs ?? navigator.hardwareConcurrency ?? 1);
  const outcomes = new Array<FileOutcome>(tasks.length);
  let done = 0;
  const finish = (i: number, outcome: FileOutcome) => {
    outcomes[i] = outcome;
    options.onProgress?.(++done, tasks.length);
  };
  const workers = Math.min(jobs, Math.ceil(tasks.length / (WORKER_THRESHOLD / 2)));
  if (jobs === 1 || tasks.length < WORKER_THRESHOLD || workers < 2) {
    for (let i = 0; i < tasks.length; i++) {
      finish(i, options.signal?.aborted ? cancelled(tasks[i]) : await processFile(tasks[i]));
    }
    return outcomes;
  }
  let next = 0;
  const url = new URL("./worker.ts", import.meta.url).href;
  const runWorker = () =>
    new Promise<void>((resolve) => {
      const worker = new Worker(url, { type: "module" });
      let current = -1;
      const stop = () => {
        worker.terminate();
        if (current >= 0 && outcomes[current] === undefined) finish(current, cancelled(tasks[current]));
        resolve();
      };
      const feed = () => {
        if (options.signal?.aborted || next >= tasks.length) return stop();
        current = next++;
        worker.postMessage({ id: current, task: tasks[current] });
      };
      worker.onmessage = (event: MessageEvent<{ id: number; outcome: FileOutcome }>) => {
        finish(event.data.id, event.data.outcome);
        feed();
      };
      worker.onerror = (event) => {
        event.preventDefault();
        if (current >= 0 && outcomes[current] === undefined) {
          const error = `internal error: worker crashed: ${event.message}`;
          finish(current, { relPath: tasks[current].relPath, checked: false, error, record: { path: tasks[current].relPath, error } });
        }
        worker.terminate();
        resolve();
      };
      options.signal?.addEventListener("abort", stop, { once: true });
      feed();
    });
  await Promise.all(Array.from({ length: workers }, runWorker));
  // A crashed worker leaves its queue share to the others; anything still unassigned is run here.
  for (let i = 0; i < tasks.length; i++) {
    if (outcomes[i] === undefined) finish(i, options.signal?.aborted ? cancelled(tasks[i]) : await processFile(tasks[i]));
  }
  return outcomes;
}
