/**
 * What `poly mcp` does once its options are parsed: serve on stdio, or over
 * Streamable HTTP with `--http`. Kept apart from the parser (`mcp.ts`) so that
 * `main.ts` can start a bare `poly mcp` — how MCP hosts start poly — without
 * loading the argument parser and the command list at all.
 *
 * @module
 */
import { resolve } from "node:path";
import { UsageError } from "../../errors/mod.ts";
import type { CommandIO } from "../command.ts";

/** The parsed options of `poly mcp`. */
export interface McpValue {
  cmd: "mcp";
  root?: string;
  config?: string;
  http?: string;
  allowOrigin: readonly string[];
  allowHost: readonly string[];
}

/** What the parser makes of a bare `poly mcp` (tests/cli/lazy_test.ts holds the two together). */
export const MCP_DEFAULTS: McpValue = {
  cmd: "mcp",
  root: undefined,
  config: undefined,
  http: undefined,
  allowOrigin: [],
  allowHost: [],
};

/** Runs `poly mcp` with parsed options until the server stops; returns the exit code. */
export async function runMcp(value: McpValue, io: CommandIO): Promise<number> {
  const root = value.root === undefined ? io.cwd : resolve(io.cwd, value.root);
  if (value.root !== undefined) {
    const info = await Deno.stat(root).catch(() => undefined);
    if (!info?.isDirectory) {
      throw new UsageError(`--root "${value.root}" is not a directory: pass the project to serve`);
    }
  }
  const defaultConfig = value.config === undefined ? undefined : resolve(io.cwd, value.config);
  // A broken --config fails at start, where the host shows it, not on every call.
  if (defaultConfig) {
    const { openConfig } = await import("../../config/mod.ts");
    await (await openConfig({ cwd: root, explicit: defaultConfig })).forDir(root);
  }
  if (value.http === undefined) {
    if (value.allowOrigin.length || value.allowHost.length) {
      throw new UsageError("--allow-origin and --allow-host need --http");
    }
    // The SDK and zod first: the server's graph then resolves no npm package module by module.
    await import("../../../tools/serve/deps.ts");
    const { serveStdio } = await import("../../../tools/serve/stdio.ts");
    await serveStdio({ root, defaultConfig });
    return 0;
  }
  const { listenError, parseListen } = await import("../../../tools/serve/http_listen.ts");
  const address = parseListen(value.http);
  const { HostEntry, OriginEntry } = await import("../../access/config.ts");
  for (const o of value.allowOrigin) {
    if (!OriginEntry.safeParse(o).success) {
      throw new UsageError(`Invalid --allow-origin "${o}": e.g. https://poly.example.com`);
    }
  }
  for (const h of value.allowHost) {
    if (!HostEntry.safeParse(h).success) throw new UsageError(`Invalid --allow-host "${h}": e.g. poly.example.com`);
  }
  await import("../../../tools/serve/deps.ts");
  const { serveHttp } = await import("../../../tools/serve/http.ts");
  try {
    await serveHttp({
      root,
      defaultConfig,
      ...address,
      allowOrigins: [...value.allowOrigin],
      allowHosts: [...value.allowHost],
      log: (line) => io.stderr(line),
    });
  } catch (error) {
    throw listenError(error, address);
  }
  return 0;
}
