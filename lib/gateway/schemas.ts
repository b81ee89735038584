/**
 * zod schemas of the documents the gateway's MCP tools return (`mcp_servers`,
 * `mcp_describe`, `mcp_read`, `mcp_call`), shared by the tools and their tests.
 *
 * @module
 */
import { z } from "zod";
import { ProposalSchema } from "../access/schemas.ts";

/** `server/tool`. */
export const TargetParam = z.string().min(3).describe(
  'The tool as "server/tool" (see mcp_servers).',
);

/** A fingerprint / schema_sha256. */
export const Sha256 = z.string().regex(/^[0-9a-fA-F]{64}$/, "expected 64 hex characters");

/** Arguments passed through to an upstream tool. */
export const ArgumentsParam = z.record(z.string(), z.unknown()).optional().describe(
  "Arguments of the upstream tool, as its input schema (from mcp_describe) describes them.",
);

/** A per-call time limit. */
export const TimeoutParam = z.number().int().min(100).max(600_000).optional().describe(
  "Time limit of each upstream call in milliseconds (default: [gateway] timeout_ms, else 60000).",
);

/** One tool a profile may use. */
export const ProfileToolSchema = z.object({
  target: z.string(),
  server: z.string(),
  tool: z.string(),
  tool_id: z.string(),
  capability: z.enum(["mcp.read", "mcp.call"]),
  title: z.string().optional(),
  description: z.string().optional(),
  schema_sha256: z.string(),
  verifiers: z.array(z.string()).optional(),
});

/** `mcp_servers`. */
export const ServersDocument = z.object({
  profile: z.object({ name: z.string(), description: z.string().optional(), implicit: z.boolean() }),
  servers: z.array(z.object({
    name: z.string(),
    transport: z.enum(["http", "stdio"]),
    auth: z.enum(["none", "bearer", "oauth"]),
    oauth_status: z.enum(["awaiting_consent", "connected", "refreshing", "reconnect_required"]).optional(),
    revision: z.number().int(),
    unresolved_operations: z.number().int(),
    tools: z.array(ProfileToolSchema),
  })),
});

/** `mcp_describe`. */
export const DescribeDocument = z.object({
  target: z.string(),
  server: z.string(),
  tool: z.string(),
  tool_id: z.string(),
  capability: z.enum(["mcp.read", "mcp.call"]),
  schema_sha256: z.string(),
  definition: z.record(z.string(), z.unknown()),
  verifiers: z.array(z.string()).optional(),
  /** The session's schema window (lib/gateway/schema_window.ts): at most `max` upstream schemas at once. */
  schemas: z.object({ max: z.number().int(), held: z.array(z.string()), dropped: z.string().optional() }),
  message: z.string(),
});

/** An upstream tool's answer. */
export const UpstreamResultSchema = z.object({
  content: z.array(z.unknown()),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
});

/** `mcp_read`. */
export const ReadDocument = z.object({
  receipt: z.object({
    operation: z.string(),
    target: z.string(),
    tool_id: z.string(),
    schema_sha256: z.string(),
    arguments_sha256: z.string(),
    server_revision: z.number().int(),
    profile: z.string(),
    started_at: z.string(),
    finished_at: z.string(),
  }),
  result: UpstreamResultSchema,
});

/** The verification block of `mcp_call`. */
export const VerificationParam = z.object({
  tool: z.string().min(1).describe("A read tool of the same server that verifies this write (one of its verifiers)."),
  arguments: z.record(z.string(), z.unknown()).default({}).describe("Arguments of the verifier."),
  result_path: z.string().describe(
    'Where in the verifier\'s result to look: its structuredContent (else the JSON of its first text block), e.g. "$.value" or "items[0].title".',
  ),
  expected: z.unknown().describe("The value expected at result_path once the write has taken effect."),
});

/** How a write was let through (lib/gateway/preauth.ts). */
export const AuthorizationSchema = z.union([
  z.object({ kind: z.literal("approved"), proposal: z.string(), by: z.string() }),
  z.object({
    kind: z.literal("preauthorized"),
    by: z.string(),
    until: z.string(),
    where: z.array(z.object({ path: z.string(), equals: z.unknown() })),
    set_at: z.string(),
  }),
]);

/** The statuses of an upstream operation (lib/gateway/ops.ts), in the order the schema lists them. */
export const OP_STATUSES = [
  "confirmed",
  "mismatch",
  "unknown",
  "refused",
  "pending",
  "resolved",
  "done",
  "failed",
] as const;

/** `mcp_call`: the operation and its outcome, or (not yet approved) the proposal. */
export const CallDocument = z.object({
  proposal: ProposalSchema.optional(),
  operation: z.object({
    id: z.string(),
    status: z.enum(OP_STATUSES),
    target: z.string(),
    tool_id: z.string(),
    schema_sha256: z.string(),
    profile: z.string(),
    created_at: z.string(),
    authorization: AuthorizationSchema.optional(),
    detail: z.string().optional(),
  }).optional(),
  result: UpstreamResultSchema.optional(),
  verification: z.object({
    tool: z.string(),
    result_path: z.string(),
    expected: z.unknown(),
    observed: z.unknown().optional(),
    matched: z.boolean(),
    detail: z.string().optional(),
  }).optional(),
  message: z.string(),
});
