/**
 * Registers a long-running tool as an MCP Task (`execution.taskSupport:
 * "optional"`): a `tools/call` with `params.task` gets a task handle at once and
 * the work continues in the background (`tasks/get`, `tasks/result`,
 * `tasks/cancel`); a call without it is answered by the SDK polling the same
 * task, so clients without the tasks capability get a blocking result.
 *
 * Progress notifications use the call's progress token for the task's lifetime
 * and, for a task the client asked for, carry the related-task `_meta` the
 * 2025-11-25 Tasks specification requires.
 * `notifications/tasks/status` goes only to clients that declared the tasks capability.
 * Cancelling the task — or the blocking request — aborts the handler's signal,
 * which stops the task's child processes.
 *
 * @module
 */
import type { z } from "zod";
import type { ToolDef } from "../_tool.ts";
import { type CallEnv, callTool, contextFor, type Extra } from "./_call.ts";
import type {
  CallToolResult,
  CreateTaskRequestHandlerExtra,
  McpServer,
  RequestId,
  SdkToolAnnotations,
} from "./_sdk.ts";
import type { PolyTaskStore } from "./task_store.ts";

/** How often the blocking fallback polls its task (ms). */
export const BLOCKING_POLL_MS = 100;

/** How often a task client is asked to poll (ms). */
export const TASK_POLL_MS = 500;

/** Registration config shared with plain tools. */
export interface TaskToolConfig {
  title: string;
  description: string;
  inputSchema: z.ZodObject;
  outputSchema: z.ZodObject;
  annotations: SdkToolAnnotations;
}

/** Registers `def` as a task tool on `server`, backed by `store`. */
export function registerTaskTool(
  server: McpServer,
  def: ToolDef,
  config: TaskToolConfig,
  env: CallEnv,
  store: PolyTaskStore,
  isTaskRequest: (id: RequestId) => boolean,
): void {
  server.experimental.tasks.registerToolTask(
    def.name,
    { ...config, execution: { taskSupport: "optional" } },
    {
      createTask: async (args: unknown, extra: CreateTaskRequestHandlerExtra) => {
        // The SDK does not tell createTask whether the call asked for a task (the
        // blocking fallback calls it too); the guard does.
        const blocking = !isTaskRequest(extra.requestId);
        await env.ready?.();
        const task = await extra.taskStore.createTask({
          ttl: null,
          pollInterval: blocking ? BLOCKING_POLL_MS : TASK_POLL_MS,
        });
        const signal = store.signalFor(task.taskId);
        // The blocking request cancelled (or its connection closed): cancel the task too.
        const onAbort = () => void store.cancel(task.taskId, "The request was cancelled").catch(() => {});
        extra.signal.addEventListener("abort", onAbort, { once: true });
        // A task's progress notifications name it (`io.modelcontextprotocol/related-task`).
        const ctx = contextFor(env, extra as Extra, signal, blocking ? undefined : task.taskId);
        void (async () => {
          let result: CallToolResult;
          try {
            result = await callTool(def, args, env, ctx);
          } finally {
            extra.signal.removeEventListener("abort", onAbort);
          }
          const status = result.isError ? "failed" : "completed";
          // The request-scoped store also sends notifications/tasks/status: only to clients that negotiated tasks.
          const quiet = signal.aborted || !server.server.getClientCapabilities()?.tasks;
          try {
            if (quiet) await store.storeTaskResult(task.taskId, status, result);
            else await extra.taskStore.storeTaskResult(task.taskId, status, result);
          } catch {
            // Evicted or already final: nothing left to record.
          }
        })();
        return { task };
      },
      getTask: async (_args: unknown, extra) => await extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_args: unknown, extra) =>
        (await extra.taskStore.getTaskResult(extra.taskId)) as CallToolResult,
    },
  );
}
