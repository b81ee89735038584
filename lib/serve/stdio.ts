/**
 * `poly mcp`: the server over stdio. It exits when stdin ends (clients would
 * otherwise wait seconds before killing it), after the calls in flight have
 * answered; running tasks are cancelled, which stops their child processes. The
 * same happens on SIGTERM and SIGINT.
 *
 * @module
 */
import process from "node:process";
import { extendWithGraph, processFingerprint } from "../identity/fingerprint.ts";
import { createPolyServer, type ServerOptions } from "./mod.ts";
import { StdioServerTransport } from "./_sdk.ts";

/** Longest wait for in-flight calls after stdin ends (ms). */
const DRAIN_MS = 10_000;

/** Serves MCP on stdin/stdout until stdin ends or a termination signal arrives. */
export async function serveStdio(options: ServerOptions): Promise<void> {
  // Record what we run from before anything else can change underneath us.
  const print = options.fingerprint ?? processFingerprint({ graph: "defer" });
  const { server, tasks, idle } = createPolyServer({ ...options, fingerprint: print });
  const transport = new StdioServerTransport();
  let finish!: () => void;
  const closed = new Promise<void>((resolve) => (finish = resolve));
  server.server.onclose = () => finish();
  await server.connect(transport);
  // Refresh an installed managed CLAUDE.md block (only when its markers exist; POLY_CLAUDE_MD=off disables).
  void import("../agents/mod.ts").then((m) => m.refreshClaudeMdBlock()).catch(() => {});
  // Once initialize is answered: extend the fingerprint beyond the source tree,
  // and warm the identity block (engine digests) so the first call does not pay for it.
  server.server.oninitialized = () => {
    setTimeout(() => {
      if (print) extendWithGraph(print);
      void import("../identity/mod.ts").then((m) => m.identity()).catch(() => {});
    }, 0);
  };

  let stopping = false;
  const stop = async (drain: boolean) => {
    if (stopping) return;
    stopping = true;
    await tasks.cancelAll();
    if (drain) await Promise.race([idle(), new Promise((r) => setTimeout(r, DRAIN_MS))]);
    await server.close().catch(() => {});
    finish();
  };
  process.stdin.on("end", () => void stop(true));
  process.stdin.on("close", () => void stop(true));
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  const onSignal = () => void stop(false);
  for (const signal of signals) Deno.addSignalListener(signal, onSignal);
  try {
    await closed;
  } finally {
    for (const signal of signals) Deno.removeSignalListener(signal, onSignal);
    // Give cancelled tasks' process trees a moment to be signalled.
    if (tasks.working > 0) await new Promise((r) => setTimeout(r, 50));
  }
}
