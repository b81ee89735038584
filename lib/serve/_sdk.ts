/**
 * Typed re-exports of the MCP SDK's subpath modules. Under Deno, subpaths such as
 * `@modelcontextprotocol/sdk/server/mcp.js` lose their types; a `@ts-types`
 * comment above each re-export restores them. Import the SDK through this file.
 * Client pieces are in `_sdk_client.ts`: the client's stdio transport pulls in
 * modules that read environment variables poly is not allowed to read.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
export { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
export type { RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
export { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  CallToolResultSchema,
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  McpError,
  RELATED_TASK_META_KEY,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export type {
  CallToolResult,
  Implementation,
  Request,
  RequestId,
  Result,
  ServerNotification,
  ServerRequest,
  Task,
  ToolAnnotations as SdkToolAnnotations,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/shared/protocol"
export type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
export type {
  CreateTaskOptions,
  CreateTaskRequestHandlerExtra,
  TaskRequestHandlerExtra,
  TaskStore,
  ToolTaskHandler,
} from "@modelcontextprotocol/sdk/experimental/tasks";
