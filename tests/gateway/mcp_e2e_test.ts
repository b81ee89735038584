import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { polyCommand, runPoly } from "../_helpers/cli.ts";
import { addServer, catalogOf, OUTCOME_UNCERTAIN, SCHEMA_CHANGED, setGrant } from "../../lib/gateway/mod.ts";
import { openStore } from "../../lib/store/mod.ts";
import { makeFixture } from "./_fixture.ts";
import { bwrapTest } from "../_helpers/bwrap.ts";
import { withProcessEnv } from "../_helpers/process_env.ts";
import { tempDir } from "../_helpers/temp.ts";

type Result = {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text?: string }[];
};

async function connect(root: string, env: Record<string, string>): Promise<Client> {
  const [exe, ...rest] = polyCommand();
  const passthrough: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "DENO_DIR", "TMPDIR"]) {
    const value = Deno.env.get(name);
    if (value) passthrough[name] = value;
  }
  const transport = new StdioClientTransport({
    command: exe,
    args: [...rest, "mcp"],
    cwd: root,
    env: { ...passthrough, NO_COLOR: "1", ...env },
    stderr: "inherit",
  });
  const client = new Client({ name: "gateway-e2e", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

function text(result: Result): string {
  return result.content.map((c) => c.text ?? "").join("\n");
}

bwrapTest("the gateway through the real poly mcp process with an SDK client", async () => {
  const base = await tempDir({ prefix: "poly-gw-e2e-" });
  const env = { POLY_STATE_HOME: join(base, "state"), POLY_CACHE_HOME: join(base, "cache") };
  const root = join(base, "ws");
  await Deno.mkdir(join(root, ".git"), { recursive: true });
  await Deno.writeTextFile(join(root, "poly.toml"), '[gateway.profiles.reviewer]\nread = ["fx/get_title"]\n');

  // Registered and granted as an administrator would (library on the same store).
  const fx = await makeFixture();
  await withProcessEnv({ POLY_STATE_HOME: env.POLY_STATE_HOME }, async () => {
    const db = openStore({ path: join(env.POLY_STATE_HOME, "poly.db") });
    await addServer(db, { name: "fx", command: fx.commandLine, cwd: fx.dir });
    const pin = Object.fromEntries(catalogOf(db, "fx").map((t) => [t.name, t.fingerprint]));
    const rev =
      setGrant(db, { server: "fx", tool: "get_title", mode: "read", fingerprint: pin.get_title, expectedRevision: 1 })
        .revision;
    setGrant(db, {
      server: "fx",
      tool: "set_title",
      mode: "write",
      fingerprint: pin.set_title,
      verifiers: ["get_title"],
      expectedRevision: rev,
    });
    db.close();

    const client = await connect(root, env);
    try {
      const tools = (await client.listTools()).tools;
      const byName = new Map(tools.map((t) => [t.name, t]));
      for (const name of ["mcp_servers", "mcp_describe", "mcp_read", "mcp_call"]) assert.ok(byName.has(name), name);
      assert.equal(byName.get("mcp_call")?.annotations?.destructiveHint, true);
      assert.equal(byName.get("mcp_read")?.annotations?.readOnlyHint, true);

      const servers = await client.callTool({ name: "mcp_servers", arguments: {} }) as Result;
      assert.equal(servers.isError, false, text(servers));
      const listed =
        (servers.structuredContent!.servers as { tools: { target: string; capability: string }[] }[])[0].tools;
      assert.deepEqual(listed.map((t) => [t.target, t.capability]), [["fx/get_title", "mcp.read"], [
        "fx/set_title",
        "mcp.call",
      ]]);

      const described = await client.callTool({
        name: "mcp_describe",
        arguments: { target: "fx/set_title" },
      }) as Result;
      const schema = described.structuredContent!.schema_sha256 as string;
      assert.equal(schema, pin.set_title);

      const read = await client.callTool({
        name: "mcp_read",
        arguments: { target: "fx/get_title", schema_sha256: pin.get_title },
      }) as Result;
      assert.equal(read.isError, false, text(read));
      assert.match((read.structuredContent!.receipt as { operation: string }).operation, /^op-/);

      const write = (value: string, timeout_ms?: number) =>
        client.callTool({
          name: "mcp_call",
          arguments: {
            target: "fx/set_title",
            schema_sha256: schema,
            arguments: { value },
            verification: { tool: "get_title", arguments: {}, result_path: "$.value", expected: value },
            ...(timeout_ms ? { timeout_ms } : {}),
          },
        }) as Promise<Result>;
      // A write over stdio is a proposed operation; poly approvals approve runs it as proposed.
      const sent = fx.calls().length;
      const proposed = await write("proposed");
      assert.equal(proposed.isError, false, text(proposed));
      const proposal = proposed.structuredContent!.proposal as { id: string; preview: { target: string } };
      assert.equal(proposal.preview.target, "fx/set_title");
      assert.equal(fx.calls().length, sent, "nothing reached the upstream before approval");
      const approved = await runPoly(["approvals", "approve", proposal.id, "--format", "json"], { env, cwd: root });
      assert.equal(approved.code, 0, approved.stderr + approved.stdout);
      assert.equal(fx.state().data?.title, "proposed");
      const opsAll = await runPoly(["ops", "list", "--all", "--format", "json"], { env, cwd: root });
      const recorded = JSON.parse(opsAll.stdout).operations.find((o: { kind: string }) => o.kind === "write");
      assert.deepEqual(recorded.authorization, { kind: "approved", proposal: proposal.id, by: "owner (cli)" });

      // From here on the grant pre-authorizes writes (poly grants preauthorize), so they run unattended.
      const pre = await runPoly(["grants", "preauthorize", "fx", "set_title", "--until", "1d", "--by", "ana"], {
        env,
        cwd: root,
      });
      assert.equal(pre.code, 0, pre.stderr);
      const ok = await write("via poly mcp");
      assert.equal(ok.isError, false, text(ok));
      assert.equal(
        (ok.structuredContent!.operation as { authorization: { kind: string } }).authorization.kind,
        "preauthorized",
      );
      assert.equal((ok.structuredContent!.operation as { status: string }).status, "confirmed");
      assert.equal(fx.state().data?.title, "via poly mcp");

      // A live change of the write tool: refused at dispatch, nothing sent.
      fx.update((s) => {
        s.tools[1].description = "Sets the title. Now also emails everyone.";
      });
      const calls = fx.calls().length;
      const pinned = await write("changed");
      assert.equal(pinned.isError, true);
      assert.ok(text(pinned).includes(SCHEMA_CHANGED), text(pinned));
      assert.equal(fx.calls().length, calls);
      fx.update((s) => {
        s.tools[1].description = "Sets the title.";
        s.handlers!.get_title = { get: "title", delay_ms: 4000 };
      });

      // The verifier times out: unknown; further writes wait until a person resolves it.
      const unsure = await write("slow", 500);
      assert.equal(unsure.isError, true);
      assert.equal(unsure.structuredContent!.message, OUTCOME_UNCERTAIN);
      const id = (unsure.structuredContent!.operation as { id: string; status: string }).id;
      const blocked = await write("blocked");
      assert.equal(blocked.isError, true);
      assert.ok(text(blocked).includes(OUTCOME_UNCERTAIN), text(blocked));

      const ops = await runPoly(["ops", "list", "--format", "json"], { env, cwd: root });
      assert.deepEqual(JSON.parse(ops.stdout).operations.map((o: { id: string }) => o.id), [id]);
      const resolved = await runPoly(["ops", "resolve", id, "--outcome", "applied", "--note", "checked"], {
        env,
        cwd: root,
      });
      assert.equal(resolved.code, 0, resolved.stderr);
      fx.update((s) => {
        s.handlers!.get_title = { get: "title" };
      });
      const after = await write("after");
      assert.equal((after.structuredContent!.operation as { status: string }).status, "confirmed", text(after));
    } finally {
      await client.close();
    }

    // A delegated worker's poly mcp with a profile sees only what the profile grants.
    const worker = await connect(root, { ...env, POLY_GATEWAY_PROFILE: "reviewer" });
    try {
      const servers = await worker.callTool({ name: "mcp_servers", arguments: {} }) as Result;
      const listed = (servers.structuredContent!.servers as { tools: { target: string }[] }[])[0].tools;
      assert.deepEqual(listed.map((t) => t.target), ["fx/get_title"]);
      const refused = await worker.callTool({ name: "mcp_describe", arguments: { target: "fx/set_title" } }) as Result;
      assert.equal(refused.isError, true);
      assert.match(text(refused), /Profile "reviewer" may not use mcp.call on "fx\/set_title"/);
    } finally {
      await worker.close();
    }
  });
});
