/**
 * The server's MCP task store: the SDK's `TaskStore` contract, plus what the
 * in-memory store of the SDK lacks for poly's long-running tools:
 *
 * - every task has an unlimited TTL (`ttl: null`): a multi-minute workspace run's
 *   result stays available until the server exits; to bound memory only the
 *   newest {@link MAX_FINISHED} finished tasks are kept;
 * - `tasks/cancel` aborts the task's {@link AbortSignal}, which stops its child
 *   process trees;
 * - a cancelled task still gets its result once the work has stopped (the
 *   report naming the cancelled jobs): `tasks/result` waits for it (bounded);
 *   after that wait its result says only that it was cancelled.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import type { CallToolResult, CreateTaskOptions, Request, RequestId, Result, Task, TaskStore } from "./_sdk.ts";

/** Finished tasks kept (oldest dropped first). */
export const MAX_FINISHED = 256;

interface Stored {
  task: Task;
  sessionId?: string;
  result?: Result;
  controller: AbortController;
  /** Resolves when the work has recorded its result (after a cancel too). */
  settled: Promise<void>;
  settle: () => void;
}

/** How long `tasks/result` of a cancelled task waits for its work to stop and report (ms). */
export const CANCELLED_RESULT_WAIT_MS = 15_000;

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** Whether a task status is final. */
export function isTerminal(status: Task["status"]): boolean {
  return TERMINAL.has(status);
}

/** The result a cancelled task has until its work has stopped. */
export function cancelledResult(message = "The task was cancelled: its processes are being stopped."): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** An in-memory task store with cancellation signals and unlimited TTL. */
export class PolyTaskStore implements TaskStore {
  readonly #tasks = new Map<string, Stored>();
  readonly #pollInterval: number;

  readonly #cancelWait: number;

  constructor(options: { pollInterval?: number; cancelWait?: number } = {}) {
    this.#pollInterval = options.pollInterval ?? 500;
    this.#cancelWait = options.cancelWait ?? CANCELLED_RESULT_WAIT_MS;
  }

  #lookup(taskId: string, sessionId?: string): Stored | undefined {
    const stored = this.#tasks.get(taskId);
    if (stored && sessionId !== undefined && stored.sessionId !== undefined && stored.sessionId !== sessionId) {
      return undefined;
    }
    return stored;
  }

  #touch(stored: Stored): void {
    stored.task.lastUpdatedAt = new Date().toISOString();
  }

  #evict(): void {
    const finished = [...this.#tasks.entries()].filter(([, s]) => isTerminal(s.task.status));
    for (const [id] of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED))) this.#tasks.delete(id);
  }

  createTask(params: CreateTaskOptions, _requestId: RequestId, _request: Request, sessionId?: string): Promise<Task> {
    const now = new Date().toISOString();
    const task: Task = {
      taskId: randomUUID(),
      status: "working",
      ttl: null,
      createdAt: now,
      lastUpdatedAt: now,
      pollInterval: params.pollInterval ?? this.#pollInterval,
    };
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    this.#tasks.set(task.taskId, { task, sessionId, controller: new AbortController(), settled, settle });
    return Promise.resolve({ ...task });
  }

  getTask(taskId: string, sessionId?: string): Promise<Task | null> {
    const stored = this.#lookup(taskId, sessionId);
    return Promise.resolve(stored ? { ...stored.task } : null);
  }

  storeTaskResult(taskId: string, status: "completed" | "failed", result: Result, sessionId?: string): Promise<void> {
    const stored = this.#lookup(taskId, sessionId);
    if (!stored) return Promise.reject(new Error(`Task "${taskId}" not found`));
    if (stored.task.status === "cancelled") {
      // The work stopped after a cancel: keep the status, record what it reported.
      stored.result = result;
      this.#touch(stored);
      stored.settle();
      return Promise.resolve();
    }
    if (isTerminal(stored.task.status)) {
      return Promise.reject(new Error(`Task "${taskId}" already finished with status "${stored.task.status}"`));
    }
    stored.result = result;
    stored.task.status = status;
    this.#touch(stored);
    stored.settle();
    this.#evict();
    return Promise.resolve();
  }

  /**
   * The task's result. For a cancelled task whose work is still stopping, waits
   * for it (at most {@link CANCELLED_RESULT_WAIT_MS}) so the result is the report
   * naming the cancelled jobs, not a bare "cancelled".
   */
  async getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    const stored = this.#lookup(taskId, sessionId);
    if (!stored) throw new Error(`Task "${taskId}" not found`);
    if (stored.result) return stored.result;
    if (stored.task.status === "cancelled") {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([stored.settled, new Promise((resolve) => (timer = setTimeout(resolve, this.#cancelWait)))]);
      clearTimeout(timer);
      return stored.result ?? cancelledResult(stored.task.statusMessage);
    }
    throw new Error(`Task "${taskId}" has no result yet (status "${stored.task.status}")`);
  }

  updateTaskStatus(taskId: string, status: Task["status"], statusMessage?: string, sessionId?: string): Promise<void> {
    const stored = this.#lookup(taskId, sessionId);
    if (!stored) return Promise.reject(new Error(`Task "${taskId}" not found`));
    if (isTerminal(stored.task.status)) {
      return Promise.reject(
        new Error(
          `Task "${taskId}" already finished with status "${stored.task.status}"; it cannot become "${status}"`,
        ),
      );
    }
    stored.task.status = status;
    if (statusMessage) stored.task.statusMessage = statusMessage;
    this.#touch(stored);
    if (status === "cancelled") stored.controller.abort(new Error(statusMessage ?? "Task cancelled"));
    if (isTerminal(status)) this.#evict();
    return Promise.resolve();
  }

  listTasks(cursor?: string, sessionId?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const ids = [...this.#tasks.keys()].filter((id) => this.#lookup(id, sessionId));
    const page = 50;
    let start = 0;
    if (cursor) {
      const at = ids.indexOf(cursor);
      if (at < 0) return Promise.reject(new Error(`Invalid cursor "${cursor}"`));
      start = at + 1;
    }
    const slice = ids.slice(start, start + page);
    return Promise.resolve({
      tasks: slice.map((id) => ({ ...this.#tasks.get(id)!.task })),
      nextCursor: start + page < ids.length ? slice.at(-1) : undefined,
    });
  }

  /** Aborted when the task is cancelled (or the server shuts down). */
  signalFor(taskId: string): AbortSignal {
    const stored = this.#tasks.get(taskId);
    if (!stored) throw new Error(`Task "${taskId}" not found`);
    return stored.controller.signal;
  }

  /** Cancels a working task (a blocking call whose request was cancelled, or shutdown). */
  async cancel(taskId: string, message: string): Promise<void> {
    const stored = this.#tasks.get(taskId);
    if (!stored || isTerminal(stored.task.status)) return;
    await this.updateTaskStatus(taskId, "cancelled", message);
  }

  /** Cancels every working task (server shutdown): their process trees are stopped. */
  async cancelAll(message = "The server is shutting down"): Promise<void> {
    for (const id of [...this.#tasks.keys()]) await this.cancel(id, message);
  }

  /** Number of tasks still working. */
  get working(): number {
    return [...this.#tasks.values()].filter((s) => !isTerminal(s.task.status)).length;
  }
}
