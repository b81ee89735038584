/**
 * `poly mcp`: the server over stdio. It exits when stdin ends (clients would
 * otherwise wait seconds before killing it), after the calls in flight have
 * answered; running tasks are cancelled, which stops their child processes. The
 * same happens on SIGTERM and SIGINT.
 *
 * @module
 */
import process from "node:process";
import { completeTree, processFingerprint } from "../../lib/identity/fingerprint.ts";
import { createPolyServer, type ServerOptions, warmUp } from "./mod.ts";
import { PolyStdioTransport } from "./_stdio_transport.ts";
import { onEndingSignal } from "../../lib/process/ending.ts";

/** Longest wait for in-flight calls after stdin ends (ms); SIGTERM or SIGINT cuts it short. */
const DRAIN_MS = 120_000;

/** Serves MCP on stdin/stdout until stdin ends or a termination signal arrives. */
export async function serveStdio(options: ServerOptions): Promise<void> {
  // Record what we run from: main.ts, deno.json and deno.lock now, the rest of the source
  // tree the moment initialize is answered (any earlier check completes it first).
  const print = options.fingerprint ?? processFingerprint({ graph: "defer", tree: "defer" });
  const { server, tasks, connect } = createPolyServer({ clientRoots: true, ...options, fingerprint: print });
  const transport = new PolyStdioTransport();
  let finish!: () => void;
  const closed = new Promise<void>((resolve) => (finish = resolve));
  server.server.onclose = () => finish();
  // Once initialize is answered (start-up loads only the SDK and the tool definitions):
  // refresh an installed managed CLAUDE.md block (only when its markers exist;
  // POLY_CLAUDE_MD=off disables), extend the fingerprint beyond the source tree, warm
  // the identity block and load the tools' implementations, in the background.
  const followRoots = server.server.oninitialized;
  server.server.oninitialized = () => {
    followRoots?.();
    if (print) completeTree(print);
    void warmUp({
      fingerprint: print || undefined,
      first: () => import("../../lib/agents/mod.ts").then((m) => m.refreshClaudeMdBlock()),
    });
  };
  const guarded = await connect(transport);
  transport.oninvalid = (id, error) => void guarded.refuse(id, error).catch(() => {});

  let stopping = false;
  let hurry!: () => void;
  const hurried = new Promise<void>((resolve) => (hurry = resolve));
  const stop = async (drain: boolean) => {
    if (stopping) {
      // A signal while draining: stop waiting.
      if (!drain) hurry();
      return;
    }
    stopping = true;
    // Every request received before stdin ended is answered first (a running task is
    // cancelled, so its blocking call answers with what it did); at most DRAIN_MS.
    await tasks.cancelAll();
    if (drain) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        guarded.drained(),
        hurried,
        new Promise((resolve) => (timer = setTimeout(resolve, DRAIN_MS))),
      ]);
      clearTimeout(timer);
    }
    await server.close().catch(() => {});
    finish();
  };
  process.stdin.on("end", () => void stop(true));
  process.stdin.on("close", () => void stop(true));
  const release = onEndingSignal(() => void stop(false));
  try {
    await closed;
  } finally {
    release();
    // Give cancelled tasks' process trees a moment to be signalled.
    if (tasks.working > 0) await new Promise((r) => setTimeout(r, 50));
  }
}
