/**
 * Every MCP tool poly serves. Add a tool by adding its file and one line here.
 *
 * @module
 */
import type { ToolDef } from "./_tool.ts";

/** All tools, in the order `tools/list` shows them. */
export const TOOLS: ToolDef[] = [
];
