/**
 * Typed re-exports of the MCP SDK's client side (tests, benchmarks). Kept apart
 * from `_sdk.ts` so the server never loads the client's process-spawning code.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/stdio"
export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
export { Client } from "@modelcontextprotocol/sdk/client";
