/**
 * Typed re-exports of the MCP SDK's client-side subpath modules. Under Deno, subpaths
 * such as `@modelcontextprotocol/sdk/client/auth.js` lose their types; a `@ts-types`
 * comment above each re-export restores them. The gateway imports the SDK only here.
 *
 * The SDK's `StdioClientTransport` is deliberately not used: it loads `cross-spawn`,
 * whose `which` reads `$OSTYPE` at import time, which poly's env permission does not
 * name. `stdio_transport.ts` spawns with `Deno.Command` instead.
 *
 * @module
 */

export { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/client/auth"
export { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
// @ts-types="@modelcontextprotocol/sdk/client/auth"
export type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
// @ts-types="@modelcontextprotocol/sdk/shared/auth"
export type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  CallToolResultSchema,
  ErrorCode,
  JSONRPCMessageSchema,
  McpError,
  ToolSchema,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export type { CallToolResult, JSONRPCMessage, Tool } from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
export type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
