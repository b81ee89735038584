/**
 * `mcp_describe` — one granted upstream tool's full definition (as the server sent
 * it) and its `schema_sha256`, which `mcp_read` and `mcp_call` must pass back so the
 * call is pinned to the schema that was read. See docs/gateway.md.
 *
 * @module
 */
import { DescribeDocument, TargetParam } from "../lib/gateway/schemas.ts";
import { formatParam } from "./_run.ts";
import { defineTool, READ_ONLY } from "./_tool.ts";
import { MAX_MCP_SCHEMAS, SchemaWindow } from "../lib/gateway/schema_window.ts";

/** The `mcp_describe` tool. */
export const mcpDescribeTool = defineTool({
  name: "mcp_describe",
  title: "Schema of a granted upstream MCP tool",
  description:
    "Return one granted upstream tool's definition exactly as its server sent it (name, title, description, input and output schemas, annotations) and its schema_sha256. Pass that schema_sha256 to mcp_read or mcp_call: a call is refused if the tool changed since. For a write tool the result lists the read tools that may verify it. A session holds at most " +
    MAX_MCP_SCHEMAS +
    " upstream schemas at once: describing another drops the least recently described one, and the answer names it (forget it; describe it again before calling that tool).",
  level: "read",
  annotations: READ_ONLY,
  inputSchema: { target: TargetParam, format: formatParam },
  outputSchema: DescribeDocument,
  async handler(args, ctx) {
    const gw = await import("../lib/gateway/mod.ts");
    const session = await gw.openGatewaySession({ dir: ctx.root, config: ctx.defaultConfig });
    const described = gw.describeTarget(session.db, session.profile, args.target);
    // Without a server (an in-process call) there is no session to remember schemas across calls.
    const schemas = (ctx.schemas ?? new SchemaWindow()).hold(described.target);
    const message = `This session holds at most ${schemas.max} upstream schemas at once (${schemas.held.join(", ")})` +
      (schemas.dropped
        ? `; the schema of ${schemas.dropped} was dropped: forget it, and describe it again before calling that tool.`
        : ".");
    return { structured: { ...described, schemas, message }, format: args.format ?? "json" };
  },
});
