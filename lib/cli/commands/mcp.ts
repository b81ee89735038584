/**
 * `poly mcp [--config PATH]`: serve poly's tools over MCP on stdio. A host
 * registers it as `{"command": "poly", "args": ["mcp"]}`; the workspace root is
 * the directory it is started in. See docs/mcp.md.
 *
 * @module
 */
import { object } from "@optique/core/constructs";
import { message } from "@optique/core/message";
import { optional } from "@optique/core/modifiers";
import { command, constant, option } from "@optique/core/primitives";
import { string } from "@optique/core/valueparser";
import { defineCommand } from "../command.ts";

interface McpValue {
  cmd: "mcp";
  config?: string;
}

const parser = command(
  "mcp",
  object({
    cmd: constant("mcp" as const),
    config: optional(option("--config", string({ metavar: "PATH" }), {
      description: message`Config file for requests that name none (default: the poly.toml cascade).`,
    })),
  }),
  {
    brief: message`Serve the lint, format, cache, rules and config tools over MCP (stdio).`,
    description:
      message`Serve poly as a stdio MCP server: lint, format_check, lint_fix, format_write, cache_stats, cache_clean, rules, config_show, version, and the whole-project workspace_lint / workspace_lint_fix as tasks. Paths are confined to the directory it starts in. It exits when stdin ends.`,
  },
);

/** `poly mcp`. */
export const mcpCommand = defineCommand<McpValue>({
  parser,
  async run(value, io) {
    const { resolve } = await import("node:path");
    const { openConfig } = await import("../../config/mod.ts");
    const { serveStdio } = await import("../../serve/stdio.ts");
    const defaultConfig = value.config === undefined ? undefined : resolve(io.cwd, value.config);
    // A broken --config fails at start, where the host shows it, not on every call.
    if (defaultConfig) await (await openConfig({ cwd: io.cwd, explicit: defaultConfig })).forDir(io.cwd);
    await serveStdio({ root: io.cwd, defaultConfig });
    return 0;
  },
});
