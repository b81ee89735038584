/**
 * `mcp_servers` — the upstream MCP servers and the tools this session's profile may
 * use through the gateway: each as a `server/tool` target with its capability
 * (`mcp.read` or `mcp.call`), its `schema_sha256`, and for writes its verifiers.
 * Tools that are not granted, whose grant went stale, or whose verifiers no longer
 * apply are not listed. See docs/gateway.md.
 *
 * @module
 */
import type { z } from "zod";
import { ServersDocument } from "../lib/gateway/schemas.ts";
import { formatParam } from "./_run.ts";
import { defineTool, READ_ONLY } from "./_tool.ts";

/** The `mcp_servers` tool. */
export const mcpServersTool = defineTool({
  name: "mcp_servers",
  title: "Upstream MCP tools granted to this session",
  description:
    "List the upstream MCP servers registered with poly's gateway and the tools this session's profile may use: each as a target \"server/tool\" with capability mcp.read (call it with mcp_read) or mcp.call (call it with mcp_call and a verification block), its schema_sha256, and for writes the read tools that verify them. Ask for one tool's full schema with mcp_describe. Mirrors `poly servers list` and `poly grants list`.",
  level: "read",
  annotations: READ_ONLY,
  inputSchema: { format: formatParam },
  outputSchema: ServersDocument,
  async handler(args, ctx) {
    const gw = await import("../lib/gateway/mod.ts");
    const session = await gw.openGatewaySession({ dir: ctx.root, config: ctx.defaultConfig });
    const tools = gw.toolsForProfile(session.db, session.profile);
    const doc: z.infer<typeof ServersDocument> = {
      profile: {
        name: session.profile.name,
        ...(session.profile.description ? { description: session.profile.description } : {}),
        implicit: session.profile.implicit,
      },
      servers: gw.listServers(session.db).map((s) => ({
        name: s.name,
        transport: s.transport,
        auth: s.auth,
        ...(s.oauth_status ? { oauth_status: s.oauth_status } : {}),
        revision: s.revision,
        unresolved_operations: s.unresolved_operations,
        tools: tools.filter((t) => t.server === s.name),
      })),
    };
    return { structured: doc, format: args.format ?? "json" };
  },
});
