/**
 * Typed re-exports of the MCP SDK's Streamable HTTP client pieces (client
 * transport and client), for `poly remote`. Under Deno the subpath modules lose
 * their types without the `@ts-types` comments. Nothing here loads the SDK's
 * stdio client (it reads environment variables poly may not read).
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
export { Client } from "@modelcontextprotocol/sdk/client";
