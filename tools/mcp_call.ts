/**
 * `mcp_call` — propose and dispatch a write to a write-granted upstream tool, with
 * the verification that proves it: which read tool to call afterwards, its arguments,
 * the `result_path` to look at and the `expected` value. The outcome is `confirmed`,
 * `mismatch`, or `unknown` (further writes to that server wait until a person
 * resolves it with `poly ops resolve`). See docs/gateway.md.
 *
 * @module
 */
import {
  ArgumentsParam,
  CallDocument,
  Sha256,
  TargetParam,
  TimeoutParam,
  VerificationParam,
} from "../lib/gateway/schemas.ts";
import { formatParam } from "./_run.ts";
import { defineTool } from "./_tool.ts";
import { lazy } from "../lib/lazy/mod.ts";

/** The `mcp_call` tool. */
export const mcpCallTool = defineTool({
  name: "mcp_call",
  title: "Call a write-granted upstream MCP tool, verified",
  description:
    'Call an upstream tool granted as write (capability mcp.call in mcp_servers). Give its target "server/tool", the schema_sha256 from mcp_describe, its arguments, and a verification block: a read tool of the same server from the tool\'s verifiers, its arguments, the result_path to read in its result, and the expected value. The live schemas are checked before anything is sent. The write is confirmed only when the verifier shows the expected value; if that cannot be established the operation is recorded as unknown and further writes to that server are refused until a person resolves it (poly ops resolve).',
  level: "act",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  inputSchema: {
    target: TargetParam,
    schema_sha256: Sha256.describe("The schema_sha256 mcp_describe returned for this tool."),
    arguments: ArgumentsParam,
    verification: VerificationParam,
    timeout_ms: TimeoutParam,
    format: formatParam,
  },
  outputSchema: CallDocument,
  async handler(args, ctx) {
    const gw = await lazy.gateway();
    if (!Object.hasOwn(args.verification, "expected")) {
      throw new gw.GatewayError("invalid_request", "verification.expected is required (use null to expect null)");
    }
    const session = await gw.openGatewaySession({ dir: ctx.root, config: ctx.defaultConfig });
    const out = await gw.callTool(gw.dispatchContext(session, args.timeout_ms, ctx.signal), {
      target: args.target,
      schema_sha256: args.schema_sha256,
      arguments: args.arguments,
      verification: {
        tool: args.verification.tool,
        arguments: args.verification.arguments ?? {},
        result_path: args.verification.result_path,
        expected: args.verification.expected,
      },
    });
    const op = out.operation;
    return {
      structured: {
        operation: {
          id: op.id,
          status: op.status,
          target: `${op.server}/${op.tool}`,
          tool_id: op.tool_id,
          schema_sha256: op.fingerprint,
          profile: op.profile,
          created_at: op.created_at,
          ...(op.detail ? { detail: op.detail } : {}),
        },
        ...(out.result ? { result: out.result } : {}),
        verification: out.verification,
        message: out.message,
      },
      format: args.format ?? "json",
      isError: op.status !== "confirmed",
    };
  },
});
