/**
 * Every MCP tool poly serves. Add a tool by adding its file and one line here.
 *
 * A tool file holds the tool's definition (name, description, input and output
 * schemas) and a small handler; whatever the handler needs beyond that it loads
 * on its first call with a literal `import()` (lazy under Deno's
 * `lazy-dynamic-imports`, see deno.json), so `tools/list` can be answered with
 * only the definitions loaded. Name those modules in
 * {@link TOOL_MODULES} too, so a server warms them once `initialize` is answered.
 *
 * @module
 */
import { withIdentity } from "./_identity.ts";
import type { ToolDef } from "./_tool.ts";
import { lintTool } from "./lint.ts";
import { formatCheckTool } from "./format_check.ts";
import { lintFixTool } from "./lint_fix.ts";
import { formatWriteTool } from "./format_write.ts";
import { cacheStatsTool } from "./cache_stats.ts";
import { cacheCleanTool } from "./cache_clean.ts";
import { rulesTool } from "./rules.ts";
import { configShowTool } from "./config_show.ts";
import { versionTool } from "./version.ts";
import { workspaceLintTool } from "./workspace_lint.ts";
import { workspaceLintFixTool } from "./workspace_lint_fix.ts";
import { delegateTool } from "./delegate.ts";
import { fastDelegateTool } from "./fast_delegate.ts";
import { exploreTool } from "./explore.ts";
import { readSliceTool } from "./read_slice.ts";
import { runFilteredTool } from "./run_filtered.ts";
import { webLookupTool } from "./web_lookup.ts";
import { decideTool } from "./decide.ts";
import { generateImageTool } from "./generate_image.ts";
import { fanOutTool } from "./fan_out.ts";
import { followUpTool } from "./follow_up.ts";
import { bridgeStatsTool } from "./bridge_stats.ts";
import { bridgeStatsExportTool } from "./bridge_stats_export.ts";
import { rateTool } from "./rate.ts";
import { mcpServersTool } from "./mcp_servers.ts";
import { mcpDescribeTool } from "./mcp_describe.ts";
import { mcpReadTool } from "./mcp_read.ts";
import { mcpCallTool } from "./mcp_call.ts";
import { whoamiTool } from "./whoami.ts";
import { listApprovalsTool } from "./list_approvals.ts";
import { approveChangeTool } from "./approve_change.ts";
import { rejectChangeTool } from "./reject_change.ts";

/** All tools, in the order `tools/list` shows them; each result carries the identity block (tools/_identity.ts). */
export const TOOLS: ToolDef[] = [
  lintTool,
  formatCheckTool,
  lintFixTool,
  formatWriteTool,
  cacheStatsTool,
  cacheCleanTool,
  rulesTool,
  configShowTool,
  versionTool,
  workspaceLintTool,
  workspaceLintFixTool,
  delegateTool,
  fastDelegateTool,
  exploreTool,
  readSliceTool,
  runFilteredTool,
  webLookupTool,
  decideTool,
  generateImageTool,
  fanOutTool,
  followUpTool,
  bridgeStatsTool,
  bridgeStatsExportTool,
  rateTool,
  mcpServersTool,
  mcpDescribeTool,
  mcpReadTool,
  mcpCallTool,
  whoamiTool,
  listApprovalsTool,
  approveChangeTool,
  rejectChangeTool,
].map(withIdentity);

/**
 * The modules the tools' handlers load on first use, in the order a server warms
 * them in the background once `initialize` is answered: the lint and format
 * tools' first, then the rest. tests/cli/lazy_test.ts checks that every lazy
 * module a tool file (or a helper it imports) uses is listed here.
 */
export const TOOL_MODULES: readonly (() => Promise<unknown>)[] = [
  () => import("../lib/identity/mod.ts"),
  () => import("../lib/run/mod.ts"),
  () => import("../lib/run/shard.ts"),
  () => import("../lib/daemon/live.ts"),
  () => import("../lib/report/json.ts"),
  () => import("../lib/report/toon.ts"),
  () => import("../lib/config/mod.ts"),
  () => import("../lib/rules/report.ts"),
  () => import("../lib/cache/mod.ts"),
  () => import("../lib/workspace/mod.ts"),
  () => import("../lib/store/mod.ts"),
  () => import("../lib/fleet/context.ts"),
  () => import("../lib/fleet/config_load.ts"),
  () => import("../lib/fleet/ops/delegate.ts"),
  () => import("../lib/fleet/ops/auxiliary.ts"),
  () => import("../lib/fleet/ops/decide.ts"),
  () => import("../lib/fleet/ops/image.ts"),
  () => import("../lib/fleet/ops/fanout.ts"),
  () => import("../lib/fleet/ops/followup.ts"),
  () => import("../lib/fleet/ops/stats.ts"),
  () => import("../lib/fleet/ops/sessions.ts"),
  () => import("../lib/gateway/mod.ts"),
  () => import("../lib/access/mod.ts"),
  () => import("./serve/approved.ts"),
];
