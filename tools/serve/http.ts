/**
 * `poly mcp --http [HOST:]PORT`: the same tools over MCP Streamable HTTP at
 * `/mcp` (POST, GET for the server's SSE stream, DELETE to end a session), on
 * loopback unless told otherwise.
 *
 * Every request, in order:
 * 1. the path must be `/mcp` (404);
 * 2. `Host` and `Origin` must be allowed (403; DNS-rebinding protection, see
 *    `http_origin.ts`);
 * 3. a bearer token must be valid: known, not revoked, not expired, its member
 *    present (401 otherwise). The member's role is read now, so a demotion
 *    applies to this very request;
 * 4. a request naming a session must use the token that opened it (403); one
 *    naming no session opens one (it must be `initialize`).
 *
 * The identity reaches each tool call as `ToolContext.caller`; the tools are
 * those of `http_access.ts` (level checks, proposals for tools that need
 * approval). Each session has its own McpServer and task store; all share the
 * fingerprint taken at start, so a replaced binary is refused in every session.
 *
 * @module
 */
import { dirname } from "node:path";
import { processFingerprint } from "../../lib/identity/fingerprint.ts";
import { PolyError } from "../../lib/errors/mod.ts";
import { storePath } from "../../lib/store/mod.ts";
import { type AccessStore, accessStores, type AuthFailure, loadServeSection } from "../../lib/access/mod.ts";
import { checkRequireApproval, guardTools } from "./http_access.ts";
import type { ToolDef } from "../_tool.ts";
import { createPolyServer, type PolyServer, warmUp } from "./mod.ts";
import { isInside, realPathLenient } from "../../lib/fs/roots.ts";
import { PolyTaskStore } from "./task_store.ts";
import { checkOrigin, isLoopback, isWildcard, type OriginPolicy, originPolicy } from "./http_origin.ts";
import { type AuthInfo, WebStandardStreamableHTTPServerTransport } from "./http_sdk.ts";
import { DEFAULT_HOSTNAME } from "./http_listen.ts";
import { onEndingSignal } from "../../lib/process/ending.ts";

/** Sessions idle longer than this (no request, no running task) are closed (ms). */
export const SESSION_IDLE_MS = 2 * 60 * 60_000;

/** Open sessions at most; an `initialize` beyond it gets 503. */
export const MAX_SESSIONS = 1000;

/** Options of {@link startHttpServer}. */
export interface HttpServerOptions {
  /** The workspace root. */
  root: string;
  defaultConfig?: string;
  /** Address to bind (default 127.0.0.1). */
  hostname?: string;
  /** Port (0: any free one). */
  port: number;
  /** Added to `[serve] allowed_hosts`. */
  allowHosts?: string[];
  /** Added to `[serve] allowed_origins`. */
  allowOrigins?: string[];
  /** Tools to serve before guarding (default: every tool). */
  tools?: readonly ToolDef[];
  /** Session idle limit (ms). */
  idleMs?: number;
}

/**
 * The MCP endpoint as a function of a request, without a listener: what
 * {@link startHttpServer} serves, and what tests call in-process (as hono's
 * `app.request()`).
 */
export interface HttpApp {
  /** Answers one HTTP request to the server. */
  request(req: Request): Promise<Response>;
  /** Where it must listen: the host its origin policy was made for. */
  hostname: string;
  /** What `[serve]` and the options resolved to. */
  requireApproval: string[];
  policy: OriginPolicy;
  /** Open sessions. */
  sessions(): number;
  /** Closes every session (cancelling their tasks). */
  close(): Promise<void>;
  /**
   * In the background: extends the fingerprint beyond the source tree, warms the
   * identity block and loads the tools' implementations (a server calls it once listening).
   */
  warmUp(): void;
}

/** A running server. */
export interface HttpServer {
  /** `http://HOST:PORT/mcp`. */
  url: string;
  hostname: string;
  port: number;
  /** What `[serve]` and the options resolved to. */
  requireApproval: string[];
  policy: OriginPolicy;
  /** Open sessions. */
  sessions(): number;
  /** Closes every session (cancelling their tasks) and stops listening. */
  shutdown(): Promise<void>;
  /** Resolves once the listener has stopped. */
  finished: Promise<void>;
}

interface Session {
  poly: PolyServer;
  transport: WebStandardStreamableHTTPServerTransport;
  token: string;
  lastSeen: number;
}

