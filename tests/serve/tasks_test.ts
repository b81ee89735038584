/**
 * The whole-project tools as MCP Tasks, against a real `poly mcp` process:
 * create, get, progress, cancel (which must stop the job's whole process tree),
 * and the blocking fallback for a client without the tasks capability — over
 * real cargo clippy and go vet runs when those toolchains are installed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyFixture } from "../_helpers/cli.ts";
import { Report } from "../../lib/report/schema.ts";
import { CallToolResultSchema } from "../../lib/serve/_sdk.ts";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/experimental/tasks";
import { which } from "../../lib/workspace/_which.ts";
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

Deno.test("workspace_lint as a task: create, get, progress, cancel stops the process tree", opts, async () => {
  const snap = await sharedSnapshot();
  const root = await copyFixture("workspace/slow");
  const server = await startServer({ cwd: root, command: snap.command });
  try {
    const progress: { progress: number; total?: number; message?: string }[] = [];
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

    const cancelled = await server.client.experimental.tasks.cancelTask(taskId);
    assert.equal(cancelled.status, "cancelled");
    await waitFor("the job's process tree to stop", () => Promise.resolve(processGone(pid) ? true : undefined), 15_000);
    assert.equal((await server.client.experimental.tasks.getTask(taskId)).status, "cancelled");
    const result = await server.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    assert.equal(result.isError, true);
  } finally {
    await server.close();
  }
});

Deno.test("cancelling a blocking workspace_lint call stops its process tree too", opts, async () => {
  const snap = await sharedSnapshot();
  const root = await copyFixture("workspace/slow");
  const server = await startServer({ cwd: root, command: snap.command, tasks: false });
  try {
    const abort = new AbortController();
    const call = server.client.callTool({ name: "workspace_lint", arguments: {} }, undefined, { signal: abort.signal });
    const pid = await waitFor("the job's sleep to start", () => readPid(root));
    assert.ok(!processGone(pid), "the job is running");
    abort.abort();
    await assert.rejects(call);
    await waitFor("the job's process tree to stop", () => Promise.resolve(processGone(pid) ? true : undefined), 15_000);
  } finally {
    await server.close();
  }
});

Deno.test("workspace_lint answers blocking without the tasks capability, over real projects", opts, async () => {
  const snap = await sharedSnapshot();
  const root = await copyFixture("workspace/projects");
  const server = await startServer({ cwd: root, command: snap.command, tasks: false });
  try {
    const progress: number[] = [];
    const raw = await server.client.callTool(
      { name: "workspace_lint", arguments: { jobs: 2 } },
      undefined,
      { onprogress: (p) => void progress.push(p.progress), timeout: 300_000 },
    );
    const report = Report.parse(raw.structuredContent);
    assert.equal(report.kind, "workspace");
    assert.equal(report.mode, "check");
    const jobs = new Map(report.workspace!.jobs.map((j) => [j.name, j]));
    assert.equal(jobs.get("greet")?.status, "passed");
    assert.equal(jobs.get("broken")?.status, "failed");
    assert.match(jobs.get("broken")?.output ?? "", /this job fails/);
    assert.equal(raw.isError, false, "failed jobs are findings, not errors");
    if (which("cargo") && which("cargo-clippy")) {
      const clippy = jobs.get("clippy:rs")!;
      assert.equal(clippy.status, "passed", JSON.stringify(clippy));
      assert.ok(clippy.diagnostics?.some((d) => d.code === "clippy::len_zero" && d.path === "rs/src/main.rs"));
      const file = report.results.find((r) => r.path === "rs/src/main.rs");
      assert.ok(file?.diagnostics?.some((d) => d.engine === "clippy" && d.span?.start_line === 3));
    } else {
      assert.equal(jobs.get("clippy:rs")?.status, "skipped");
    }
    if (which("go")) {
      const vet = jobs.get("go-vet:go")!;
      assert.equal(vet.status, "failed");
      assert.ok(
        vet.diagnostics?.some((d) => d.code === "printf" && d.path === "go/main.go" && d.span?.start_line === 7),
      );
    } else {
      assert.equal(jobs.get("go-vet:go")?.status, "skipped");
    }
    for (const tool of ["cargo-sort", "cargo-machete", "cargo-deny"]) {
      const job = jobs.get(`${tool}:rs`)!;
      if (!which(tool)) {
        assert.equal(job.status, "skipped");
        assert.equal(job.reason, `${tool} not found on PATH`);
        assert.ok(report.skipped.some((s) => s.reason === `${tool}:rs: ${tool} not found on PATH`));
      }
    }
    assert.ok(progress.length >= 2, "progress was reported");
  } finally {
    await server.close();
  }
});
