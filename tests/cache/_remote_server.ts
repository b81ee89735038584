/**
 * The real `turborepo-remote-cache` server (npm, 2.12.0) for the remote-cache
 * tests: installed with npm into the tests' own cache folder on first use
 * (`.ci/run` installs it there ahead), started on a loopback port with local
 * storage in a temporary folder.
 *
 * @module
 */
import { join } from "node:path";
import { tempDir } from "../_helpers/temp.ts";
import { npmInstalled, npmPrefix } from "../_helpers/npm.ts";

/** The pinned server version. */
export const SERVER_VERSION = "2.12.0";

/** Where the tests install the server. */
export function serverPrefix(): string {
  return npmPrefix("turborepo-remote-cache", SERVER_VERSION);
}

/** The server's cli.js, installing it first when absent; a reason string when it cannot be had. */
export async function serverCli(): Promise<{ cli: string } | { reason: string }> {
  const marker = join("turborepo-remote-cache", "dist", "cli.js");
  const found = await npmInstalled(serverPrefix(), "turborepo-remote-cache", SERVER_VERSION, marker);
  return "reason" in found ? found : { cli: join(found.modules, marker) };
}

/** A free loopback port. */
export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** A running server; `stop()` ends it. */
export interface RemoteServer {
  url: string;
  token: string;
  /** The folder artifacts are stored in (`<storage>/<team>/<hash>`). */
  storage: string;
  stop(): Promise<void>;
}

/** Starts the server on a loopback port and waits until it answers. */
export async function startServer(cli: string, token = "test-token"): Promise<RemoteServer> {
  const storage = await tempDir({ prefix: "poly-remote-store-" });
  const port = freePort();
  const child = new Deno.Command("node", {
    args: [cli],
    env: {
      HOST: "127.0.0.1",
      PORT: String(port),
      TURBO_TOKEN: token,
      STORAGE_PROVIDER: "local",
      STORAGE_PATH: storage,
      STORAGE_PATH_USE_TMP_FOLDER: "false",
      LOG_LEVEL: "error",
    },
    stdout: "null",
    stderr: "null",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 20_000;
  for (;;) {
    try {
      const r = await fetch(`${url}/v8/artifacts/status`, { headers: { authorization: `Bearer ${token}` } });
      await r.body?.cancel();
      break;
    } catch {
      if (Date.now() > until) {
        child.kill();
        await child.status;
        throw new Error(`turborepo-remote-cache did not start on ${url}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    token,
    storage,
    async stop() {
      child.kill();
      await child.status;
    },
  };
}

/** A TCP listener that accepts connections and never answers; `stop()` closes it. */
export function hangingServer(): { url: string; stop(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    try {
      for await (const conn of listener) held.push(conn);
    } catch { /* closed */ }
  })();
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    stop() {
      for (const c of held) {
        try {
          c.close();
        } catch { /* closed */ }
      }
      listener.close();
    },
  };
}
