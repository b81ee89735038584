/**
 * Calls at run time.
 *
 * - A read (`mcp_read`) runs at once and returns a receipt.
 * - A write (`mcp_call`) is a proposed operation: it is dispatched only once a person approved
 *   it or its grant pre-authorizes it (lib/gateway/preauth.ts). It carries a verification block. Before dispatch: the grant applies,
 *   `schema_sha256` is the granted fingerprint, the verifier is one of the grant's
 *   applying verifiers, the server has no unresolved write, and the live tools (the write
 *   tool and the verifier) still have their granted fingerprints; otherwise it is refused
 *   and nothing is sent. After the write, the verifier is called and the value at
 *   `result_path` compared with `expected`: `confirmed`, `mismatch`, or `unknown` when
 *   that cannot be established (no answer, timeout, verifier failure, path absent).
 *
 * Every answer of the upstream — a result, a verifier's answer, an error it sent or
 * printed — is redacted of the server's sealed secrets and of what the fleet scrubber
 * recognises (lib/gateway/redact.ts) as it arrives, before it is compared, returned or
 * stored in `gateway_ops`.
 *
 * @module
 */
import type { DatabaseSync } from "../store/mod.ts";
import { type CallToolResult, ErrorCode, McpError } from "./_sdk.ts";
import { buildCatalog } from "./catalog.ts";
import { canonicalJson, jsonEqual } from "./canonical.ts";
import { digestOf } from "../cache/digest.ts";
import { DEFAULT_TIMEOUT_MS, listRawTools, upstreamError } from "./connect.ts";
import { GatewayError, OUTCOME_UNCERTAIN, SCHEMA_CHANGED } from "./errors.ts";
import {
  blockedError,
  finishOp,
  getOp,
  type OpRecord,
  recordOp,
  redactStoredOps,
  resolveOp,
  unresolvedOps,
  type Verification,
} from "./ops.ts";
import type { Authorization } from "./preauth.ts";
import type { ResolvedProfile } from "./profiles.ts";
import { redactor } from "./redact.ts";
import { parseResultPath, readPath, resultDocument } from "./result_path.ts";
import { type GrantedTool, parseTarget, resolveGranted } from "./targets.ts";
import { type OpenServer, openServer } from "./upstream.ts";
import { grantStates } from "./grants.ts";
import { catalogOf, requireServer, type ServerRecord, type ToolRecord } from "./store.ts";

/** Default time limit of one upstream tool call. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

/** Who calls, and with what limits. */
export interface DispatchContext {
  db: DatabaseSync;
  profile: ResolvedProfile;
  /** Time limit of each upstream tool call (the write, the verifier, a read). */
  timeoutMs?: number;
  /** Time limit of connecting and listing the live tools (default 30 s). */
  connectTimeoutMs?: number;
  signal?: AbortSignal;
}

