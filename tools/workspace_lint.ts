/**
 * `workspace_lint` — the whole-project phase in check mode, as an MCP Task:
 * cargo clippy, cargo-sort --check, cargo-machete, cargo-deny, go vet and the
 * inline `[workspace.jobs.*]` over the whole root.
 *
 * Not read-only: it applies no fixes, but it executes those tools against the
 * live worktree, and their side effects (a refreshed lock file, a populated build
 * cache) are not poly's to control. It may reach the network (cargo fetching
 * crates, cargo-deny its advisory database).
 *
 * @module
 */
import { Report } from "../lib/report/schema.ts";
import { runWorkspaceTool, WORKSPACE_INPUT } from "./_workspace.ts";
import { defineTool } from "./_tool.ts";

/** The `workspace_lint` tool. */
export const workspaceLintTool = defineTool({
  name: "workspace_lint",
  title: "Whole-project checks",
  description:
    "Run the whole-project checks over the workspace root: cargo clippy, cargo-sort --check, cargo-machete, cargo-deny (when installed) for each Cargo workspace, go vet for each Go module, and the [workspace.jobs.*] of poly.toml. Takes minutes: runs as a task (tasks/get, tasks/cancel stops its processes); clients without tasks get a blocking result. Applies no fixes, but executes those tools against the worktree (lock files, build caches). Returns a report of kind workspace; a missing tool is a skip, not an error.",
  level: "act",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  inputSchema: WORKSPACE_INPUT,
  outputSchema: Report,
  task: true,
  handler: (args, ctx) => runWorkspaceTool(false, args, ctx),
});
