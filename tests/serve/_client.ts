/**
 * Test helpers: a real MCP client (SDK `Client` + `StdioClientTransport`)
 * connected to a real `poly mcp` process started the way users start it (`deno
 * run` with the program's permission set), and an in-process pair for cheap
 * handler tests.
 *
 * @module
 */
import { join } from "node:path";
import { polyCommand } from "../_helpers/cli.ts";
import {
  Client,
  InMemoryTransport,
  ListRootsRequestSchema,
  StdioClientTransport,
} from "../../tools/serve/_sdk_client.ts";
import { createPolyServer, type ServerOptions } from "../../tools/serve/mod.ts";
import { tempDir } from "../_helpers/temp.ts";

let warm: string | undefined;

/**
 * Environment for a child server: explicit, because the SDK passes only a few
 * variables. Each call gets fresh, isolated POLY_CACHE_HOME and POLY_STATE_HOME;
 * the engine-digest memo of earlier servers is copied in, so a server does not
 * re-hash ~50 MB of WebAssembly (it is keyed by file path, size and mtime).
 */
export async function serverEnv(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const base = await tempDir({ prefix: "poly-mcp-home-" });
  const memo = join("identity", "sha256.json");
  if (warm) {
    await Deno.mkdir(join(base, "cache", "identity"), { recursive: true });
    await Deno.copyFile(join(warm, memo), join(base, "cache", memo)).catch(() => {});
  }
  warm ??= join(base, "cache");
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? base,
    NO_COLOR: "1",
    POLY_CACHE_HOME: join(base, "cache"),
    POLY_STATE_HOME: join(base, "state"),
  };
  for (const name of ["DENO_DIR", "CARGO_HOME", "RUSTUP_HOME", "GOPATH", "GOCACHE", "GOMODCACHE", "TMPDIR"]) {
    const value = Deno.env.get(name);
    if (value) env[name] = value;
  }
  return { ...env, ...extra };
}

/** A client connected to a real `poly mcp` process. */
export interface ServerProcess {
  client: Client;
  transport: StdioClientTransport;
  /** Closes stdin and waits for the process to exit. */
  close(): Promise<void>;
}

/** Options for {@link startServer}. */
export interface StartOptions {
  cwd: string;
  args?: string[];
  env?: Record<string, string>;
  /** Declare the tasks capability (default true). */
  tasks?: boolean;
  /** Argv of the server (default: poly from this repository). */
  command?: string[];
  /** Declare the roots capability and answer `roots/list` with what this returns at the time. */
  roots?: () => { uri: string; name?: string }[];
}

/** Starts `poly mcp` in `cwd` and connects an SDK client to it. */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const [command, ...args] = options.command ?? polyCommand();
  const transport = new StdioClientTransport({
    command,
    args: [...args, "mcp", ...(options.args ?? [])],
    cwd: options.cwd,
    env: options.env ?? await serverEnv(),
    stderr: "pipe",
  });
  const client = new Client(
    { name: "poly-tests", version: "1.0.0" },
    {
      capabilities: {
        ...(options.tasks === false ? {} : { tasks: { list: {}, cancel: {} } }),
        ...(options.roots ? { roots: { listChanged: true } } : {}),
      },
    },
  );
  const roots = options.roots;
  if (roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots() }));
  await client.connect(transport);
  return {
    client,
    transport,
    async close() {
      await client.close();
    },
  };
}

/** An in-process server and client, linked by an in-memory transport pair. */
export async function inProcess(options: ServerOptions): Promise<{ client: Client; close(): Promise<void> }> {
  const { server, tasks } = createPolyServer(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "poly-tests", version: "1.0.0" }, {
    capabilities: { tasks: { list: {}, cancel: {} } },
  });
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await tasks.cancelAll();
      await client.close();
      await server.close();
    },
  };
}
