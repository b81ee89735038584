/**
 * The MCP server: registers every tool in `tools/` on an `McpServer`, whatever
 * the transport. `createServer` is transport-agnostic (stdio here, Streamable
 * HTTP in `http.ts`); `serveStdio` is `poly mcp`.
 *
 * Each call: the self-fingerprint check (every tool but `version` refuses once
 * the program on disk has changed), the tool's handler with the workspace root,
 * progress and cancellation, and a result with `structuredContent`, one text
 * block and `_meta.poly`. Tools marked `task` are MCP Tasks with a blocking
 * fallback for clients without the tasks capability.
 *
 * @example
 * ```ts
 * const { connect } = createPolyServer({ root: Deno.cwd() });
 * await connect(new PolyStdioTransport());
 * ```
 *
 * @module
 */
import { SchemaWindow } from "../../lib/gateway/schema_window.ts";
import { ALWAYS_LOAD_TOOLS, FLEET_INSTRUCTIONS } from "../../lib/fleet/instructions.ts";
import { z } from "zod";
import {
  checkFingerprint,
  type Drift,
  extendWithGraph,
  processFingerprint,
  type SelfFingerprint,
  setProcessFingerprint,
} from "../../lib/identity/fingerprint.ts";
import { VERSION } from "../../lib/identity/build.ts";
import type { ToolContext, ToolDef } from "../_tool.ts";
import { TOOL_MODULES, TOOLS } from "../mod.ts";
import { type CallEnv, callTool, contextFor, type Extra } from "./_call.ts";
import { McpServer, type RequestId, RootsListChangedNotificationSchema, type Transport } from "./_sdk.ts";
import { fileURLToPath } from "node:url";
import { GuardedTransport } from "./_guard.ts";
import { PolyTaskStore } from "./task_store.ts";
import { registerTaskTool } from "./_task_tool.ts";

export { PolyTaskStore } from "./task_store.ts";
export { insideRoot, realPathLenient } from "../../lib/fs/roots.ts";

/** Guidance for an agent on which tool to use when (sent as the server's `instructions`). */
export const INSTRUCTIONS = [
  "poly lints and formats every language in this repository behind one poly.toml. Prefer these tools over running ruff, biome, oxlint, rustfmt or gofmt yourself.",
  "Read-only, call freely: lint (diagnostics), format_check (formatting drift), config_show, rules, cache_stats, version.",
  "Mutating, only when the user asked for changes: lint_fix (applies safe fixes), format_write (rewrites files), cache_clean.",
  "Whole project: workspace_lint / workspace_lint_fix run cargo clippy, cargo-sort, cargo-machete, cargo-deny, go vet and configured jobs; they take minutes, run as tasks, and execute tools against the worktree.",
  "Reading a result: check isError (or the errors array) first, then summary.checked to confirm the run covered what you gave it (an all-skipped run is not an error); only then read results. Paths are relative to the workspace root (the client's MCP roots, else the server's --root or working directory) and must stay inside it.",
  "If a call says the server is out of date, ask the user to restart the poly MCP server.",
  "",
  FLEET_INSTRUCTIONS,
].join("\n");

/** Options for {@link createServer}. */
export interface ServerOptions {
  /** The workspace root: `poly mcp --root DIR`, else the server's working directory. Paths outside it are refused. */
  root: string;
  /**
   * Use the MCP roots the client offers (`roots/list`, refreshed on
   * `notifications/roots/list_changed`) as the workspace instead of `root`
   * (stdio, where the client is the owner; not over HTTP).
   */
  clientRoots?: boolean;
  /** `poly mcp --config PATH`: the config for requests that name none. */
  defaultConfig?: string;
  /** Tools to serve (default: every tool in `tools/mod.ts`). */
  tools?: readonly ToolDef[];
  /** The fingerprint to hold the program to (default: this process's, taken now). `false` turns the check off. */
  fingerprint?: SelfFingerprint | false;
  /** How to check it (default: re-stat every file). */
  check?: (print: SelfFingerprint) => Drift | undefined;
  /** The task store (default: a new {@link PolyTaskStore}); share one across HTTP sessions. */
  taskStore?: PolyTaskStore;
  /** Who is calling (HTTP with tokens); undefined over stdio. */
  caller?: ToolContext["caller"];
  /** Only tools this predicate admits are registered (HTTP access levels). */
  admit?: (tool: ToolDef) => boolean;
}

/** The server and the task store its task tools use. */
export interface PolyServer {
  server: McpServer;
  tasks: PolyTaskStore;
  /** Resolves when no plain tool call is running (task tools are tracked by `tasks`). */
  idle(): Promise<void>;
  /**
   * Connects the server to `transport` through the guard (`_guard.ts`): malformed
   * and refused calls are answered before the SDK runs anything, every answer
   * carries the identity block, and {@link GuardedTransport.drained} tells when
   * every request received has been answered.
   */
  connect(transport: Transport): Promise<GuardedTransport>;
}

/** Builds an McpServer with every tool registered; connect it to any transport. */
export function createServer(options: ServerOptions): McpServer {
  return createPolyServer(options).server;
}

