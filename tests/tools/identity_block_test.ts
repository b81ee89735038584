/**
 * Every tool's result carries the identity block in structuredContent and in
 * _meta (README, "MCP"): the fleet, gateway and HTTP tools as well as the lint
 * tools, in their declared output schemas and at run time.
 */
import { withProcessEnv } from "../_helpers/process_env.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { z } from "zod";
import { TOOLS } from "../../tools/mod.ts";
import { guardTools } from "../../tools/serve/http_access.ts";
import { inProcess } from "../serve/_client.ts";
import { copyFixture } from "../_helpers/cli.ts";
import { ALWAYS_LOAD_TOOLS } from "../../lib/fleet/instructions.ts";
import { tempDir } from "../_helpers/temp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test("every tool's output schema declares the poly identity block", () => {
  for (const tool of TOOLS) {
    const schema = tool.outputSchema as z.ZodObject;
    assert.ok(schema instanceof z.ZodObject, `${tool.name}: an object schema`);
    assert.ok("poly" in schema.shape, `${tool.name}: declares poly`);
  }
  // Over HTTP a tool needing approval answers with a proposal: that schema carries it too.
  const guarded = guardTools(TOOLS, { requireApproval: new Set(["lint_fix", "mcp_call"]), stores: () => undefined! });
  for (const name of ["lint_fix", "mcp_call"]) {
    const schema = guarded.find((t) => t.name === name)!.outputSchema as z.ZodObject;
    assert.ok("poly" in schema.shape, `${name} (proposal form): declares poly`);
  }
});

Deno.test("fleet, gateway and HTTP tools return poly in structuredContent, equal to _meta.poly", opts, async () => {
  const root = await copyFixture("workspace/mcp");
  const state = await tempDir({ prefix: "poly-identity-" });
  // The gateway and access tools read the state home and the gateway profile from the environment.
  await withProcessEnv({ POLY_STATE_HOME: join(state, "state"), POLY_GATEWAY_PROFILE: undefined }, async () => {
    const { client, close } = await inProcess({ root, fingerprint: false });
    try {
      for (const name of ["bridge_stats", "mcp_servers", "whoami", "list_approvals"]) {
        const r = await client.callTool({ name, arguments: {} });
        assert.equal(r.isError, false, `${name}: ${JSON.stringify(r.content)}`);
        const poly = (r.structuredContent as { poly?: { pid: number } }).poly;
        assert.ok(poly && typeof poly.pid === "number", `${name}: poly in structuredContent`);
        assert.deepEqual(r._meta?.poly, poly, `${name}: the same block in _meta`);
        const text = JSON.parse((r.content as { text: string }[])[0].text);
        assert.deepEqual(text.poly, poly, `${name}: the text block mirrors it`);
      }
    } finally {
      await close();
    }
  });
});

Deno.test("tools/list marks the core fleet tools alwaysLoad (seed 003) and no others", opts, async () => {
  const root = await copyFixture("workspace/mcp");
  const { client, close } = await inProcess({ root, fingerprint: false });
  try {
    const listed = (await client.listTools()).tools;
    const eager = listed.filter((t) => t._meta?.["anthropic/alwaysLoad"] === true).map((t) => t.name).sort();
    assert.deepEqual(eager, [...ALWAYS_LOAD_TOOLS].sort());
    for (
      const name of ["delegate", "fast_delegate", "explore", "read_slice", "run_filtered", "web_lookup", "fan_out"]
    ) {
      assert.ok(eager.includes(name), name);
    }
  } finally {
    await close();
  }
});
