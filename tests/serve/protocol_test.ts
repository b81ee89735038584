/**
 * The JSON-RPC edges of `poly mcp` as a real process, spoken to raw: task
 * requests to tools without task support, calls in flight when stdin ends, and
 * malformed requests.
 */
import assert from "node:assert/strict";
import { join, sep as SEP } from "node:path";
import { copyFixture, runPoly } from "../_helpers/cli.ts";
import { call, handshake, type Message, rawSession } from "./_raw.ts";
import { sharedSnapshot } from "./_snapshot.ts";
import { serverEnv } from "./_client.ts";
import { TOOLS } from "../../tools/mod.ts";
import { createPolyServer } from "../../tools/serve/mod.ts";
import { InMemoryTransport } from "../../tools/serve/_sdk_client.ts";
import { tempDir } from "../_helpers/temp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** Every file under `dir` with its bytes, for "nothing changed" checks. */
async function tree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (at: string) => {
    for await (const entry of Deno.readDir(at)) {
      const path = join(at, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile) out.set(path, await Deno.readTextFile(path));
    }
  };
  await walk(dir);
  return out;
}

/** Asserts a JSON-RPC error with `code`, a one-line message matching `pattern`, and the identity in `data._meta.poly`. */
function assertError(message: Message | undefined, code: number, pattern: RegExp): void {
  assert.ok(message, "a response");
  assert.ok(message.error, `an error, got ${JSON.stringify(message).slice(0, 300)}`);
  assert.equal(message.error.code, code, JSON.stringify(message.error).slice(0, 300));
  assert.match(message.error.message, pattern);
  assert.ok(!message.error.message.includes("\n"), `one line: ${message.error.message}`);
  assert.equal(typeof message.error.data?._meta?.poly?.pid, "number", "the identity block in error.data._meta.poly");
}

Deno.test("poly mcp refuses a task request to a tool without task support before it runs", opts, async (t) => {
  const snap = await sharedSnapshot();
  for (const [id, name] of [[1, "format_write"], [2, "lint_fix"]] as const) {
    await t.step(`${name} with params.task: -32601 and no file changed`, async () => {
      const root = await copyFixture("workspace/mcp");
      await Deno.writeTextFile(join(root, "src", "messy.py"), "import os\nx=1\ny = [1,2]\n");
      const before = await tree(root);
      const run = await rawSession([...handshake({ tasks: {} }), call(id, name, {}, { task: { ttl: 1000 } })], {
        cwd: root,
        command: snap.command,
        awaitResponses: 2,
      });
      assertError(run.response(id), -32601, new RegExp(`"${name}" does not support task-augmented calls`));
      assert.deepEqual(await tree(root), before, "no file changed");
    });
  }
  await t.step("cache_clean with params.task: -32601 and the cache is untouched", async () => {
    const root = await copyFixture("workspace/mcp");
    const env = await serverEnv();
    // Fill the cache the way the CLI does, then take what cache_clean would remove
    // (everything but the identity memo, which any server start refreshes).
    const filled = await runPoly(["fmt", "src"], { cwd: root, env });
    assert.ok(filled.code === 0 || filled.code === 1, filled.stderr);
    const cached = async () =>
      new Map([...await tree(env.POLY_CACHE_HOME)].filter(([path]) => !path.includes(`${SEP}identity${SEP}`)));
    const before = await cached();
    assert.ok(before.size > 0, "the cache has entries");
    const run = await rawSession([...handshake({ tasks: {} }), call(3, "cache_clean", {}, { task: { ttl: 1000 } })], {
      cwd: root,
      command: snap.command,
      env,
      awaitResponses: 2,
    });
    assertError(run.response(3), -32601, /"cache_clean" does not support task-augmented calls/);
    assert.deepEqual(await cached(), before, "the cache is untouched");
  });
});