const UNAUTHORIZED: Record<AuthFailure, string> = {
  missing: "Unauthorized: send Authorization: Bearer <token> (poly tokens create)",
  malformed: "Unauthorized: that is not a poly token",
  unknown: "Unauthorized: unknown token",
  expired: "Unauthorized: the token has expired",
  revoked: "Unauthorized: the token has been revoked",
  no_member: "Unauthorized: the token's member has been removed",
};

const CORS_ALLOW_HEADERS = "authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id";

function jsonError(status: number, message: string, headers: Record<string, string> = {}, code = -32000): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function bearer(req: Request): string | undefined {
  const h = req.headers.get("authorization");
  const m = h ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
  return m ? m[1] : undefined;
}

/** The state database must not be readable through the tools. */
async function checkStateOutside(root: string, statePath: string): Promise<void> {
  // The whole state home: the database and the gateway's sealing key live there.
  const real = await realPathLenient(dirname(statePath));
  if (isInside(root, real)) {
    throw new PolyError(
      `The state home "${real}" (with the state database) is inside the workspace root "${root}": tools could read token hashes and sealed secrets; set POLY_STATE_HOME to a directory outside it`,
    );
  }
}

/**
 * Builds the endpoint for `o` (the `[serve]` section, the tools, the access store at the
 * state home); `o.port` is not used. {@link startHttpServer} puts it behind a listener.
 */
export async function createHttpApp(o: Omit<HttpServerOptions, "port">): Promise<HttpApp> {
  const root = await Deno.realPath(o.root);
  // The tools reach the state database at its one place (the state home), never a path given here.
  const statePath = storePath();
  await checkStateOutside(root, statePath);
  const serve = await loadServeSection(root, o.defaultConfig);
  const hostname = o.hostname ?? DEFAULT_HOSTNAME;
  const requireApproval = [...new Set(serve.require_approval)];
  const { TOOLS } = await import("../mod.ts");
  checkRequireApproval(requireApproval, o.tools ?? TOOLS);
  const stores = accessStores(statePath);
  const access: AccessStore = stores.access;
  const tools = guardTools(o.tools ?? TOOLS, { requireApproval: new Set(requireApproval), stores: () => stores });
  const print = processFingerprint({ graph: "defer" });
  const idleMs = o.idleMs ?? SESSION_IDLE_MS;
  const sessions = new Map<string, Session>();
  const policy: OriginPolicy = originPolicy({
    hostname,
    allowedHosts: [...serve.allowed_hosts, ...(o.allowHosts ?? [])],
    allowedOrigins: [...serve.allowed_origins, ...(o.allowOrigins ?? [])],
  });

  const drop = async (id: string) => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    await s.poly.tasks.cancelAll().catch(() => {});
    await s.poly.server.close().catch(() => {});
  };

  const open = async (): Promise<{ poly: PolyServer; transport: WebStandardStreamableHTTPServerTransport }> => {
    const poly = createPolyServer({
      root,
      defaultConfig: o.defaultConfig,
      tools,
      fingerprint: print,
      taskStore: new PolyTaskStore(),
    });
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessionclosed: (id) => void drop(id),
    });
    await poly.connect(transport);
    return { poly, transport };
  };

  const cors = (req: Request): Record<string, string> => {
    const origin = req.headers.get("origin");
    return origin
      ? { "access-control-allow-origin": origin, "access-control-expose-headers": "mcp-session-id", vary: "origin" }
      : {};
  };

  const withCors = (res: Response, headers: Record<string, string>): Response => {
    for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
    return res;
  };

  const handle = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    if (url.pathname !== "/mcp") return jsonError(404, "Not found: the MCP endpoint is /mcp");
    const refused = checkOrigin(req.headers, policy);
    if (refused) return jsonError(403, refused);
    const corsHeaders = cors(req);
    if (req.method === "OPTIONS") {
      return new Response(null, {
        status: 204,
        headers: {
          ...corsHeaders,
          "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
          "access-control-allow-headers": CORS_ALLOW_HEADERS,
          "access-control-max-age": "600",
        },
      });
    }
    const auth = access.authenticate(bearer(req));
    if (!auth.ok) {
      const challenge = auth.reason === "missing"
        ? 'Bearer realm="poly"'
        : 'Bearer realm="poly", error="invalid_token"';
      return jsonError(401, UNAUTHORIZED[auth.reason], { "www-authenticate": challenge, ...corsHeaders });
    }
    const identity = auth.identity;
    const authInfo: AuthInfo = {
      token: identity.token,
      clientId: identity.member,
      scopes: [identity.access, ...(identity.approvals ? ["approvals"] : [])],
      extra: {
        caller: {
          member: identity.member,
          role: identity.role,
          access: identity.access,
          approvals: identity.approvals,
          token: identity.token,
        },
      },
    };
    const sid = req.headers.get("mcp-session-id");
    if (sid) {
      const s = sessions.get(sid);
      if (!s) return jsonError(404, "Session not found: initialize a new one", corsHeaders, -32001);
      if (s.token !== identity.token) {
        return jsonError(
          403,
          "Forbidden: this session was opened with another token: initialize a new one",
          corsHeaders,
        );
      }
      s.lastSeen = Date.now();
      return withCors(await s.transport.handleRequest(req, { authInfo }), corsHeaders);
    }
    if (req.method !== "POST") return jsonError(400, "Bad Request: Mcp-Session-Id header is required", corsHeaders);
    if (sessions.size >= MAX_SESSIONS) return jsonError(503, "Too many open sessions: try again later", corsHeaders);
    const { poly, transport } = await open();
    const res = await transport.handleRequest(req, { authInfo });
    if (transport.sessionId) {
      sessions.set(transport.sessionId, { poly, transport, token: identity.token, lastSeen: Date.now() });
    } else {
      // Not an initialize (the transport answered 400): nothing to keep.
      await poly.server.close().catch(() => {});
    }
    return withCors(res, corsHeaders);
  };

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, s] of sessions) {
      if (now - s.lastSeen > idleMs && s.poly.tasks.working === 0) void drop(id);
    }
  }, Math.min(60_000, Math.max(1000, idleMs / 4)));
  Deno.unrefTimer(sweep);
  let closed: Promise<void> | undefined;
  return {
    request: handle,
    hostname,
    requireApproval,
    policy,
    sessions: () => sessions.size,
    close() {
      closed ??= (async () => {
        clearInterval(sweep);
        await Promise.all([...sessions.keys()].map((id) => drop(id)));
      })();
      return closed;
    },
    warmUp: () => void warmUp({ fingerprint: print }),
  };
}

