/**
 * Typed re-exports of the MCP SDK's Streamable HTTP server pieces, for
 * `poly mcp --http` (the client's are in lib/remote/_sdk.ts). Under Deno the
 * subpath modules lose their types without the `@ts-types` comments.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/server/auth/types"
export type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
