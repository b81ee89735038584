/**
 * Typed re-exports of the MCP SDK's subpath modules. Under Deno, subpaths such as
 * `@modelcontextprotocol/sdk/server/mcp.js` lose their types; a `@ts-types`
 * comment above each re-export restores them. Import the SDK through this file.
 * Client pieces are in `_sdk_client.ts`: the client's stdio transport pulls in
 * modules that read environment variables poly is not allowed to read.
 *
 * Only what the server runs with is a run-time export here (types are free):
 * with `nodeModulesDir: "auto"`, every npm specifier named by the server's
 * start-up graph costs a `node_modules` check under a file lock (see
 * `_deps.ts`), so what only tests use lives in `_sdk_client.ts`.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
export { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
export type { RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export { JSONRPCMessageSchema, RootsListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export type {
  CallToolResult,
  Implementation,
  JSONRPCMessage,
  MessageExtraInfo,
  Request,
  RequestId,
  Result,
  ServerNotification,
  ServerRequest,
  Task,
  ToolAnnotations as SdkToolAnnotations,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
export type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/shared/protocol"
export type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
export type {
  CreateTaskOptions,
  CreateTaskRequestHandlerExtra,
  TaskRequestHandlerExtra,
  TaskStore,
  ToolTaskHandler,
} from "@modelcontextprotocol/sdk/experimental/tasks";
