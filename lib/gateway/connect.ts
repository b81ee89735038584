/**
 * Opening an MCP client session to an upstream (Streamable HTTP or sandboxed stdio)
 * and reading its raw catalog.
 *
 * @module
 */
import { z } from "zod";
import { Client, StreamableHTTPClientTransport, StreamableHTTPError } from "./_sdk.ts";
import type { Transport } from "./_sdk.ts";
import { ChildProcessTransport } from "./stdio_transport.ts";
import type { OAuthClientProvider } from "./_sdk.ts";
import { GatewayError } from "./errors.ts";
import { MAX_TOOLS } from "./catalog.ts";
import { sandboxedLaunch } from "./sandbox.ts";
import { identity } from "./_version.ts";

/** Where and how to reach one upstream, with its credentials already opened. */
export interface UpstreamTarget {
  name: string;
  transport: "http" | "stdio";
  url?: string;
  command?: string[];
  cwd?: string;
  /** Variables given to a stdio upstream (unsealed). */
  env?: Record<string, string>;
  /** Host paths bound read-only into a stdio upstream's sandbox. */
  bindRo?: string[];
  /** The state home of the store the upstream is registered in: its private home lies below it (stdio). */
  stateHome?: string;
  /** Plain bearer token (HTTP). */
  bearer?: string;
  /** OAuth provider (HTTP). */
  authProvider?: OAuthClientProvider;
  /** fetch used by the HTTP transport and its OAuth requests. */
  fetch?: typeof fetch;
}

/** An open session to an upstream. */
export interface Upstream {
  readonly client: Client;
  /** The last lines the upstream wrote to stderr (stdio). */
  stderrTail(): string;
  close(): Promise<void>;
}

/** Default time limit of one upstream request. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Connects to an upstream (the MCP initialize handshake), or throws a GatewayError. */
export async function connectUpstream(
  target: UpstreamTarget,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Upstream> {
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client = new Client({ name: "poly-gateway", version: identity() }, { capabilities: {} });
  let tail = "";
  let transport: Transport;
  if (target.transport === "stdio") {
    if (!target.command?.length || !target.cwd) {
      throw new GatewayError("invalid_command", `Server "${target.name}" has no command`);
    }
    const launch = await sandboxedLaunch({
      name: target.name,
      argv: target.command,
      cwd: target.cwd,
      env: target.env,
      bindRo: target.bindRo,
      stateHome: target.stateHome,
    });
    transport = new ChildProcessTransport(launch, (text) => {
      tail = (tail + text).slice(-4000);
    });
  } else {
    if (!target.url) throw new GatewayError("invalid_endpoint", `Server "${target.name}" has no URL`);
    transport = new StreamableHTTPClientTransport(new URL(target.url), {
      requestInit: target.bearer ? { headers: { Authorization: `Bearer ${target.bearer}` } } : undefined,
      authProvider: target.authProvider,
      fetch: target.fetch,
    });
  }
  const close = async () => {
    await client.close().catch(() => {});
  };
  try {
    await client.connect(transport, { timeout, signal: options.signal });
  } catch (error) {
    await close();
    throw upstreamError(target.name, "could not be reached", error, tail);
  }
  return { client, stderrTail: () => tail, close };
}

const RawToolList = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/** Reads the whole catalog (following pages) exactly as the server sends it; stops past MAX_TOOLS. */
export async function listRawTools(
  upstream: Upstream,
  name: string,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<unknown[]> {
  const tools: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    let result: z.infer<typeof RawToolList>;
    try {
      result = await upstream.client.request(
        { method: "tools/list", params: cursor ? { cursor } : {} },
        RawToolList,
        { timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal: options.signal },
      );
    } catch (error) {
      throw upstreamError(name, "did not list its tools", error, upstream.stderrTail(), "discovery_failed");
    }
    tools.push(...result.tools);
    if (tools.length > MAX_TOOLS || !result.nextCursor) return tools;
    cursor = result.nextCursor;
  }
  throw new GatewayError("discovery_failed", `Server "${name}" did not list its tools: more than 100 pages`);
}

/** Turns a transport or protocol failure into a GatewayError naming the server. */
export function upstreamError(
  name: string,
  what: string,
  error: unknown,
  stderrTail = "",
  code: "upstream" | "discovery_failed" = "upstream",
): GatewayError {
  if (error instanceof GatewayError) return error;
  let detail = error instanceof Error ? error.message : String(error);
  if (error instanceof StreamableHTTPError && error.code === 401) {
    detail = `HTTP 401: the server refused the credentials (${detail})`;
  }
  const stderr = stderrTail.trim() ? `\nupstream stderr:\n${stderrTail.trim().split("\n").slice(-10).join("\n")}` : "";
  return new GatewayError(code, `Server "${name}" ${what}: ${detail}${stderr}`, { cause: error });
}
