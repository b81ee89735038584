/**
 * Library entry points the CLI tests use next to the real process.
 *
 * @module
 */
export { callTool, resolveProfile } from "../../lib/gateway/mod.ts";
export { openStore } from "../../lib/store/mod.ts";
