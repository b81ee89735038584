/**
 * Running the whole-project phase: job outcomes, timeouts and cancellation that
 * stop whole process trees, progress, the outcome cache, and the CLI's phase.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyFixture } from "../_helpers/cli.ts";
import { runTree } from "../../lib/workspace/_spawn.ts";
import { runPlan, runWorkspace, runWorkspacePhase } from "../../lib/workspace/mod.ts";
import type { PlannedJob } from "../../lib/workspace/plan.ts";
import { tempDir } from "../_helpers/temp.ts";

function processGone(pid: number): boolean {
  const out = new Deno.Command("ps", { args: ["-o", "stat=", "-p", String(pid)], stdout: "piped", stderr: "null" })
    .outputSync();
  const state = new TextDecoder().decode(out.stdout).trim();
  return state === "" || state.startsWith("Z");
}

async function waitUntil(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function job(name: string, script: string, dir: string, extra: Partial<PlannedJob> = {}): PlannedJob {
  return {
    name,
    tool: "inline",
    dir,
    rel: ".",
    argv: ["sh", "-c", script],
    timeoutMs: 60_000,
    lock: name,
    cacheable: false,
    judge: (
      r,
    ) => (r.code === 0
      ? { status: "passed", diagnostics: [] }
      : { status: "failed", diagnostics: [], reason: `exit ${r.code}` }),
    ...extra,
  };
}

Deno.test("runTree() returns exit code and output", async () => {
  const r = await runTree(["sh", "-c", "echo out; echo err >&2; exit 4"], { cwd: Deno.cwd() });
  assert.deepEqual([r.code, r.stdout, r.stderr, r.timedOut, r.cancelled], [4, "out\n", "err\n", false, false]);
});

Deno.test("runTree() on timeout stops the whole process tree", async () => {
  const dir = await tempDir();
  const r = await runTree(["sh", "-c", "sleep 60 & echo $! > pid; wait"], { cwd: dir, timeoutMs: 500 });
  assert.equal(r.timedOut, true);
  assert.equal(r.code, null);
  const pid = Number(await Deno.readTextFile(join(dir, "pid")));
  await waitUntil("the grandchild to stop", () => processGone(pid));
});

Deno.test("runTree() on abort stops the whole process tree", async () => {
  const dir = await tempDir();
  const abort = new AbortController();
  const running = runTree(["sh", "-c", "sh -c 'sleep 60' & echo $! > pid; wait"], { cwd: dir, signal: abort.signal });
  await waitUntil(
    "the job to start",
    async () => (await Deno.readTextFile(join(dir, "pid")).catch(() => "")).trim() !== "",
  );
  const pid = Number(await Deno.readTextFile(join(dir, "pid")));
  assert.equal(processGone(pid), false);
  abort.abort();
  const r = await running;
  assert.equal(r.cancelled, true);
  await waitUntil("the grandchild to stop", () => processGone(pid));
});

Deno.test("runPlan() reports passed, failed, skipped, errored (timeout) and keeps plan order", async () => {
  const dir = await tempDir();
  const seen: [number, number, string][] = [];
  const outcome = await runPlan([
    job("ok", "true", dir),
    job("bad", "echo nope >&2; exit 2", dir, {
      judge: (r) => ({ status: "failed", diagnostics: [], reason: `exit ${r.code}`, output: r.stderr.trim() }),
    }),
    job("missing", "true", dir, { skip: "thing not found on PATH", argv: undefined }),
    job("slow", "sleep 30", dir, { timeoutMs: 300 }),
  ], { cwd: dir, jobs: 2, onProgress: (d, t, m) => void seen.push([d, t, m]) });
  assert.deepEqual(outcome.jobs.map((j) => [j.name, j.status, j.reason]), [
    ["ok", "passed", undefined],
    ["bad", "failed", "exit 2"],
    ["missing", "skipped", "thing not found on PATH"],
    ["slow", "errored", "timed out after 0.3 s; its processes were stopped"],
  ]);
  assert.equal(outcome.jobs[1].output, "nope");
  assert.deepEqual(seen[0], [0, 4, "4 jobs planned"]);
  assert.deepEqual(seen.map((s) => s[0]), [0, 1, 2, 3, 4]);
});

Deno.test("runPlan() reports a job whose program does not exist as errored, not failed", async () => {
  const dir = await tempDir();
  const outcome = await runPlan([
    job("argv", "", dir, { argv: ["poly-no-such-program-x", "--check"] }),
    job("line", "poly-no-such-program-y --check", dir),
    job("exits", "exit 3", dir),
  ], { cwd: dir });
  const by = new Map(outcome.jobs.map((j) => [j.name, j]));
  assert.equal(by.get("argv")?.status, "errored");
  assert.match(
    by.get("argv")!.reason!,
    /could not start its program \(exit 127: command not found\).*poly-no-such-program-x/,
  );
  assert.equal(by.get("line")?.status, "errored");
  assert.match(by.get("line")!.reason!, /poly-no-such-program-y/);
  assert.equal(by.get("exits")?.status, "failed", "an ordinary non-zero exit is still a failure");
});

Deno.test("runPlan() after cancellation reports running and pending jobs cancelled", async () => {
  const dir = await tempDir();
  const abort = new AbortController();
  const running = runPlan([job("a", "sleep 30", dir), job("b", "true", dir)], {
    cwd: dir,
    fix: true,
    signal: abort.signal,
  });
  await new Promise((r) => setTimeout(r, 300));
  abort.abort();
  const outcome = await running;
  assert.deepEqual(outcome.jobs.map((j) => [j.name, j.status]), [["a", "cancelled"], ["b", "cancelled"]]);
});

Deno.test("a cacheable job's outcome is reused for identical inputs and never with noCache", async () => {
  const dir = await tempDir();
  await Deno.writeTextFile(join(dir, "input.txt"), "one\n");
  const cache = { dir: join(await tempDir(), "workspace"), build: "test-build" };
  const counter = join(await tempDir(), "runs");
  const make = () => [job("counted", `echo run >> ${counter}`, dir, { cacheable: true })];
  const first = await runPlan(make(), { cwd: dir }, cache);
  const second = await runPlan(make(), { cwd: dir }, cache);
  assert.equal(first.jobs[0].cached, undefined);
  assert.equal(second.jobs[0].cached, true);
  await runPlan(make(), { cwd: dir, noCache: true }, cache);
  await Deno.writeTextFile(join(dir, "input.txt"), "two!\n");
  const changed = await runPlan(make(), { cwd: dir }, cache);
  assert.equal(changed.jobs[0].cached, undefined, "a changed input is a miss");
  await runPlan(make(), { cwd: dir, fix: true }, cache);
  assert.equal((await Deno.readTextFile(counter)).split("\n").filter(Boolean).length, 4);
  const other = await runPlan(make(), { cwd: dir }, { ...cache, build: "another-build" });
  assert.equal(other.jobs[0].cached, undefined, "never across builds");
});

Deno.test("runWorkspace() runs the inline jobs of poly.toml", async () => {
  const root = await copyFixture("workspace/mcp");
  await Deno.remove(join(root, "rs"), { recursive: true });
  await Deno.remove(join(root, "go"), { recursive: true });
  const outcome = await runWorkspace({ cwd: root });
  assert.deepEqual(outcome.jobs.map((j) => [j.name, j.status, j.cwd, j.command]), [
    ["broken", "failed", ".", ["sh", "-c", "echo this job fails >&2; exit 3"]],
    ["greet", "passed", ".", ["sh", "-c", "echo hello from an inline job"]],
  ]);
  assert.equal(outcome.jobs[0].reason, "broken exited with code 3");
});

Deno.test("runWorkspacePhase() turns a config error into an errored job and exit code 2", async () => {
  const root = await tempDir();
  await Deno.writeTextFile(join(root, "poly.toml"), "[workspace.jobs.x]\ncomand = 'true'\n");
  const phase = await runWorkspacePhase({ cwd: root });
  assert.equal(phase.exitCode, 2);
  assert.equal(phase.outcome.jobs[0].name, "workspace");
  assert.equal(phase.outcome.jobs[0].status, "errored");
  assert.match(phase.summary, /^workspace: incomplete \(1 errored\)\n/);
});

Deno.test("a cargo or go job re-runs only when a file of its own project changed", async () => {
  for (const [tool, own, other] of [["clippy", "src/lib.rs", "tools/gen.py"], ["go-vet", "pkg/a.go", "web/app.ts"]]) {
    const dir = await tempDir();
    for (const path of [own, other, "go/nested/go.mod", "go/nested/x.go", "notes.txt"]) {
      await Deno.mkdir(join(dir, path, ".."), { recursive: true });
      await Deno.writeTextFile(join(dir, path), "one\n");
    }
    const cache = { dir: join(await tempDir(), "workspace"), build: "test-build" };
    const make = () => [job(tool, "true", dir, { cacheable: true, tool: tool as PlannedJob["tool"] })];
    await runPlan(make(), { cwd: dir }, cache);
    await Deno.writeTextFile(join(dir, other), "two!\n");
    assert.equal((await runPlan(make(), { cwd: dir }, cache)).jobs[0].cached, true, `${tool}: ${other} is not its own`);
    if (tool === "go-vet") {
      await Deno.writeTextFile(join(dir, "go/nested/x.go"), "two!\n");
      assert.equal(
        (await runPlan(make(), { cwd: dir }, cache)).jobs[0].cached,
        true,
        "a nested module is its own project",
      );
    }
    await Deno.writeTextFile(join(dir, "notes.txt"), "two!\n");
    assert.equal(
      (await runPlan(make(), { cwd: dir }, cache)).jobs[0].cached,
      undefined,
      `${tool}: any other file counts`,
    );
    await Deno.writeTextFile(join(dir, own), "two!\n");
    assert.equal((await runPlan(make(), { cwd: dir }, cache)).jobs[0].cached, undefined, `${tool}: ${own} is its own`);
  }
});

Deno.test("a job that failed for want of a network is errored, says so, and is never cached", async () => {
  const dir = await tempDir();
  const cache = { dir: join(await tempDir(), "workspace"), build: "test-build" };
  const counter = join(await tempDir(), "runs");
  const script =
    `echo run >> ${counter}; echo 'error: failed to get \`serde\` as a dependency of package \`x\`' >&2; ` +
    "echo '  Caused by: Unable to update registry `crates-io`' >&2; exit 101";
  const make = () => [job("clippy", script, dir, { cacheable: true, tool: "clippy" })];
  const first = await runPlan(make(), { cwd: dir }, cache);
  assert.equal(first.jobs[0].status, "errored");
  assert.match(
    first.jobs[0].reason!,
    /could not download what it needs \(no network\?\): error: failed to get `serde`/,
  );
  const second = await runPlan(make(), { cwd: dir }, cache);
  assert.equal(second.jobs[0].cached, undefined);
  assert.equal((await Deno.readTextFile(counter)).split("\n").filter(Boolean).length, 2);
});

Deno.test("runPlan() tells onJob as each job starts and finishes", async () => {
  const dir = await tempDir();
  const events: string[] = [];
  await runPlan(
    [
      job("a", "true", dir),
      job("b", "true", dir, { lock: "a" }),
      job("c", "true", dir, { skip: "off", argv: undefined }),
    ],
    { cwd: dir, jobs: 1, onJob: (e) => void events.push(`${e.name} ${e.state} ${e.done}/${e.total}`) },
  );
  assert.deepEqual(events, ["c finished 1/3", "a started 1/3", "a finished 2/3", "b started 2/3", "b finished 3/3"]);
});

/** Whether the host has Go (a missing program makes Deno's spawn throw at once, not reject). */
function hasGo(): boolean {
  try {
    return new Deno.Command("go", { args: ["version"], stdout: "null", stderr: "null" }).outputSync().success;
  } catch {
    return false;
  }
}

Deno.test({
  name: "the go vet job of a module the host Go cannot read is errored with the cause and the fix, and not cached",
  ignore: !hasGo(),
  async fn() {
    const root = await copyFixture("e2e/gomodule"); // go.mod asks for go 1.99.0
    await Deno.writeTextFile(join(root, "poly.toml"), '[cache]\ndir = ".poly-cache"\n');
    const run = () => runWorkspace({ cwd: root });
    for (let round = 0; round < 2; round++) {
      const job = (await run()).jobs.find((j) => j.name === "go-vet")!;
      assert.equal(job.status, "errored");
      assert.match(
        job.reason!,
        /^go\.mod requires go 1\.99\.0; the host go is \d+\.\d+(\.\d+)?: install Go 1\.99\.0 or newer/,
      );
      assert.equal(job.cached, undefined, `round ${round}`);
    }
  },
});
