/**
 * `mcp_read` — call a read-granted upstream tool, pinned to the schema that was
 * described, and get its result with a receipt (operation id, schema, arguments
 * digest, server revision, times). See docs/gateway.md.
 *
 * @module
 */
import { ArgumentsParam, ReadDocument, Sha256, TargetParam, TimeoutParam } from "../lib/gateway/schemas.ts";
import { formatParam } from "./_run.ts";
import { defineTool } from "./_tool.ts";

/** The `mcp_read` tool. */
export const mcpReadTool = defineTool({
  name: "mcp_read",
  title: "Call a read-granted upstream MCP tool",
  description:
    'Call an upstream tool granted as read (capability mcp.read in mcp_servers). Give its target "server/tool", the schema_sha256 from mcp_describe, and its arguments. The live tool\'s schema is checked again first; the call is refused if it changed. Returns the upstream result and a receipt.',
  level: "read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  inputSchema: {
    target: TargetParam,
    schema_sha256: Sha256.describe("The schema_sha256 mcp_describe returned for this tool."),
    arguments: ArgumentsParam,
    timeout_ms: TimeoutParam,
    format: formatParam,
  },
  outputSchema: ReadDocument,
  async handler(args, ctx) {
    const gw = await import("../lib/gateway/mod.ts");
    const session = await gw.openGatewaySession({ dir: ctx.root, config: ctx.defaultConfig });
    const out = await gw.readTool(gw.dispatchContext(session, args.timeout_ms, ctx.signal), {
      target: args.target,
      schema_sha256: args.schema_sha256,
      arguments: args.arguments,
    });
    return { structured: out, format: args.format ?? "json", isError: out.result.isError === true };
  },
});
