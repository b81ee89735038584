/**
 * Task status notifications go only to clients that negotiated the tasks
 * capability: a blocking workspace_lint from a client without it gets its result
 * and no `notifications/tasks/status`.
 */
import assert from "node:assert/strict";
import { copyFixture } from "../_helpers/cli.ts";
import { Client, InMemoryTransport } from "../../tools/serve/_sdk_client.ts";
import { createPolyServer } from "../../tools/serve/mod.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

async function notificationsOf(root: string, capabilities: Record<string, unknown>): Promise<string[]> {
  const { server, tasks } = createPolyServer({ root, fingerprint: false });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "poly-tests", version: "1.0.0" }, { capabilities });
  const seen: string[] = [];
  client.fallbackNotificationHandler = (n) => {
    seen.push(n.method);
    return Promise.resolve();
  };
  await client.connect(clientSide);
  try {
    const r = await client.callTool({ name: "workspace_lint", arguments: {} });
    assert.ok(r.structuredContent, "a blocking result");
    await new Promise((resolve) => setTimeout(resolve, 50));
    return seen;
  } finally {
    await tasks.cancelAll();
    await client.close();
    await server.close();
  }
}

Deno.test("notifications/tasks/status reach only clients that negotiated tasks", opts, async () => {
  const root = await copyFixture("workspace/mcp");
  const without = await notificationsOf(root, {});
  assert.ok(!without.includes("notifications/tasks/status"), `sent: ${without.join(", ")}`);
  const withTasks = await notificationsOf(root, { tasks: { list: {}, cancel: {} } });
  assert.ok(withTasks.includes("notifications/tasks/status"), `sent: ${withTasks.join(", ")}`);
});
