/**
 * Hooks: the call-time agent hook (`poly hook agent`, in `agent/`) and the git
 * hooks (`poly hooks install | uninstall | run pre-commit`, in `git/`).
 *
 * @example
 * ```ts
 * import { installGitHooks, runAgentHook } from "./lib/hooks/mod.ts";
 * const { stdout } = await runAgentHook('{"hook_event_name":"SessionStart","session_id":"s1"}');
 * await installGitHooks({ cwd: "/path/to/repo" });
 * ```
 *
 * @module
 */
export {
  type AgentHookOptions,
  type AgentHookResult,
  DEFAULT_MIN_LINES,
  DEFAULT_TOOL_PREFIX,
  type HookMode,
  hookMode,
  measureFile,
  runAgentHook,
} from "./agent/hook.ts";
export {
  type DecideOptions,
  decidePreToolUse,
  type Decision,
  type MeasureFile,
  PRELOAD_KEY,
  promptRoute,
  type ToolCall,
} from "./agent/decide.ts";
export { type DirectToolCall, directToolCall, type PolyTool, writesArtifact } from "./agent/_classify.ts";
export { loadSeen, saveSeen, STATE_PREFIX, statePath } from "./agent/state.ts";
export {
  type GitHooksOptions,
  type HookChange,
  type HookName,
  HOOKS,
  installGitHooks,
  uninstallGitHooks,
} from "./git/install.ts";
export {
  checkStaged,
  exportSet,
  gate,
  type PreCommitOptions,
  type PreCommitOutcome,
  runPreCommit,
} from "./git/pre_commit.ts";
export { CHAINED_SUFFIX, HOOK_MARKER, hookScript, isPolyHook } from "./git/_script.ts";
