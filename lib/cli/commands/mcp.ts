/**
 * `poly mcp [--config PATH] [--http [HOST:]PORT]`: serve poly's tools over MCP,
 * on stdio (a host registers it as `{"command": "poly", "args": ["mcp"]}`) or
 * over Streamable HTTP with access tokens. The workspace root is the directory
 * it is started in. See docs/mcp.md and docs/http.md.
 *
 * @module
 */
import { object } from "@optique/core/constructs";
import { message } from "@optique/core/message";
import { multiple, optional } from "@optique/core/modifiers";
import { command, constant, option } from "@optique/core/primitives";
import { string } from "@optique/core/valueparser";
import { defineCommand } from "../command.ts";

interface McpValue {
  cmd: "mcp";
  config?: string;
  http?: string;
  allowOrigin: readonly string[];
  allowHost: readonly string[];
}

const parser = command(
  "mcp",
  object({
    cmd: constant("mcp" as const),
    config: optional(option("--config", string({ metavar: "PATH" }), {
      description: message`Config file for requests that name none (default: the poly.toml cascade).`,
    })),
    http: optional(option("--http", string({ metavar: "[HOST:]PORT" }), {
      description:
        message`Serve Streamable HTTP at /mcp on this address instead of stdio (a bare port listens on 127.0.0.1; 0 picks a free port). Every request needs a token: poly tokens create.`,
    })),
    allowOrigin: multiple(option("--allow-origin", string({ metavar: "ORIGIN" }), {
      description:
        message`With --http: a browser origin to accept besides loopback ones (adds to [serve] allowed_origins).`,
    })),
    allowHost: multiple(option("--allow-host", string({ metavar: "HOST" }), {
      description:
        message`With --http: a Host header to accept besides loopback names (adds to [serve] allowed_hosts).`,
    })),
  }),
  {
    brief: message`Serve poly's tools over MCP (stdio, or Streamable HTTP with access tokens).`,
    description:
      message`Serve poly as an MCP server: the lint and format tools, the fleet, the gateway and the approval tools. Paths are confined to the directory it starts in. On stdio it exits when stdin ends; with --http it serves /mcp until SIGINT or SIGTERM, checking Host and Origin, the bearer token and the member's role on every request.`,
  },
);

/** `poly mcp`. */
export const mcpCommand = defineCommand<McpValue>({
  parser,
  async run(value, io) {
    const { resolve } = await import("node:path");
    const { openConfig } = await import("../../config/mod.ts");
    const { UsageError } = await import("../../errors/mod.ts");
    const defaultConfig = value.config === undefined ? undefined : resolve(io.cwd, value.config);
    // A broken --config fails at start, where the host shows it, not on every call.
    if (defaultConfig) await (await openConfig({ cwd: io.cwd, explicit: defaultConfig })).forDir(io.cwd);
    if (value.http === undefined) {
      if (value.allowOrigin.length || value.allowHost.length) {
        throw new UsageError("--allow-origin and --allow-host need --http");
      }
      const { serveStdio } = await import("../../serve/stdio.ts");
      await serveStdio({ root: io.cwd, defaultConfig });
      return 0;
    }
    const { parseListen } = await import("../../serve/http_listen.ts");
    const { HostEntry, OriginEntry } = await import("../../access/config.ts");
    for (const o of value.allowOrigin) {
      if (!OriginEntry.safeParse(o).success) {
        throw new UsageError(`Invalid --allow-origin "${o}": e.g. https://poly.example.com`);
      }
    }
    for (const h of value.allowHost) {
      if (!HostEntry.safeParse(h).success) throw new UsageError(`Invalid --allow-host "${h}": e.g. poly.example.com`);
    }
    const { serveHttp } = await import("../../serve/http.ts");
    await serveHttp({
      root: io.cwd,
      defaultConfig,
      ...parseListen(value.http),
      allowOrigins: [...value.allowOrigin],
      allowHosts: [...value.allowHost],
      log: (line) => io.stderr(line),
    });
    return 0;
  },
});
