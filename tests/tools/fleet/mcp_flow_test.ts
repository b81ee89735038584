/**
 * The fleet through the real server: `poly mcp` started as users start it (deno
 * run with the program's own permission set), an SDK client over stdio, the
 * fake engine CLIs on PATH and a fake HOME. One flow: delegate → follow_up →
 * rate → bridge_stats; plus a read-only explore and a quota failure as a tool error.
 */
import assert from "node:assert/strict";
import { serverEnv, type ServerProcess, startServer } from "../../serve/_client.ts";
import { sharedSnapshot } from "../../serve/_snapshot.ts";
import { FAKE_PATH, makeHome, makeWorkspace } from "../../fleet/_helpers.ts";
import { bwrapTest } from "../../_helpers/bwrap.ts";

type Structured = Record<string, unknown> & { error?: { kind: string; message: string; usable_engines?: string[] } };

const FLEET_TOOLS = [
  "delegate",
  "fast_delegate",
  "explore",
  "read_slice",
  "run_filtered",
  "web_lookup",
  "decide",
  "generate_image",
  "fan_out",
  "follow_up",
  "bridge_stats",
  "rate",
];

/** Calls a tool; a result without structured content (a server-level refusal) fails loudly. */
async function callTool(server: ServerProcess, name: string, args: Record<string, unknown>) {
  const r = await server.client.callTool({ name, arguments: args });
  if (r.isError && !r.structuredContent) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
  return { isError: r.isError === true, doc: r.structuredContent as Structured };
}

bwrapTest("poly mcp: delegate → follow_up → rate → bridge_stats in one flow", async () => {
  const root = await makeWorkspace();
  const env = await serverEnv({ HOME: await makeHome(), PATH: FAKE_PATH, POLY_TIMEOUT_MS: "60000" });
  // From a snapshot of the program: edits to the working tree cannot make the server refuse calls.
  const server = await startServer({ cwd: root, env, command: (await sharedSnapshot()).command });
  try {
    const { tools } = await server.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of FLEET_TOOLS) assert.ok(byName.has(name), `${name} is not listed`);
    assert.equal(byName.get("explore")?.annotations?.readOnlyHint, true);
    assert.equal(byName.get("explore")?.annotations?.openWorldHint, true);
    assert.equal(byName.get("delegate")?.annotations?.readOnlyHint, false);
    assert.equal(byName.get("bridge_stats")?.annotations?.openWorldHint, false);
    assert.ok(byName.get("delegate")?.outputSchema, "delegate has an output schema");

    const call = (name: string, args: Record<string, unknown>) => callTool(server, name, args);

    const first = await call("delegate", { prompt: "add a greeting", level: 1 });
    assert.equal(first.isError, false, JSON.stringify(first.doc));
    assert.match(String(first.doc.answer), /^codex answer \(model gpt-6-luna, effort max\): add a greeting/);
    const handle = String(first.doc.session_id);
    assert.match(handle, /^codex:/);

    const next = await call("follow_up", { session_id: handle, prompt: "now say goodbye" });
    assert.equal(next.isError, false, JSON.stringify(next.doc));
    assert.match(String(next.doc.answer), new RegExp(`^resumed ${handle.slice(6)} at turn 2 after "add a greeting`));

    const rated = await call("rate", { session_id: handle, score: 4 });
    const { poly, ...ratedDoc } = rated.doc as Record<string, unknown>;
    assert.equal(typeof (poly as { pid: number }).pid, "number", "the identity block is in the document");
    assert.deepEqual(ratedDoc, { session_id: handle, score: 4, tool: "delegate", engine: "codex" });

    const stats = await call("bridge_stats", {});
    const tools_ = stats.doc.tools as {
      tool: string;
      calls: number;
      out_chars: number;
      raw_chars: number;
      ratings: { count: number; mean: number };
    }[];
    const delegateStats = tools_.find((t) => t.tool === "delegate")!;
    assert.equal(delegateStats.calls, 1);
    assert.deepEqual([delegateStats.ratings.count, delegateStats.ratings.mean], [1, 4]);
    assert.ok(delegateStats.raw_chars > 0 && delegateStats.out_chars > 0);
    assert.equal(tools_.find((t) => t.tool === "follow_up")?.calls, 1);
    assert.equal(tools_.find((t) => t.tool === "rate")?.calls, 1);

    const ro = await call("explore", { question: "[[write]]" });
    assert.match(String(ro.doc.answer), /^write: EROFS/);
    assert.equal(ro.doc.engine, "codex");

    const quota = await call("delegate", { prompt: "more [[quota]]", level: 2 });
    assert.equal(quota.isError, true);
    assert.equal(quota.doc.error?.kind, "quota_exhausted");
    assert.ok(quota.doc.error?.usable_engines?.includes("claude"));
    assert.match(quota.doc.error!.message, /Switch with level: 4/);
  } finally {
    await server.close();
  }
});
