/**
 * The `shard` argument of the MCP check tools (lint, format_check): the same
 * partition as `poly lint --shard`, and a malformed value is an error report.
 */
import assert from "node:assert/strict";
import { copyFixture } from "../_helpers/cli.ts";
import { Report } from "../../lib/report/schema.ts";
import { inProcess } from "../serve/_client.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test("in-process: lint and format_check with shard i/n cover the unsharded run once", opts, async () => {
  const root = await copyFixture("workspace/mcp");
  const { client, close } = await inProcess({ root, fingerprint: false });
  try {
    for (const name of ["lint", "format_check"]) {
      const call = async (args: Record<string, unknown>) =>
        Report.parse(
          (await client.callTool({ name, arguments: { paths: ["src", "broken", "go"], ...args } }))
            .structuredContent,
        );
      const whole = await call({});
      const parts = [await call({ shard: "1/2" }), await call({ shard: "2/2" })];
      assert.ok(parts.every((p) => p.summary.checked > 0), `${name}: a shard checked nothing`);
      assert.equal(parts[0].summary.checked + parts[1].summary.checked, whole.summary.checked, name);
      assert.deepEqual(
        parts.flatMap((p) => p.results.map((r) => r.path)).sort(),
        whole.results.map((r) => r.path).sort(),
        name,
      );
      const bad = await client.callTool({ name, arguments: { shard: "0/2" } });
      assert.equal(bad.isError, true, name);
    }
  } finally {
    await close();
  }
});
