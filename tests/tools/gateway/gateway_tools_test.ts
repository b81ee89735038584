import assert from "node:assert/strict";
import { join } from "node:path";
import { z } from "zod";
import type { ToolContext, ToolDef } from "../../../tools/_tool.ts";
import { TOOLS } from "../../../tools/mod.ts";
import { approvedCalls } from "../../../tools/serve/approved.ts";
import { mcpServersTool } from "../../../tools/mcp_servers.ts";
import { mcpDescribeTool } from "../../../tools/mcp_describe.ts";
import { mcpReadTool } from "../../../tools/mcp_read.ts";
import { mcpCallTool } from "../../../tools/mcp_call.ts";
import { MAX_MCP_SCHEMAS, SchemaWindow } from "../../../lib/gateway/schema_window.ts";
import {
  addServer,
  catalogOf,
  GatewayError,
  OUTCOME_UNCERTAIN,
  requireServer,
  setGrant,
  setPreauthorization,
} from "../../../lib/gateway/mod.ts";
import { accessStores, approveProposal, type ProposalView } from "../../../lib/access/mod.ts";
import { openStore, storePath } from "../../../lib/store/mod.ts";
import { freshStore, makeFixture } from "../../gateway/_fixture.ts";
import type { ServersDocument } from "../../../lib/gateway/schemas.ts";
import { bwrapTest } from "../../_helpers/bwrap.ts";
import { withProcessEnv } from "../../_helpers/process_env.ts";
import { tempDir } from "../../_helpers/temp.ts";

function openedStore() {
  return Promise.resolve({ db: openStore({ path: storePath() }) });
}

function context(root: string): ToolContext {
  return { root, signal: new AbortController().signal, progress: () => Promise.resolve() };
}

async function call(tool: ToolDef, args: Record<string, unknown>, ctx: ToolContext) {
  const parsed = z.object(tool.inputSchema).parse(args);
  const out = await tool.handler(parsed, ctx);
  tool.outputSchema.parse(out.structured);
  return out;
}

async function workspace(toml = ""): Promise<string> {
  const root = await tempDir({ prefix: "poly-gw-ws-" });
  await Deno.mkdir(join(root, ".git"));
  await Deno.writeTextFile(join(root, "poly.toml"), toml);
  return root;
}

async function registered() {
  const { db, home } = await freshStore();
  const fx = await makeFixture();
  await addServer(db, { name: "fx", command: fx.commandLine, cwd: fx.dir });
  const pins = Object.fromEntries(catalogOf(db, "fx").map((t) => [t.name, t.fingerprint]));
  let rev =
    setGrant(db, { server: "fx", tool: "get_title", mode: "read", fingerprint: pins.get_title, expectedRevision: 1 })
      .revision;
  rev =
    setGrant(db, { server: "fx", tool: "get_count", mode: "read", fingerprint: pins.get_count, expectedRevision: rev })
      .revision;
  setGrant(db, {
    server: "fx",
    tool: "set_title",
    mode: "write",
    fingerprint: pins.set_title,
    verifiers: ["get_title"],
    expectedRevision: rev,
  });
  return { db, home, fx, pins };
}

/**
 * A test of the gateway tools, which find the store through POLY_STATE_HOME: a registered
 * fixture server in a fresh store, the environment pointing at it (and no gateway profile
 * chosen) for the whole body.
 */
function gatewayTest(name: string, body: (reg: Awaited<ReturnType<typeof registered>>) => Promise<void>) {
  bwrapTest(name, async () => {
    const reg = await registered();
    await withProcessEnv({ POLY_STATE_HOME: reg.home, POLY_GATEWAY_PROFILE: undefined }, () => body(reg));
  });
}

Deno.test("the gateway tools are registered with their levels", () => {
  const byName = new Map(TOOLS.map((t) => [t.name, t]));
  assert.equal(byName.get("mcp_servers")?.level, "read");
  assert.equal(byName.get("mcp_describe")?.level, "read");
  assert.equal(byName.get("mcp_read")?.level, "read");
  assert.equal(byName.get("mcp_call")?.level, "act");
  assert.equal(byName.get("mcp_call")?.annotations.destructiveHint, true);
});

