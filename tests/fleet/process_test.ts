/**
 * No engine process outlives its timeout or its cancellation, under poly's own
 * permission set (`deno run -P`: the run permission names programs, so
 * `Deno.kill` is refused there). The fake engine's `[[hang]]` scenario never
 * ends and leaves a grandchild appending to a heartbeat file; each test finds
 * every host process of the run by a marker unique to the test (in the prompt and
 * in the workspace path) and proves none is left.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { polyCommand } from "../_helpers/cli.ts";
import { needsBwrap, NO_BWRAP } from "../_helpers/bwrap.ts";
import { serverEnv, startServer } from "../serve/_client.ts";
import { FAKE_PATH, makeHome, makeWorkspace } from "./_helpers.ts";
import { killTree } from "../../lib/process/group.ts";

const noBwrap = NO_BWRAP;

/** Host processes (not zombies) whose command line holds one of `markers` (`ps`: Deno guards /proc). */
async function survivors(markers: string[]): Promise<{ pid: number; cmd: string }[]> {
  const out = await new Deno.Command("ps", { args: ["-eo", "pid=,stat=,args="], stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).split("\n").flatMap((line) => {
    const m = /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (!m || m[2].startsWith("Z") || Number(m[1]) === Deno.pid || m[3].startsWith("ps ")) return [];
    return markers.some((k) => m[3].includes(k)) ? [{ pid: Number(m[1]), cmd: m[3].slice(0, 200) }] : [];
  });
}

/** Kills what a failed test left behind (the test process may: it runs with every permission). */
async function cleanUp(markers: string[]): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const left = await survivors(markers);
    if (left.length === 0) return;
    for (const { pid } of left) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function size(path: string): Promise<number> {
  try {
    return (await Deno.stat(path)).size;
  } catch {
    return -1;
  }
}

async function waitFor(what: string, ok: () => Promise<boolean>, withinMs = 30_000): Promise<void> {
  const until = Date.now() + withinMs;
  while (!(await ok())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Asserts the heartbeat stopped growing and no process of the run is left. */
async function assertNothingSurvives(beat: string, markers: string[]): Promise<void> {
  const a = await size(beat);
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(await size(beat), a, "the engine's grandchild still appends to its heartbeat");
  assert.deepEqual(await survivors(markers), [], "processes of the run are still alive");
}

const CASES = [
  { sandbox: true, scenario: "hang", what: "the whole tree" },
  { sandbox: false, scenario: "hang", what: "the whole process group" },
  // The grandchild starts its own session and holds stdout: the PID namespace still takes it.
  { sandbox: true, scenario: "hang:escape", what: "a grandchild that left the process group too" },
];

for (const c of CASES) {
  Deno.test({
    name: `poly delegate kills ${c.what} of a hung engine on timeout (sandbox ${c.sandbox ? "on" : "off"})${
      needsBwrap(c.sandbox && noBwrap)
    }`,
    ignore: c.sandbox && noBwrap,
    async fn() {
      const cwd = await makeWorkspace();
      const marker = `hang-${crypto.randomUUID()}`;
      const markers = [marker, cwd];
      const beat = join(cwd, "poly-hang-heartbeat.txt");
      const run = await delegateWithTimeout(cwd, `[[${c.scenario}]] ${marker}`, c.sandbox);
      try {
        assert.ok(run.returnedInTime, "poly never returned: the timeout did not stop the engine");
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, /ran longer than 4000 ms \(POLY_TIMEOUT_MS\) and was killed with its process tree/);
        assert.ok((await size(beat)) > 0, "the grandchild never started");
        await assertNothingSurvives(beat, markers);
      } finally {
        await cleanUp(markers);
      }
    },
  });
}

Deno.test("poly delegate returns on timeout even when an unconfined engine's grandchild escaped and holds its output", async () => {
  // Unconfined, a process that starts its own session is out of poly's reach (docs/fleet.md); poly still returns.
  const cwd = await makeWorkspace();
  const marker = `hang-${crypto.randomUUID()}`;
  try {
    const run = await delegateWithTimeout(cwd, `[[hang:escape]] ${marker}`, false);
    assert.ok(run.returnedInTime, "poly never returned: it kept reading the escaped process's output");
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /ran longer than 4000 ms/);
  } finally {
    await cleanUp([marker, cwd]);
  }
});

/** Runs `poly delegate` with POLY_TIMEOUT_MS=4000 under poly's permissions; gives up after 40 s. */
async function delegateWithTimeout(cwd: string, prompt: string, sandbox: boolean) {
  const [exe, ...args] = polyCommand();
  const child = new Deno.Command(exe, {
    args: [...args, "delegate", "--level", "1", prompt],
    cwd,
    env: {
      ...await serverEnv(),
      HOME: await makeHome(),
      PATH: FAKE_PATH,
      POLY_TIMEOUT_MS: "4000",
      POLY_SANDBOX: sandbox ? "bwrap" : "off",
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const started = Date.now();
  const deadline = setTimeout(() => child.kill("SIGKILL"), 40_000);
  try {
    const out = await child.output();
    return {
      returnedInTime: Date.now() - started < 40_000,
      code: out.code,
      stderr: new TextDecoder().decode(out.stderr),
    };
  } finally {
    clearTimeout(deadline);
  }
}

Deno.test({
  name: `cancelling a delegate call over MCP kills the engine's tree while the server keeps running${
    needsBwrap(noBwrap)
  }`,
  ignore: noBwrap,
  async fn() {
    const cwd = await makeWorkspace();
    const marker = `cancel-${crypto.randomUUID()}`;
    const markers = [marker, cwd];
    const beat = join(cwd, "poly-hang-heartbeat.txt");
    const env = await serverEnv({ HOME: await makeHome(), PATH: FAKE_PATH, POLY_TIMEOUT_MS: "600000" });
    const server = await startServer({ cwd, env, tasks: false });
    try {
      const abort = new AbortController();
      const call = server.client.callTool(
        { name: "delegate", arguments: { prompt: `[[hang]] ${marker}`, level: 1 } },
        undefined,
        { signal: abort.signal, timeout: 600_000 },
      );
      await Promise.race([waitFor("the engine's grandchild to start", async () => (await size(beat)) > 0), call]);
      abort.abort();
      await assert.rejects(call);
      await waitFor("the engine's tree to stop", async () => (await survivors(markers)).length === 0, 15_000);
      await assertNothingSurvives(beat, markers);
      // The server is alive and answers.
      assert.ok((await server.client.listTools()).tools.some((t) => t.name === "delegate"));
    } finally {
      await cleanUp(markers);
      await server.close();
    }
  },
});

Deno.test("killTree() reports a kill that failed, and takes a child already gone as no failure", async () => {
  const stubborn = {
    pid: 2 ** 22 + 7, // above pid_max: no such process group
    kill() {
      throw new Deno.errors.PermissionDenied("operation not permitted");
    },
  } as unknown as Deno.ChildProcess;
  assert.match((await killTree(stubborn)) ?? "", /could not kill process 4194311: operation not permitted/);
  const gone = new Deno.Command("true").spawn();
  await gone.status;
  assert.equal(await killTree(gone), undefined);
});