/** The upstream's answer, as poly passes it on. */
export interface UpstreamResult {
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** Proof of one read: what was called, pinned to which schema, when. */
export interface Receipt {
  operation: string;
  target: string;
  tool_id: string;
  schema_sha256: string;
  /** SHA-256 of the canonical JSON of the arguments. */
  arguments_sha256: string;
  server_revision: number;
  profile: string;
  started_at: string;
  finished_at: string;
}

/** What {@link readTool} returns. */
export interface ReadOutcome {
  receipt: Receipt;
  result: UpstreamResult;
}

/** A read request. */
export interface ReadRequest {
  target: string;
  schema_sha256: string;
  arguments?: Record<string, unknown>;
}

/** Calls a read-granted tool and returns a receipt. */
export async function readTool(ctx: DispatchContext, request: ReadRequest): Promise<ReadOutcome> {
  const granted = resolveGranted(ctx.db, ctx.profile, request.target, "read");
  checkPin(granted, request.schema_sha256);
  const args = request.arguments ?? {};
  const started = new Date().toISOString();
  const open = await openRedacting(ctx, granted.server);
  let result: UpstreamResult;
  try {
    await checkLive(open, granted.server.name, [granted.tool], ctx);
    result = await callUpstream(open, granted.server.name, granted.tool.name, args, ctx);
  } finally {
    await open.close();
  }
  const op = recordOp(ctx.db, {
    server: granted.server.name,
    kind: "read",
    tool_id: granted.tool.id,
    tool: granted.tool.name,
    fingerprint: granted.tool.fingerprint,
    profile: ctx.profile.name,
    arguments: args,
    status: result.isError ? "failed" : "done",
  });
  finishOp(ctx.db, op.id, { status: op.status, result });
  return {
    receipt: {
      operation: op.id,
      target: granted.target,
      tool_id: granted.tool.id,
      schema_sha256: granted.tool.fingerprint,
      arguments_sha256: digestOf(canonicalJson(args)),
      server_revision: granted.server.revision,
      profile: ctx.profile.name,
      started_at: started,
      finished_at: new Date().toISOString(),
    },
    result,
  };
}

/** A write request. */
export interface CallRequest extends ReadRequest {
  verification: Verification;
  /** How this write was let through (a person's approval or the grant's pre-authorization). */
  authorization: Authorization;
}

/** A write checked as far as it can be without the network: the grant, the pin, the verifier, the path. */
export interface CheckedCall {
  granted: GrantedTool;
  verifier: ToolRecord;
}

/**
 * Checks a write before it is proposed or dispatched (grant, profile, pin, verifier,
 * result path, no unresolved write), so a proposal is never one that would be refused.
 */
export function checkCall(
  db: DatabaseSync,
  profile: ResolvedProfile,
  request: Omit<CallRequest, "authorization">,
): CheckedCall {
  const granted = resolveGranted(db, profile, request.target, "call");
  checkPin(granted, request.schema_sha256);
  const verifier = resolveVerifier(db, granted, request.verification.tool);
  parseResultPath(request.verification.result_path);
  const open0 = unresolvedOps(db, granted.server.name);
  if (open0.length > 0) throw blockedError(granted.server.name, open0[0]);
  return { granted, verifier };
}

/** What the verifier saw. */
export interface VerificationOutcome {
  tool: string;
  result_path: string;
  expected: unknown;
  observed?: unknown;
  matched: boolean;
  detail?: string;
}

/** What {@link callTool} returns. */
export interface CallOutcome {
  operation: OpRecord;
  /** The write's own answer, when one came. */
  result?: UpstreamResult;
  verification: VerificationOutcome;
  /** For a person: the outcome in one sentence. */
  message: string;
}

/** Dispatches a write a person approved or pre-authorized (see lib/gateway/preauth.ts), with its verification. */
export async function callTool(ctx: DispatchContext, request: CallRequest): Promise<CallOutcome> {
  const { granted, verifier } = checkCall(ctx.db, ctx.profile, request);
  const steps = parseResultPath(request.verification.result_path);
  const args = request.arguments ?? {};
  const verification: Verification = { ...request.verification, tool: verifier.name };
  const base = {
    server: granted.server.name,
    kind: "write" as const,
    tool_id: granted.tool.id,
    tool: granted.tool.name,
    fingerprint: granted.tool.fingerprint,
    profile: ctx.profile.name,
    arguments: args,
    verification,
    authorization: request.authorization,
  };
  const open = await openRedacting(ctx, granted.server);
  try {
    try {
      await checkLive(open, granted.server.name, [granted.tool, verifier], ctx);
    } catch (error) {
      const op = recordOp(ctx.db, { ...base, status: "refused" });
      finishOp(ctx.db, op.id, { status: "refused", detail: (error as Error).message });
      throw error;
    }
    const op = recordOp(ctx.db, { ...base, status: "pending" });
    let result: UpstreamResult | undefined;
    let writeFailure: string | undefined;
    let answered = false;
    try {
      result = await callUpstream(open, granted.server.name, granted.tool.name, args, ctx);
      answered = true;
    } catch (error) {
      writeFailure = (error as Error).message;
      // A JSON-RPC error is an answer (the server refused the call); a timeout or a lost connection is not.
      const cause = (error as { cause?: unknown }).cause;
      answered = cause instanceof McpError && cause.code !== ErrorCode.RequestTimeout &&
        cause.code !== ErrorCode.ConnectionClosed;
    }
    const seen = await verify(open, granted.server.name, verifier, verification, steps, ctx);
    let status: OpRecord["status"];
    let message: string;
    if (seen.matched) {
      status = "confirmed";
      message =
        `The MCP mutation was confirmed: ${verifier.name} returned the expected value at ${verification.result_path}.`;
    } else if (answered && seen.detail === undefined) {
      status = "mismatch";
      message = `The MCP mutation was not confirmed: ${verifier.name} returned ${
        canonicalJson(seen.observed ?? null)
      } at ${verification.result_path}, expected ${canonicalJson(verification.expected ?? null)}.`;
    } else {
      status = "unknown";
      message = OUTCOME_UNCERTAIN;
    }
    const detail = [writeFailure && `write: ${writeFailure}`, seen.detail && `verification: ${seen.detail}`]
      .filter(Boolean).join("; ") || undefined;
    const finished = finishOp(ctx.db, op.id, { status, result, observed: seen.observed, detail });
    return { operation: finished, ...(result ? { result } : {}), verification: seen, message };
  } finally {
    await open.close();
  }
}

/**
 * Runs the recorded verification of an unresolved write again; resolves it as
 * `confirmed` when the expected value is seen, otherwise leaves it unresolved.
 */
export async function verifyOp(
  ctx: DispatchContext,
  id: string,
): Promise<{ operation: OpRecord; verification: VerificationOutcome }> {
  const op = getOp(ctx.db, id);
  if (op.kind !== "write" || (op.status !== "pending" && op.status !== "unknown") || !op.verification) {
    throw new GatewayError(
      "invalid_request",
      `Operation "${id}" is ${op.status}: only pending or unknown writes are verified`,
    );
  }
  const server = requireServer(ctx.db, op.server);
  const tool = catalogOf(ctx.db, server.name).find((t) => t.name === op.verification!.tool);
  const grant = tool && grantStates(ctx.db, server.name).find((g) => g.tool_id === tool.id);
  if (!tool || grant?.mode !== "read" || grant.state !== "active") {
    throw new GatewayError(
      "not_granted",
      `Verifier "${op.verification.tool}" of operation "${id}" is no longer granted as read: resolve it by hand with --outcome`,
    );
  }
  const steps = parseResultPath(op.verification.result_path);
  const open = await openRedacting(ctx, server);
  let seen: VerificationOutcome;
  try {
    await checkLive(open, server.name, [tool], ctx);
    seen = await verify(open, server.name, tool, op.verification, steps, ctx);
  } finally {
    await open.close();
  }
  const operation = seen.matched ? resolveOp(ctx.db, id, "confirmed", "verified again") : getOp(ctx.db, id);
  return { operation, verification: seen };
}

/** Servers whose stored operations this process already redacted, per database. */
const redactedStores = new WeakMap<DatabaseSync, Set<string>>();

/**
 * Opens a server; the first time in this process for a database, also redacts its
 * secrets from the operations an earlier version stored in plain text.
 */
async function openRedacting(ctx: DispatchContext, server: ServerRecord): Promise<OpenServer> {
  const open = await openServer(ctx.db, server, connectOptions(ctx));
  const done = redactedStores.get(ctx.db) ?? new Set<string>();
  redactedStores.set(ctx.db, done);
  if (!done.has(server.name)) {
    try {
      redactStoredOps(ctx.db, server.name, redactor(open.secrets()));
    } catch (error) {
      await open.close();
      throw error;
    }
    done.add(server.name);
  }
  return open;
}

function connectOptions(ctx: DispatchContext): { timeoutMs: number; signal?: AbortSignal } {
  return { timeoutMs: ctx.connectTimeoutMs ?? DEFAULT_TIMEOUT_MS, signal: ctx.signal };
}

function checkPin(granted: GrantedTool, pin: string): void {
  if (pin.trim().toLowerCase() !== granted.tool.fingerprint) {
    throw new GatewayError(
      "schema_changed",
      `${SCHEMA_CHANGED}: "${granted.target}" is granted with another schema_sha256 than "${pin}"; call mcp_describe and use the schema it returns`,
    );
  }
}

function resolveVerifier(db: DatabaseSync, granted: GrantedTool, ref: string): ToolRecord {
  let name = ref;
  if (ref.includes("/")) {
    const parsed = parseTarget(ref);
    if (parsed.server !== granted.server.name) {
      throw new GatewayError("invalid_request", `Verifier "${ref}" must be a tool of server "${granted.server.name}"`);
    }
    name = parsed.tool;
  }
  const tools = catalogOf(db, granted.server.name);
  const tool = tools.find((t) => t.name === name) ?? tools.find((t) => t.id === name);
  if (!tool || !granted.grant.active_verifiers.includes(tool.name)) {
    throw new GatewayError(
      "not_granted",
      `Verifier "${ref}" is not an applying verifier of "${granted.target}": use one of ${
        granted.grant.active_verifiers.map((v) => `"${granted.server.name}/${v}"`).join(", ")
      }`,
    );
  }
  return tool;
}

/** Lists the live tools and refuses unless each pinned tool still has its granted fingerprint. */
async function checkLive(open: OpenServer, server: string, pinned: ToolRecord[], ctx: DispatchContext): Promise<void> {
  let raw: unknown[];
  try {
    raw = await listRawTools(open.upstream, server, connectOptions(ctx));
  } catch (error) {
    throw redactor(open.secrets()).error(error);
  }
  const live = new Map(buildCatalog(server, raw, { secrets: open.secrets() }).tools.map((t) => [t.id, t]));
  for (const tool of pinned) {
    const now = live.get(tool.id);
    if (!now || now.fingerprint !== tool.fingerprint) {
      throw new GatewayError(
        "schema_changed",
        `${SCHEMA_CHANGED}: the live tool "${server}/${tool.name}" ${
          now ? "no longer matches its granted schema" : "is gone"
        }; nothing was sent. Run poly servers refresh ${server} and review the grant`,
      );
    }
  }
}

async function callUpstream(
  open: OpenServer,
  server: string,
  tool: string,
  args: Record<string, unknown>,
  ctx: DispatchContext,
): Promise<UpstreamResult> {
  try {
    const result = await open.upstream.client.callTool(
      { name: tool, arguments: args },
      undefined,
      { timeout: ctx.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS, signal: ctx.signal },
    ) as CallToolResult;
    return redactor(open.secrets()).value({
      content: (result.content ?? []) as unknown[],
      ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
      ...(result.isError ? { isError: true } : {}),
    });
  } catch (error) {
    const failure = upstreamError(server, `failed the call of "${tool}"`, error, open.upstream.stderrTail());
    throw redactor(open.secrets()).error(failure);
  }
}

async function verify(
  open: OpenServer,
  server: string,
  verifier: ToolRecord,
  verification: Verification,
  steps: ReturnType<typeof parseResultPath>,
  ctx: DispatchContext,
): Promise<VerificationOutcome> {
  const base = { tool: verifier.name, result_path: verification.result_path, expected: verification.expected };
  let result: UpstreamResult;
  try {
    result = await callUpstream(open, server, verifier.name, verification.arguments ?? {}, ctx);
  } catch (error) {
    return { ...base, matched: false, detail: (error as Error).message };
  }
  if (result.isError) return { ...base, matched: false, detail: "the verifier returned an error" };
  const found = readPath(resultDocument(result), steps);
  if (!found.found) {
    return {
      ...base,
      matched: false,
      detail: `result_path "${verification.result_path}" is absent from the verifier's result`,
    };
  }
  return { ...base, observed: found.value, matched: jsonEqual(found.value, verification.expected) };
}
