/**
 * The npm packages of the MCP server's start-up graph — the SDK and zod —
 * loaded one step before the rest of it (`lib/cli/commands/_mcp_run.ts`).
 *
 * Why: a module graph loaded with a dynamic import resolves its npm packages
 * module by module, and with `nodeModulesDir: "auto"` every module that names a
 * package not resolved yet makes Deno re-check `node_modules` under a file lock
 * (~4 ms each). The tool definitions are ~40 modules naming zod: loaded after
 * this module, they find it resolved and cost nothing extra.
 *
 * @module
 */
export { z } from "zod";
export { McpServer } from "./_sdk.ts";
