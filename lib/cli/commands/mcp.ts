/**
 * `poly mcp [--root DIR] [--config PATH] [--http [HOST:]PORT]`: serve poly's tools over MCP,
 * on stdio (a host registers it as `{"command": "poly", "args": ["mcp"]}`) or
 * over Streamable HTTP with access tokens. The workspace root is the MCP roots
 * the client offers (stdio), else `--root`, else the directory it is started in.
 * See docs/mcp.md and docs/http.md.
 *
 * @module
 */
import { command, constant, message, multiple, object, option, optional, string } from "../_optique.ts";
import { pathValue } from "../_path.ts";
import { defineCommand } from "../command.ts";
import type { McpValue } from "./_mcp_run.ts";

const parser = command(
  "mcp",
  object({
    cmd: constant("mcp" as const),
    root: optional(option("--root", pathValue("DIR"), {
      description:
        message`Workspace root (default: the directory it starts in); on stdio the MCP roots a client offers take its place.`,
    })),
    config: optional(option("--config", pathValue("PATH"), {
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

/** `poly mcp` (a bare `poly mcp` skips this parser: see main.ts and `_mcp_run.ts`). */
export const mcpCommand = defineCommand<McpValue>({
  parser,
  async run(value, io) {
    const { runMcp } = await import("./_mcp_run.ts");
    return await runMcp(value, io);
  },
});
