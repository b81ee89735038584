/**
 * The upstream-schema window of one MCP session (seed 002: at most MAX_MCP_SCHEMAS at
 * once), and where it lives: with the session's server, so it ends with the session.
 */
import assert from "node:assert/strict";
import { MAX_MCP_SCHEMAS, SchemaWindow } from "../../lib/gateway/schema_window.ts";
import * as window from "../../lib/gateway/schema_window.ts";

Deno.test("SchemaWindow holds at most MAX_MCP_SCHEMAS targets, drops the least recently described", () => {
  const w = new SchemaWindow();
  assert.deepEqual(w.hold("a/x"), { max: MAX_MCP_SCHEMAS, held: ["a/x"] });
  assert.deepEqual(w.hold("a/y"), { max: MAX_MCP_SCHEMAS, held: ["a/x", "a/y"] });
  assert.deepEqual(w.hold("a/x"), { max: MAX_MCP_SCHEMAS, held: ["a/y", "a/x"] });
  assert.deepEqual(w.hold("a/z"), { max: MAX_MCP_SCHEMAS, held: ["a/x", "a/z"], dropped: "a/y" });
});

Deno.test("no window outlives its session: there is no process-wide table of sessions to forget", () => {
  // Before, windows were kept in a module-level map keyed by HTTP session id and never deleted when a session
  // closed; now each server (one per HTTP session, one per stdio process) owns its window.
  assert.deepEqual(Object.keys(window).sort(), ["MAX_MCP_SCHEMAS", "SchemaWindow"]);
});