gatewayTest("mcp_servers, mcp_describe, mcp_read and mcp_call work for the default profile", async ({ fx, pins }) => {
  const ctx = context(await workspace());
  const servers = (await call(mcpServersTool, {}, ctx)).structured as z.infer<typeof ServersDocument>;
  assert.equal(servers.profile.name, "default");
  assert.equal(servers.profile.implicit, true);
  assert.deepEqual(servers.servers[0].tools.map((t: { target: string }) => t.target), [
    "fx/get_title",
    "fx/set_title",
    "fx/get_count",
  ]);

  const desc = (await call(mcpDescribeTool, { target: "fx/set_title" }, ctx)).structured as {
    schema_sha256: string;
    verifiers: string[];
  };
  assert.equal(desc.schema_sha256, pins.set_title);
  assert.deepEqual(desc.verifiers, ["fx/get_title"]);

  const read = await call(mcpReadTool, { target: "fx/get_title", schema_sha256: pins.get_title }, ctx);
  assert.equal(read.isError, false);
  assert.deepEqual((read.structured as { result: { structuredContent: unknown } }).result.structuredContent, {
    value: "first",
  });

  // Over stdio (no caller) a write is a proposed operation: nothing is sent until a person approves it.
  const calls = fx.calls().length;
  const proposed = await call(mcpCallTool, {
    target: "fx/set_title",
    schema_sha256: pins.set_title,
    arguments: { value: "from mcp" },
    verification: { tool: "get_title", arguments: {}, result_path: "$.value", expected: "from mcp" },
  }, ctx);
  assert.equal(proposed.isError, undefined);
  const doc = proposed.structured as { proposal: ProposalView; operation?: unknown; message: string };
  assert.equal(doc.operation, undefined);
  assert.equal(doc.proposal.status, "pending");
  assert.equal(doc.proposal.proposed_by, "owner (stdio)");
  assert.equal(doc.proposal.preview.kind, "upstream_call");
  assert.equal(doc.proposal.preview.target, "fx/set_title");
  assert.deepEqual(doc.proposal.preview.arguments, { value: "from mcp" });
  assert.equal((doc.proposal.preview.verification as { expected: unknown }).expected, "from mcp");
  assert.equal(doc.proposal.preview.profile, "default");
  assert.match(doc.message, /poly approvals approve prop_/);
  assert.equal(fx.calls().length, calls, "nothing reached the upstream");
  assert.equal(fx.state().data?.title, "first");

  // Approved (as poly approvals approve does): it runs exactly as proposed; the operation records the approval.
  const approved = await approveProposal(accessStores(), doc.proposal.id, {
    by: "owner (cli)",
    calls: approvedCalls(TOOLS),
  });
  assert.equal(approved.result.isError, false, JSON.stringify(approved.result));
  const ran = approved.result.document as { operation: { status: string; authorization: unknown } };
  assert.equal(ran.operation.status, "confirmed");
  assert.deepEqual(ran.operation.authorization, { kind: "approved", proposal: doc.proposal.id, by: "owner (cli)" });
  assert.equal(fx.state().data?.title, "from mcp");

  // A pre-authorization on the grant lets matching writes through unattended, and says so.
  const { db } = await openedStore();
  const rev = requireServer(db, "fx").revision;
  setPreauthorization(db, {
    server: "fx",
    tool: "set_title",
    by: "ana",
    until: new Date(Date.now() + 3_600_000).toISOString(),
    where: [{ path: "value", equals: "unattended" }],
    expectedRevision: rev,
  });
  const other = await call(mcpCallTool, {
    target: "fx/set_title",
    schema_sha256: pins.set_title,
    arguments: { value: "not covered" },
    verification: { tool: "get_title", result_path: "$.value", expected: "not covered" },
  }, ctx);
  assert.ok((other.structured as { proposal?: unknown }).proposal, "a write outside the constraints is proposed");
  assert.match((other.structured as { message: string }).message, /argument value is "not covered"/);
  const write = await call(mcpCallTool, {
    target: "fx/set_title",
    schema_sha256: pins.set_title,
    arguments: { value: "unattended" },
    verification: { tool: "get_title", arguments: {}, result_path: "$.value", expected: "unattended" },
  }, ctx);
  assert.equal(write.isError, false);
  const op = (write.structured as { operation: { status: string; authorization: Record<string, unknown> } }).operation;
  assert.equal(op.status, "confirmed");
  assert.equal(op.authorization.kind, "preauthorized");
  assert.equal(op.authorization.by, "ana");
  assert.deepEqual(op.authorization.where, [{ path: "value", equals: "unattended" }]);
  assert.equal(fx.state().data?.title, "unattended");
  setPreauthorization(db, {
    server: "fx",
    tool: "set_title",
    by: "ana",
    until: new Date(Date.now() + 3_600_000).toISOString(),
    expectedRevision: requireServer(db, "fx").revision,
  });

  fx.update((s) => {
    s.handlers!.get_title = { get: "title", delay_ms: 3000 };
  });
  const unsure = await call(mcpCallTool, {
    target: "fx/set_title",
    schema_sha256: pins.set_title,
    arguments: { value: "late" },
    verification: { tool: "fx/get_title", result_path: "value", expected: "late" },
    timeout_ms: 300,
  }, ctx);
  assert.equal(unsure.isError, true);
  assert.equal((unsure.structured as { message: string }).message, OUTCOME_UNCERTAIN);
  await assert.rejects(
    call(mcpCallTool, {
      target: "fx/set_title",
      schema_sha256: pins.set_title,
      arguments: { value: "again" },
      verification: { tool: "get_title", result_path: "value", expected: "again" },
    }, ctx),
    (e: unknown) => e instanceof GatewayError && e.code === "unresolved_mutation",
  );
});

