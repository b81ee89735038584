/**
 * What the MCP server can tell a host about the fleet at start (its
 * `instructions`), and which fleet tools should load eagerly. The seed found
 * that deferred tool schemas are never called: hosts that support it (Claude
 * Code ≥ 2.1.121) load a tool eagerly when it carries
 * `_meta: {"anthropic/alwaysLoad": true}`.
 *
 * @module
 */

/** Fleet tools whose schemas should always load; the secondary ones stay deferred. */
export const ALWAYS_LOAD_TOOLS: readonly string[] = [
  "delegate",
  "fast_delegate",
  "explore",
  "read_slice",
  "run_filtered",
  "web_lookup",
  "fan_out",
  "rate",
];

/** The routing boundary, for the server's `instructions`. */
export const FLEET_INSTRUCTIONS = [
  "poly's fleet runs headless coding agents (codex, claude, grok, opencode) in a sandbox; their raw output never",
  "enters your context, only their answers. Route work to it:",
  "- Reading and locating without editing: explore (file:line refs, project maps), read_slice (only the relevant",
  "  lines of large files) and web_lookup (web/docs) instead of native Read/Grep/Glob/WebSearch/WebFetch. Read a",
  "  large file whole only when you are about to edit it.",
  "- Self-contained execution (a feature, a bug fix, a mechanical multi-file change, a build fix): delegate(prompt,",
  "  level) — 1–3 codex (cheap to strong), 4–5 claude (expensive, last resort) — or fast_delegate(prompt) when",
  "  picking a level is not worth it. Review the result, then rate it 1–5.",
  "- Huge command output: run_filtered(command, want). Independent opinions or split research: fan_out.",
  "- Continue a worker with follow_up(session_id). A quota error names the engines still usable and how to switch;",
  "  a rate limit means wait.",
].join("\n");
