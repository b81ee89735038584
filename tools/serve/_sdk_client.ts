/**
 * Typed re-exports of the MCP SDK's client side, and of what only tests and
 * benchmarks use (the in-memory transport, the protocol's result schemas and
 * error codes). Kept apart from `_sdk.ts` so the server never loads the
 * client's process-spawning code, nor names packages it does not run with.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/stdio"
export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
export { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
export { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  CallToolResultSchema,
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  ListRootsRequestSchema,
  McpError,
  RELATED_TASK_META_KEY,
} from "@modelcontextprotocol/sdk/types.js";
