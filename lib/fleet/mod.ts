/**
 * The agent fleet: delegation to headless coding-agent CLIs (codex, claude,
 * grok, opencode, and cursor-agent when enabled) inside a mandatory bubblewrap
 * sandbox, with sessions, ratings, health and call statistics in the state
 * store. The MCP tools in `tools/` and the CLI commands call these functions.
 *
 * ```ts
 * import { delegate, openFleet } from "./lib/fleet/mod.ts";
 * const ctx = await openFleet({ root: Deno.cwd() });
 * const out = await delegate(ctx, { prompt: "Add a --verbose flag", level: 1 });
 * console.log(out.answer, out.session_id);
 * ```
 *
 * @module
 */
export { type FleetContext, openFleet, type OpenFleetOptions, workspaceDir } from "./context.ts";
export { FleetSection, type FleetSectionValue } from "./config.ts";
export { FleetError, type FleetErrorInfo, type FleetErrorKind } from "./errors.ts";
export { envFrom, type EnvReader, processEnv } from "./env.ts";
export { type FleetSettings, resolveSettings } from "./settings.ts";
export { type EngineHealth, FleetStore, type SessionRecord, type ToolStats } from "./store.ts";
export { scrub, scrubWithReport } from "./scrub.ts";
export { adapter, ADAPTERS } from "./engines/mod.ts";
export type { BuildOptions, EngineAdapter } from "./engines/mod.ts";
export { bwrapArgs, type SandboxSpec } from "./sandbox.ts";
export { DEFAULT_FAST, DEFAULT_LEVELS } from "./defaults.ts";
export { ALWAYS_LOAD_TOOLS, FLEET_INSTRUCTIONS } from "./instructions.ts";
export {
  AUX_TOOLS,
  type AuxTool,
  type EngineName,
  ENGINES,
  FLEET_TOOLS,
  type FleetTool,
  formatHandle,
  type Level,
  LEVELS,
  parseHandle,
} from "./types.ts";
export type { PersonaInput } from "./personas.ts";
export type { DecideRequest, Decision } from "./decide.ts";
export { type WorkerOutput } from "./ops/_call.ts";
export { delegate, type DelegateInput, fastDelegate, type FastDelegateInput } from "./ops/delegate.ts";
export {
  explore,
  type ExploreInput,
  readSlice,
  type ReadSliceInput,
  runFiltered,
  type RunFilteredInput,
  webLookup,
  type WebLookupInput,
} from "./ops/auxiliary.ts";
export { decide } from "./ops/decide.ts";
export { generateImage, type ImageInput, type ImageOutput } from "./ops/image.ts";
export { fanOut, type FanOutInput, type FanOutOutput } from "./ops/fanout.ts";
export { followUp, type FollowUpInput } from "./ops/followup.ts";
export { listSessions, rate, type RateInput, type RateOutput } from "./ops/sessions.ts";
export {
  bridgeStats,
  collectStats,
  defaultExportPath,
  exportStats,
  type StatsExportInput,
  type StatsExportOutput,
  statsMarkdown,
  type StatsOutput,
} from "./ops/stats.ts";
