/**
 * Standing instructions for coding agents: the managed poly block in CLAUDE.md
 * (`poly agents claude-md install | uninstall`), refreshed by `poly mcp` at start.
 * The call-time hook lives in `lib/hooks/agent/`.
 *
 * @example
 * ```ts
 * import { refreshClaudeMdBlock } from "./lib/agents/mod.ts";
 * await refreshClaudeMdBlock(); // at server start: rewrites an installed block only
 * ```
 *
 * @module
 */
export {
  BLOCK_BEGIN_PREFIX,
  BLOCK_END,
  type ClaudeMdAction,
  type ClaudeMdOptions,
  claudeMdPath,
  type ClaudeMdResult,
  installClaudeMd,
  refreshClaudeMdBlock,
  refreshEnabled,
  type RefreshOptions,
  removeBlock,
  renderBlock,
  uninstallClaudeMd,
  upsertBlock,
} from "./claude_md.ts";
