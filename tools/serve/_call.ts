/**
 * One tool call, the same for every transport and for tasks: the self-fingerprint
 * check, the handler with its context, and the CallToolResult every poly tool
 * returns — `structuredContent`, exactly one text block (JSON, or TOON when asked
 * for), `isError`, and the identity block in `_meta.poly`.
 *
 * @module
 */
import type { SchemaWindow } from "../../lib/gateway/schema_window.ts";
import { describeError, PolyError } from "../../lib/errors/mod.ts";
import { type Drift, type SelfFingerprint, staleMessage } from "../../lib/identity/fingerprint.ts";
import type { Identity } from "../../lib/report/schema.ts";
import type { ToolContext, ToolDef } from "../_tool.ts";
import type { CallToolResult, RequestHandlerExtra, ServerNotification, ServerRequest } from "./_sdk.ts";

/** What a call needs from the server it runs in. */
export interface CallEnv {
  /** The workspace root (real path): the first of {@link roots}. */
  root: string;
  /** Every workspace root (real paths); the client's MCP roots replace them when it offers some. */
  roots?: string[];
  /** Settles once the client's roots, when being fetched, are known: calls wait for it. */
  ready?: () => Promise<void>;
  defaultConfig?: string;
  caller?: ToolContext["caller"];
  /** The fingerprint taken at start, and how to check it (undefined: never stale). */
  fingerprint?: SelfFingerprint;
  check?: () => Drift | undefined;
  /** The session's upstream-schema window (one per server, so one per session). */
  schemas?: SchemaWindow;
}

/** The SDK's per-request extra. */
export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Encodes a structured document as the text block: pretty JSON (the CLI's --format json) or TOON. */
export async function encodeDocument(doc: unknown, format: "json" | "toon"): Promise<string> {
  if (format !== "toon") return JSON.stringify(doc, null, 2) + "\n";
  // The TOON encoder loads only when a call asks for TOON.
  const { encode } = await import("../../lib/report/toon.ts");
  return encode(doc as Record<string, unknown>) + "\n";
}

/** A tool error result: one text block with the reason, and the identity in `_meta`. */
export function errorResult(message: string, poly: Identity): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true, _meta: { poly } };
}

/** The `_meta` key naming the task a message belongs to (2025-11-25 Tasks specification). */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** Builds the handler context of one call; `taskId`: the task it runs as, named in its progress notifications. */
export function contextFor(
  env: CallEnv,
  extra: Extra,
  signal: AbortSignal = extra.signal,
  taskId?: string,
): ToolContext {
  const token = extra._meta?.progressToken;
  return {
    root: env.root,
    roots: env.roots ?? [env.root],
    defaultConfig: env.defaultConfig,
    // Over HTTP the caller is per request: the token checked for it (http.ts).
    caller: (extra.authInfo?.extra?.caller as ToolContext["caller"]) ?? env.caller,
    ...(extra.sessionId ? { session: extra.sessionId } : {}),
    ...(env.schemas ? { schemas: env.schemas } : {}),
    signal,
    async progress(done, total, message) {
      if (token === undefined) return;
      try {
        await extra.sendNotification({
          method: "notifications/progress",
          params: {
            progressToken: token,
            progress: done,
            ...(total === undefined ? {} : { total }),
            ...(message ? { message } : {}),
            ...(taskId ? { _meta: { [RELATED_TASK]: { taskId } } } : {}),
          },
        });
      } catch {
        // The client went away: progress is best effort.
      }
    },
  };
}

/** The self-fingerprint refusal, or undefined when the server is current (always undefined for `version`). */
export function staleCheck(def: ToolDef, env: CallEnv): string | undefined {
  if (def.name === "version" || !env.check || !env.fingerprint) return undefined;
  const drift = env.check();
  return drift ? staleMessage(env.fingerprint, drift) : undefined;
}

/** Runs one tool call to its CallToolResult. Never throws: failures are tool errors. */
export async function callTool(def: ToolDef, args: unknown, env: CallEnv, ctx: ToolContext): Promise<CallToolResult> {
  // Loaded on first use: it pulls in the engine registry, which start-up does not need.
  const { identity } = await import("../../lib/identity/mod.ts");
  const poly = await identity();
  const stale = staleCheck(def, env);
  if (stale) return errorResult(stale, poly);
  try {
    // deno-lint-ignore no-explicit-any
    const out = await def.handler(args as any, ctx);
    const structured = out.structured as Record<string, unknown>;
    const own = (structured as { poly?: Identity }).poly;
    return {
      content: [{ type: "text", text: await encodeDocument(structured, out.format ?? "json") }],
      structuredContent: structured,
      isError: out.isError === true,
      _meta: { poly: own ?? poly },
    };
  } catch (error) {
    const message = error instanceof PolyError
      ? describeError(error)
      : `poly: internal error in tool "${def.name}": ${describeError(error)}`;
    return errorResult(message, poly);
  }
}
