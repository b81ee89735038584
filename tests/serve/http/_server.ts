/**
 * Test helpers for `poly mcp --http`: the real server process (started from a
 * snapshot of the program, with its own state and cache homes, on a free
 * loopback port it prints on stderr), members and tokens written straight into
 * its state database, and SDK clients that present a token.
 *
 * @module
 */
import { join } from "node:path";
import { openStore } from "../../../lib/store/mod.ts";
import { AccessStore } from "../../../lib/access/store.ts";
import { ProposalStore } from "../../../lib/access/proposals.ts";
import { Client, StreamableHTTPClientTransport } from "../../../lib/remote/_sdk.ts";
import { serverEnv } from "../_client.ts";
import { sharedSnapshot } from "../_snapshot.ts";

/** A running `poly mcp --http` process. */
export interface HttpProcess {
  url: string;
  port: number;
  /** The workspace root it serves (real path). */
  root: string;
  /** Environment it runs with (POLY_STATE_HOME, ...): pass it to other poly processes. */
  env: Record<string, string>;
  /** Its state database. */
  access: AccessStore;
  proposals: ProposalStore;
  /** Argv that starts poly from the same snapshot. */
  command: string[];
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then waits for it to exit; returns the exit code. */
  stop(): Promise<number>;
}

/** Options of {@link startHttp}. */
export interface StartHttpOptions {
  root: string;
  /** Extra arguments after `mcp --http 127.0.0.1:0`. */
  args?: string[];
}

/** Starts `poly mcp --http 127.0.0.1:0` in `root` and waits for its address. */
export async function startHttp(o: StartHttpOptions): Promise<HttpProcess> {
  const snap = await sharedSnapshot();
  const env = await serverEnv();
  const [exe, ...rest] = snap.command;
  const child = new Deno.Command(exe, {
    args: [...rest, "mcp", "--http", "127.0.0.1:0", ...(o.args ?? [])],
    cwd: o.root,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let err = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let url: string | undefined;
  const deadline = Date.now() + 60_000;
  while (!url) {
    const next = await Promise.race([
      reader.read(),
      new Promise<{ done: true; value: undefined }>((r) =>
        setTimeout(() => r({ done: true, value: undefined }), 60_000)
      ),
    ]);
    if (next.done || Date.now() > deadline) {
      child.kill("SIGKILL");
      await child.status;
      throw new Error(`poly mcp --http did not start: ${err}`);
    }
    err += next.value;
    url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err)?.[1];
  }
  // Keep draining stderr so the child never blocks on a full pipe.
  const drained = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      err += value;
    }
  })();
  const db = openStore({ path: join(env.POLY_STATE_HOME, "poly.db") });
  return {
    url,
    port: Number(new URL(url).port),
    root: await Deno.realPath(o.root),
    env,
    access: new AccessStore(db),
    proposals: new ProposalStore(db),
    command: snap.command,
    stderr: () => err,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch {
        // Already gone.
      }
      const status = await child.status;
      await drained;
      db.close();
      return status.code;
    },
  };
}

/** An SDK client connected to `url` with `token` (or none). */
export async function connect(url: string, token?: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "poly-http-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } },
  });
  await client.connect(transport);
  return client;
}

/** A member with one token; returns the token. */
export function memberWithToken(
  access: AccessStore,
  name: string,
  role: "viewer" | "member" | "admin",
  token: { access: "read" | "act"; approvals?: boolean },
): string {
  if (!access.getMember(name)) access.addMember(name, role);
  return access.createToken({ member: name, ...token }).token;
}

/** A raw POST of one JSON-RPC message to the server (for status codes and headers). */
export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** An initialize request body. */
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
