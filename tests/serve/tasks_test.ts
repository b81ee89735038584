/**
 * The whole-project tools as MCP Tasks, against a real `poly mcp` process:
 * create, get, list, progress and cancel, which must stop the job's whole
 * process tree — for a task and for a blocking call alike. (The blocking
 * fallback over real cargo clippy and go vet runs is in stdio_test.ts.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyFixture } from "../_helpers/cli.ts";
import { CallToolResultSchema, RELATED_TASK_META_KEY } from "../../tools/serve/_sdk_client.ts";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/experimental/tasks";
import { startServer } from "./_client.ts";
import { sharedSnapshot } from "./_snapshot.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Whether a process is gone (or a zombie nobody reaped yet), asked of `ps`. */
function processGone(pid: number): boolean {
  const out = new Deno.Command("ps", { args: ["-o", "stat=", "-p", String(pid)], stdout: "piped", stderr: "null" })
    .outputSync();
  const state = new TextDecoder().decode(out.stdout).trim();
  return state === "" || state.startsWith("Z");
}

async function readPid(root: string): Promise<number | undefined> {
  try {
    const text = (await Deno.readTextFile(join(root, "sleep.pid"))).trim();
    return text ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}

Deno.test(
  "workspace_lint as a task: create, get, list, progress, cancel stops the process tree; blocking calls too",
  opts,
  async () => {
    const snap = await sharedSnapshot();
    const root = await copyFixture("workspace/slow");
    const server = await startServer({ cwd: root, command: snap.command });
    try {
      const progress: { progress: number; total?: number; message?: string; _meta?: Record<string, unknown> }[] = [];
      const created = await server.client.request(
        { method: "tools/call", params: { name: "workspace_lint", arguments: {}, task: { ttl: 600_000 } } },
        CreateTaskResultSchema,
        { onprogress: (p) => void progress.push(p) },
      );
      const taskId = created.task.taskId;
      assert.equal(created.task.status, "working");
      assert.equal(created.task.ttl, null, "unlimited TTL");

      const pid = await waitFor("the job's sleep to start", () => readPid(root));
      assert.ok(!processGone(pid), "the job is running");
      const got = await server.client.experimental.tasks.getTask(taskId);
      assert.equal(got.status, "working");
      const listed = await server.client.experimental.tasks.listTasks();
      assert.ok(listed.tasks.some((t) => t.taskId === taskId));
      await waitFor("a progress notification", () => Promise.resolve(progress.length > 0 ? true : undefined));
      assert.equal(progress[0].total, 1);
      assert.deepEqual(
        progress[0]._meta?.[RELATED_TASK_META_KEY],
        { taskId },
        "a task's progress names the task (related-task _meta)",
      );

      const cancelled = await server.client.experimental.tasks.cancelTask(taskId);
      assert.equal(cancelled.status, "cancelled");
      await waitFor(
        "the job's process tree to stop",
        () => Promise.resolve(processGone(pid) ? true : undefined),
        15_000,
      );
      assert.equal((await server.client.experimental.tasks.getTask(taskId)).status, "cancelled");
      const result = await server.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
      assert.equal(result.isError, true);
      // The result is the report of the stopped run, naming the cancelled job.
      const report = result.structuredContent as {
        workspace?: { jobs: { name: string; status: string }[] };
        errors: { path: string; message: string }[];
      };
      assert.ok(report, "structuredContent after a cancel");
      assert.deepEqual(report.workspace?.jobs.map((j) => [j.name, j.status]), [["sleepy", "cancelled"]]);
      assert.ok(report.errors.some((e) => /sleepy/.test(`${e.path} ${e.message}`)), JSON.stringify(report.errors));
      assert.equal(typeof (result._meta?.poly as { pid?: number })?.pid, "number");

      // The same tool called without `task` blocks; cancelling that request stops the tree too.
      await Deno.remove(join(root, "sleep.pid"));
      const abort = new AbortController();
      const call = server.client.callTool({ name: "workspace_lint", arguments: {} }, undefined, {
        signal: abort.signal,
      });
      const blockingPid = await waitFor("the job's sleep to start", () => readPid(root));
      assert.ok(!processGone(blockingPid), "the job is running");
      abort.abort();
      await assert.rejects(call);
      await waitFor(
        "the job's process tree to stop",
        () => Promise.resolve(processGone(blockingPid) ? true : undefined),
        15_000,
      );
    } finally {
      await server.close();
    }
  },
);
