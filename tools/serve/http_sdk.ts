/**
 * Typed re-exports of the MCP SDK's Streamable HTTP pieces (server transport,
 * client transport and client), for `poly mcp --http` and `poly remote`. Under
 * Deno the subpath modules lose their types without the `@ts-types` comments.
 * Nothing here loads the SDK's stdio client (it reads environment variables
 * poly may not read).
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/server/auth/types"
export type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
export { Client } from "@modelcontextprotocol/sdk/client";