/** Starts serving; resolves once listening. */
export async function startHttpServer(o: HttpServerOptions): Promise<HttpServer> {
  const app = await createHttpApp(o);
  let ready!: (addr: Deno.NetAddr) => void;
  const listening = new Promise<Deno.NetAddr>((resolve) => (ready = resolve));
  const server = Deno.serve({
    hostname: app.hostname,
    port: o.port,
    onListen: (addr) => ready(addr as Deno.NetAddr),
    onError: (error) => jsonError(500, `Internal error: ${error instanceof Error ? error.message : String(error)}`),
  }, app.request);
  const addr = await listening;
  app.warmUp();

  const shown = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  let stopped: Promise<void> | undefined;
  return {
    url: `http://${shown}:${addr.port}/mcp`,
    hostname: addr.hostname,
    port: addr.port,
    requireApproval: app.requireApproval,
    policy: app.policy,
    sessions: app.sessions,
    shutdown() {
      stopped ??= (async () => {
        await app.close();
        await server.shutdown();
      })();
      return stopped;
    },
    finished: server.finished,
  };
}

/** Options of {@link serveHttp}: the server's, and where to say what it is doing. */
export interface ServeHttpOptions extends HttpServerOptions {
  log(line: string): Promise<void>;
}

/** `poly mcp --http`: serves until SIGINT or SIGTERM. */
export async function serveHttp(o: ServeHttpOptions): Promise<void> {
  const http = await startHttpServer(o);
  const hostname = o.hostname ?? DEFAULT_HOSTNAME;
  const { access } = accessStores();
  const tokens = access.listTokens().length;
  if (tokens === 0) {
    await o.log(
      "poly mcp: no active token yet: every request gets 401 until one exists (poly members add, poly tokens create)\n",
    );
  }
  if (http.requireApproval.length) {
    await o.log(`poly mcp: these tools need approval over HTTP: ${http.requireApproval.join(", ")}\n`);
  }
  if (!isLoopback(hostname)) {
    await o.log(
      `poly mcp: warning: listening beyond loopback without TLS; put a TLS proxy in front (docs/http.md)${
        isWildcard(hostname) && http.policy.hosts.length === 0
          ? " and list the names clients use in [serve] allowed_hosts or --allow-host"
          : ""
      }\n`,
    );
  }
  // Last, so a reader that waits for the address has seen everything above.
  await o.log(`poly mcp: serving MCP over HTTP at ${http.url} (workspace ${await Deno.realPath(o.root)})\n`);
  const release = onEndingSignal(() => void http.shutdown());
  try {
    await http.finished;
  } finally {
    release();
  }
}
