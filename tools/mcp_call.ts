/**
 * `mcp_call` — a write to a write-granted upstream tool, with the verification that
 * proves it. The write is a proposed operation (lib/access) a person approves, unless
 * the grant pre-authorizes it (lib/gateway/preauth.ts); the operation records which. The
 * verification: which read tool to call afterwards, its arguments,
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
import { defineTool, type ToolContext, type ToolOutput } from "./_tool.ts";
import type { z } from "zod";
import type { Authorization } from "../lib/gateway/preauth.ts";

/** The `mcp_call` tool. */
export const mcpCallTool = defineTool({
  name: "mcp_call",
  title: "Call a write-granted upstream MCP tool, verified",
  description:
    'Call an upstream tool granted as write (capability mcp.call in mcp_servers). Give its target "server/tool", the schema_sha256 from mcp_describe, its arguments, and a verification block: a read tool of the same server from the tool\'s verifiers, its arguments, the result_path to read in its result, and the expected value. The write is a proposed operation: nothing is sent until a person approves it (poly approvals, poly dash, approve_change), unless its grant pre-authorizes such writes; the result then carries the proposal instead of an operation. The live schemas are checked before anything is sent. The write is confirmed only when the verifier shows the expected value; if that cannot be established the operation is recorded as unknown and further writes to that server are refused until a person resolves it (poly ops resolve).',
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
    const gw = await import("../lib/gateway/mod.ts");
    if (!Object.hasOwn(args.verification, "expected")) {
      throw new gw.GatewayError("invalid_request", "verification.expected is required (use null to expect null)");
    }
    const approvedProfile = ctx.approval?.preview.profile;
    const session = await gw.openGatewaySession({
      dir: ctx.root,
      config: ctx.defaultConfig,
      ...(typeof approvedProfile === "string" ? { profile: approvedProfile } : {}),
    });
    const request = {
      target: args.target,
      schema_sha256: args.schema_sha256,
      arguments: args.arguments ?? {},
      verification: {
        tool: args.verification.tool,
        arguments: args.verification.arguments ?? {},
        result_path: args.verification.result_path,
        expected: args.verification.expected,
      },
    };
    let authorization: Authorization;
    if (ctx.approval) {
      authorization = { kind: "approved", proposal: ctx.approval.proposal, by: ctx.approval.by };
    } else {
      // Refuse now what dispatch would refuse, so nobody is asked to approve a write that cannot run.
      const { granted } = gw.checkCall(session.db, session.profile, request);
      const cover = gw.coveredBy(
        gw.preauthorizationOf(session.db, granted.server.name, granted.tool.id),
        request.arguments,
      );
      if (!cover.covered) return await proposeWrite(args, ctx, cover.why);
      authorization = cover.authorization;
    }
    const out = await gw.callTool(gw.dispatchContext(session, args.timeout_ms, ctx.signal), {
      ...request,
      authorization,
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
          authorization,
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

/** Records the write as a proposed operation (lib/access): nothing is sent until a person approves it. */
async function proposeWrite(
  args: Record<string, unknown> & { format?: "json" | "toon" },
  ctx: ToolContext,
  why: string,
): Promise<ToolOutput<z.infer<typeof CallDocument>>> {
  const access = await import("../lib/access/mod.ts");
  const by = ctx.caller ? { member: ctx.caller.member, token: ctx.caller.token } : { member: access.OWNER_STDIO };
  const p = await access.propose(access.accessStores(), mcpCallTool, args, ctx, by);
  return {
    structured: {
      proposal: access.proposalView(p),
      message: `The write to ${String(args.target)} is proposed operation ${p.id} and nothing was sent (${why}). ` +
        `It shows its target, arguments and the verification it will run; a person approves it with ` +
        `poly approvals approve ${p.id}, in poly dash (Access pane), or with approve_change {"id": "${p.id}"} ` +
        `over HTTP, and it then runs exactly as proposed. A grant can pre-authorize such writes: ` +
        `poly grants preauthorize SERVER TOOL --until WHEN.`,
    },
    format: args.format ?? "json",
  };
}