gatewayTest("a profile from poly.toml narrows the gateway tools (POLY_GATEWAY_PROFILE)", async ({ pins }) => {
  const ctx = context(
    await workspace('[gateway.profiles.reviewer]\ndescription = "reads titles"\nread = ["fx/get_title"]\n'),
  );
  Deno.env.set("POLY_GATEWAY_PROFILE", "reviewer"); // restored by gatewayTest
  const servers = (await call(mcpServersTool, {}, ctx)).structured as z.infer<typeof ServersDocument>;
  assert.equal(servers.profile.name, "reviewer");
  assert.equal(servers.profile.description, "reads titles");
  assert.deepEqual(servers.servers[0].tools.map((t: { target: string }) => t.target), ["fx/get_title"]);
  await assert.rejects(
    call(mcpDescribeTool, { target: "fx/set_title" }, ctx),
    (e: unknown) => e instanceof GatewayError && e.code === "profile",
  );
  await assert.rejects(
    call(mcpReadTool, { target: "fx/get_count", schema_sha256: pins.get_count }, ctx),
    (e: unknown) => e instanceof GatewayError && e.code === "profile",
  );
  Deno.env.set("POLY_GATEWAY_PROFILE", "ghost");
  await assert.rejects(
    call(mcpServersTool, {}, ctx),
    (e: unknown) => e instanceof GatewayError && /Profile "ghost" is not defined/.test(e.message),
  );
});

gatewayTest(
  "mcp_describe hands one session at most MAX_MCP_SCHEMAS schemas at once and names the one it drops",
  async () => {
    const root = await workspace();
    const ctx = { ...context(root), session: `s-${crypto.randomUUID()}`, schemas: new SchemaWindow() };
    type Described = { schemas: { max: number; held: string[]; dropped?: string }; message: string };
    const describe = async (target: string, c: ToolContext = ctx) =>
      (await call(mcpDescribeTool, { target }, c)).structured as Described;
    assert.equal(MAX_MCP_SCHEMAS, 2);
    assert.deepEqual((await describe("fx/get_title")).schemas, { max: 2, held: ["fx/get_title"] });
    assert.deepEqual((await describe("fx/set_title")).schemas, { max: 2, held: ["fx/get_title", "fx/set_title"] });
    // Describing a held schema again drops nothing.
    assert.deepEqual((await describe("fx/get_title")).schemas, { max: 2, held: ["fx/set_title", "fx/get_title"] });
    const third = await describe("fx/get_count");
    assert.deepEqual(third.schemas, { max: 2, held: ["fx/get_title", "fx/get_count"], dropped: "fx/set_title" });
    assert.match(third.message, /at most 2 upstream schemas at once/);
    assert.match(third.message, /schema of fx\/set_title was dropped/);
    // Another session has its own window.
    const other = await describe("fx/set_title", {
      ...context(root),
      session: `s-${crypto.randomUUID()}`,
      schemas: new SchemaWindow(),
    });
    assert.deepEqual(other.schemas, { max: 2, held: ["fx/set_title"] });
  },
);