Deno.test("poly mcp answers the calls in flight when stdin ends", opts, async (t) => {
  const snap = await sharedSnapshot();
  const root = await copyFixture("workspace/mcp");
  await t.step("lint, format_check and version sent right before EOF are all answered", async () => {
    const run = await rawSession([
      ...handshake(),
      call(1, "lint", { paths: ["src"] }),
      call(2, "format_check", { paths: ["src"] }),
      call(3, "version"),
    ], { cwd: root, command: snap.command });
    assert.equal(run.code, 0, run.stderr);
    for (const id of [1, 2, 3]) {
      const answer = run.response(id);
      assert.ok(answer?.result, `call ${id} answered: ${JSON.stringify(run.messages.map((m) => m.id))}`);
    }
  });
  await t.step("a lone lint followed by EOF is answered, and the server exits right after", async () => {
    const run = await rawSession([...handshake(), call(1, "lint", { paths: ["src"] })], {
      cwd: root,
      command: snap.command,
    });
    assert.ok(run.response(1)?.result, "lint answered");
    assert.ok(run.exitAfterMs < 8_000, `exited ${run.exitAfterMs} ms after EOF`);
  });
});

Deno.test("poly mcp answers malformed requests with one-line JSON-RPC errors", opts, async () => {
  const snap = await sharedSnapshot();
  const root = await copyFixture("workspace/mcp");
  const run = await rawSession([
    ...handshake(),
    { jsonrpc: "2.0", id: 1 },
    call(2, "lint", [1, 2]),
    call(3, "lint", "paths"),
    call(4, 42, {}),
    call(5, "no_such_tool", {}),
    { jsonrpc: "2.0", id: 6, method: "tasks/get", params: { taskId: 7 } },
    call(7, "lint", { paths: 3 }),
  ], { cwd: root, command: snap.command, awaitResponses: 8 });
  assertError(run.response(1), -32600, /Invalid request/);
  assertError(run.response(2), -32602, /"arguments" .*must be an object/);
  assertError(run.response(3), -32602, /"arguments" .*must be an object/);
  assertError(run.response(4), -32602, /"name" must be a string/);
  assertError(run.response(5), -32602, /Unknown tool "no_such_tool"/);
  assertError(run.response(6), -32602, /taskId/);
  // A well-formed call with a wrong argument type stays a tool error the model can correct.
  const bad = run.response(7)?.result;
  assert.equal(bad?.isError, true);
  assert.match(bad.content[0].text, /Input validation error/);
  assert.equal(typeof bad._meta?.poly?.pid, "number", "SDK-made tool errors carry _meta.poly too");
});

Deno.test("createPolyServer() runs no tool without task support when a call asks for a task", async () => {
  const ran: string[] = [];
  const tools = TOOLS.map((def) => ({ ...def, handler: () => (ran.push(def.name), def.handler as never) }));
  const forbidden = tools.filter((def) => !def.task);
  assert.ok(forbidden.length > 10, "most tools do not run as tasks");
  const { connect, tasks } = createPolyServer({ root: await tempDir(), tools, fingerprint: false });
  const [client, server] = InMemoryTransport.createLinkedPair();
  const answers = new Map<unknown, Message>();
  client.onmessage = (message) => void answers.set((message as Message).id, message as Message);
  await connect(server);
  await client.start();
  for (const [id, message] of handshake({ tasks: {} }).entries()) {
    await client.send({ ...message, ...(message.id ? { id: `init-${id}` } : {}) } as never);
  }
  for (const [i, def] of forbidden.entries()) {
    await client.send(call(i + 1, def.name, {}, { task: { ttl: 1000 } }) as never);
  }
  for (let waited = 0; answers.size < forbidden.length + 1 && waited < 5_000; waited += 20) {
    await new Promise((r) => setTimeout(r, 20));
  }
  for (const [i, def] of forbidden.entries()) {
    const answer = answers.get(i + 1);
    assert.equal(answer?.error?.code, -32601, `${def.name}: ${JSON.stringify(answer).slice(0, 200)}`);
    assert.match(answer.error.message, new RegExp(`Tool "${def.name}" does not support task-augmented calls`));
  }
  assert.deepEqual(ran, [], "no handler ran");
  await tasks.cancelAll();
  await client.close();
});
