/**
 * The text of the managed CLAUDE.md block. The host reads `~/.claude/CLAUDE.md`
 * in every session, which makes it the strongest standing channel for routing;
 * the call-time hook covers the moments when standing text loses.
 *
 * @module
 */

/** First characters of the begin marker; the full marker carries the version: `<!-- poly:begin v=0.1.0 -->`. */
export const BLOCK_BEGIN_PREFIX = "<!-- poly:begin";

/** The end marker. */
export const BLOCK_END = "<!-- poly:end -->";

/** The managed block for `version`, markers included, ending with a newline. */
export function renderBlock(version: string): string {
  return `${BLOCK_BEGIN_PREFIX} v=${version} -->
<!-- Managed by poly: \`poly agents claude-md install\` wrote this block and \`poly mcp\` refreshes it when it starts (POLY_CLAUDE_MD=off stops that). Edit outside the markers; \`poly agents claude-md uninstall\` removes it. -->
## poly: lint, format, delegate

### Lint and format: poly first
- poly lints and formats every language in the repository behind one poly.toml, one report format and one exit-code contract. Use its MCP tools (\`lint\`, \`format_check\`; \`lint_fix\`, \`format_write\` to change files) or \`poly lint\` / \`poly fmt\` instead of running ruff, oxlint, biome, eslint, prettier, rustfmt, gofmt or shfmt directly.
- Read every result in this order: \`isError\` (or the \`errors\` array) first; then \`summary.checked\` — a run where everything was skipped is not a clean pass; only then \`results\` for diagnostics. CLI exit codes: 0 clean, 1 findings or formatting drift, 2 the run verified less than it claims.
- \`lint\`, \`format_check\`, \`rules\`, \`config_show\`, \`cache_stats\`, \`version\` are read-only: call them freely. \`lint_fix\`, \`format_write\`, \`cache_clean\`, \`workspace_lint_fix\` change files: use them when changes were asked for. Check what you changed with \`lint\` and \`format_check\` before you finish.

### Reading, locating, the web
- The host rule "prefer the dedicated file/search tools" applies to the EDIT path: native Read is right for a file you are about to edit. For PURE reading/locating/web, use \`explore\` (map or search the repo), \`read_slice\` (only the lines you need from a large file), \`run_filtered\` (a noisy command, only the relevant lines) and \`web_lookup\` (docs, errors, versions) over Read, Grep, Glob, WebSearch and WebFetch.

### Doing the work
- You are the ORCHESTRATOR. \`delegate(prompt, level)\` is the default for self-contained work — features, bug fixes, multi-file edits, builds, commits, PRs — and the worker's output never enters your context. Levels 1-3 are cheap; 4 and 5 are expensive (5 costs about 3.3× level 4): pick the lowest level that can do it. \`fast_delegate(prompt)\` when speed matters more than the level.
- \`fan_out\` for verdicts that are costly to get wrong (two designs, a merge decision, a hard root cause); not for lookups or single-file edits.
- Worker prompts stand alone: where to work, how to verify it is done, one task per call. Grade results with \`rate(session_id, 1-5)\`.
- If a poly tool's schema is not loaded (deferred), load it with ToolSearch before falling back to a native tool.
${BLOCK_END}
`;
}