/** {@link createServer}, also returning the task store (to cancel running tasks on shutdown). */
export function createPolyServer(options: ServerOptions): PolyServer {
  const tasks = options.taskStore ?? new PolyTaskStore();
  const server = new McpServer(
    { name: "poly", title: "poly", version: VERSION },
    {
      instructions: INSTRUCTIONS,
      capabilities: {
        tools: { listChanged: false },
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      taskStore: tasks,
    },
  );
  const print = options.fingerprint === false ? undefined : options.fingerprint ?? processFingerprint();
  if (print) setProcessFingerprint(print);
  const check = options.check ?? checkFingerprint;
  const home = realRoot(options.root);
  const env: CallEnv = {
    root: home,
    roots: [home],
    defaultConfig: options.defaultConfig,
    caller: options.caller,
    fingerprint: print,
    check: print ? () => check(print) : undefined,
    schemas: new SchemaWindow(),
  };
  if (options.clientRoots) followClientRoots(server, env, home);
  // Ids of task-augmented tools/call requests not answered yet (filled by the guard).
  const taskRequests = new Set<RequestId>();
  let running = 0;
  let wake: (() => void)[] = [];
  const track = async <T>(work: Promise<T>): Promise<T> => {
    running++;
    try {
      return await work;
    } finally {
      running--;
      if (running === 0) {
        for (const resolve of wake) resolve();
        wake = [];
      }
    }
  };
  const idle = () => running === 0 ? Promise.resolve() : new Promise<void>((resolve) => wake.push(resolve));
  for (const def of options.tools ?? TOOLS) {
    if (options.admit && !options.admit(def)) continue;
    const config = {
      title: def.title,
      description: def.description,
      inputSchema: z.strictObject(def.inputSchema),
      outputSchema: def.outputSchema as z.ZodObject,
      annotations: { ...def.annotations, title: def.title },
      // Hosts that support it load these schemas eagerly instead of deferring them (seed 003).
      ...(ALWAYS_LOAD_TOOLS.includes(def.name) ? { _meta: { "anthropic/alwaysLoad": true } } : {}),
    };
    if (def.task) {
      registerTaskTool(server, def, config, env, tasks, (id) => taskRequests.has(id));
    } else {
      server.registerTool(
        def.name,
        config,
        (args: unknown, extra: Extra) =>
          track((async () => {
            await env.ready?.();
            return await callTool(def, args, env, contextFor(env, extra));
          })()),
      );
    }
  }
  const registered = new Map<string, "optional" | "forbidden">();
  for (const def of options.tools ?? TOOLS) {
    if (!options.admit || options.admit(def)) registered.set(def.name, def.task ? "optional" : "forbidden");
  }
  const connect = async (transport: Transport) => {
    const guarded = new GuardedTransport(transport, {
      taskSupport: (name) => registered.get(name),
      taskRequests,
      identity: async () => await (await import("../../lib/identity/mod.ts")).identity(),
    });
    await server.connect(guarded);
    return guarded;
  };
  return { server, tasks, idle, connect };
}

/** Longest wait for the client's answer to `roots/list` (ms). */
const ROOTS_TIMEOUT_MS = 10_000;

/**
 * Makes the client's MCP roots the workspace: asks `roots/list` once the client
 * is initialized (when it declared the roots capability) and again on
 * `notifications/roots/list_changed`. Only `file://` roots that exist count; a
 * client with none (or that fails to answer) leaves `home` as the root. Calls
 * wait for a pending answer (`env.ready`).
 */
function followClientRoots(server: McpServer, env: CallEnv, home: string): void {
  let pending: Promise<void> = Promise.resolve();
  env.ready = () => pending;
  const sync = async () => {
    if (!server.server.getClientCapabilities()?.roots) return;
    let listed: { uri: string }[];
    try {
      listed = (await server.server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS })).roots;
    } catch {
      return;
    }
    const dirs: string[] = [];
    for (const { uri } of listed) {
      if (!uri.startsWith("file:")) continue;
      try {
        const real = Deno.realPathSync(fileURLToPath(uri));
        if (!dirs.includes(real)) dirs.push(real);
      } catch {
        // A root that does not exist (yet) names no files.
      }
    }
    env.roots = dirs.length > 0 ? dirs : [home];
    env.root = env.roots[0];
  };
  const refresh = () => {
    pending = pending.then(sync);
  };
  const before = server.server.oninitialized;
  server.server.oninitialized = () => {
    before?.();
    refresh();
  };
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, () => refresh());
}

function realRoot(root: string): string {
  try {
    return Deno.realPathSync(root);
  } catch {
    return root;
  }
}

/** Options of {@link warmUp}. */
export interface WarmUpOptions {
  /** The fingerprint to extend beyond the source tree (undefined: none). */
  fingerprint?: SelfFingerprint;
  /** Work to run first (e.g. refreshing the managed CLAUDE.md block). */
  first?: () => Promise<unknown>;
  /** The modules to load (default: {@link TOOL_MODULES}). */
  modules?: readonly (() => Promise<unknown>)[];
}

/**
 * What a server does in the background once it can answer (stdio: once
 * `initialize` is answered; HTTP: once listening), so the first real call pays
 * for none of it: extend the fingerprint beyond the source tree, warm the
 * identity block (engine digests), then load the tools' implementations one
 * after another (lint and format first). Start-up itself loads only the SDK and
 * the tool definitions. Never throws: a module that fails to load fails the call
 * that needs it, with its own message.
 */
export async function warmUp(options: WarmUpOptions = {}): Promise<void> {
  // Let the request that triggered this (and any queued right behind it) go first.
  await new Promise((resolve) => setTimeout(resolve, 0));
  if (options.fingerprint) extendWithGraph(options.fingerprint);
  await options.first?.().catch(() => {});
  const identity = import("../../lib/identity/mod.ts").then((m) => m.identity()).catch(() => {});
  for (const load of options.modules ?? TOOL_MODULES) await load().catch(() => {});
  await identity;
}
