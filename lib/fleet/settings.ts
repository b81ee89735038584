/**
 * The fleet's effective settings: `[fleet]` from poly.toml, overridden by
 * environment variables (`POLY_*`), over the built-in defaults. A call's own
 * parameters override these in turn, where the tool takes them.
 *
 * @module
 */
import { isAbsolute, join, resolve } from "node:path";
import type { FleetSectionValue } from "./config.ts";
import {
  DEFAULT_ARBITER,
  DEFAULT_BINS,
  DEFAULT_CONSENSUS_THRESHOLD,
  DEFAULT_CURSOR_MODEL,
  DEFAULT_DECIDE_MODEL,
  DEFAULT_EXPLORE_EFFORT,
  DEFAULT_EXPLORE_MODEL,
  DEFAULT_FAST,
  DEFAULT_HEALTH_THRESHOLD,
  DEFAULT_IMAGE_MODEL,
  DEFAULT_LEVELS,
  DEFAULT_MAX_ANSWER_CHARS,
  DEFAULT_OPENROUTER_BASE_URL,
  DEFAULT_QUOTA_COOLDOWN_MINUTES,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_TOOLCHAINS,
} from "./defaults.ts";
import { type EnvReader, parsePositiveInt, parseSwitch, splitPathList } from "./env.ts";
import { FleetError } from "./errors.ts";
import {
  AUX_TOOLS,
  type AuxTool,
  type Candidate,
  type EngineName,
  ENGINES,
  isEngineName,
  type Level,
  LEVELS,
  type Tier,
} from "./types.ts";

/** A per-tool engine/model/effort choice (any part may be unset). */
export interface ToolChoice {
  engine?: EngineName;
  model?: string;
  effort?: string;
  /** Where the engine choice came from, for messages ("POLY_EXPLORE_ENGINE", "poly.toml"). */
  engineSource?: string;
}

/** Everything the fleet needs to know before a call. */
export interface FleetSettings {
  /** The real home directory (auth files are bound from here). */
  home: string;
  /** The bwrap sandbox is on (default). Off only by explicit choice. */
  sandbox: boolean;
  /** `POLY_BWRAP_BIN`: where bwrap is, when not on PATH. */
  bwrapBin?: string;
  timeoutMs: number;
  enableCursor: boolean;
  bins: Record<EngineName, string>;
  levels: Record<Level, Tier>;
  fast: Candidate[];
  tools: Record<AuxTool, ToolChoice>;
  cursorModel: string;
  exploreModel: string;
  exploreEffort: string;
  imageModel: string;
  openrouterBaseUrl: string;
  decideModel: string;
  agentPaths: string[];
  sandboxExtra: string[];
  toolchains: string[];
  maxAnswerChars: number;
  healthThreshold: number;
  quotaCooldownMs: number;
  fanOut: { workers: number; consensus: boolean; consensusThreshold: number; arbiter: Tier };
  /** `POLY_JEV_SHADOW`: ask Jev alongside each delegate call what it would have decided, and log it (never acts). */
  jevShadow: boolean;
  logPath?: string;
  debug: boolean;
}

/** The environment variable prefix of an auxiliary tool: `POLY_READ_SLICE`. */
export function toolEnvPrefix(tool: AuxTool): string {
  return `POLY_${tool.toUpperCase()}`;
}

function engineFrom(value: string | undefined, source: string): EngineName | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (isEngineName(v)) return v;
  throw new FleetError(
    "invalid_request",
    `Invalid engine "${value}" in ${source}: use one of ${ENGINES.join(", ")}`,
  );
}

function absolutePaths(paths: string[], base: string): string[] {
  return paths.map((p) => (isAbsolute(p) ? p : resolve(base, p)));
}

/** Options for {@link resolveSettings}. */
export interface ResolveSettingsOptions {
  /** The validated `[fleet]` section (undefined when poly.toml has none). */
  section?: FleetSectionValue;
  /** The directory of the config file, for relative paths in it. */
  configDir?: string;
  env: EnvReader;
}

/** Merges defaults, `[fleet]` and the environment into {@link FleetSettings}. */
export function resolveSettings(options: ResolveSettingsOptions): FleetSettings {
  const { env } = options;
  const s = options.section ?? {};
  const configDir = options.configDir ?? Deno.cwd();
  const home = env("HOME") ?? env("USERPROFILE") ?? "/nonexistent";

  const sandboxEnv = env("POLY_SANDBOX");
  const sandbox = sandboxEnv !== undefined ? parseSwitch(sandboxEnv) !== false : s.sandbox !== "off";

  const bins = {} as Record<EngineName, string>;
  for (const engine of ENGINES) {
    const key = `POLY_${engine.toUpperCase()}_BIN`;
    bins[engine] = env(key) ?? s.engines?.[engine]?.bin ?? DEFAULT_BINS[engine];
  }

  const levels = {} as Record<Level, Tier>;
  for (const level of LEVELS) {
    const own = s.levels?.[String(level) as "1"];
    levels[level] = own ? { ...own } : { ...DEFAULT_LEVELS[level] };
  }

  const tools = {} as Record<AuxTool, ToolChoice>;
  for (const tool of AUX_TOOLS) {
    const prefix = toolEnvPrefix(tool);
    const fromEnv = engineFrom(env(`${prefix}_ENGINE`), `${prefix}_ENGINE`);
    const table = s.tools?.[tool];
    // POLY_EXPLORE_MODEL / _EFFORT are the read tools' codex settings (exploreModel/exploreEffort), not
    // explore's per-tool override: a fixed non-codex explore engine must not inherit a codex model.
    const own = tool !== "explore";
    tools[tool] = {
      engine: fromEnv ?? table?.engine,
      engineSource: fromEnv ? `${prefix}_ENGINE` : table?.engine ? `[fleet.tools.${tool}] in poly.toml` : undefined,
      model: (own ? env(`${prefix}_MODEL`) : undefined) ?? table?.model,
      effort: (own ? env(`${prefix}_EFFORT`) : undefined) ?? table?.effort,
    };
  }

  const threshold = Number(env("POLY_JEV_FANOUT_THRESHOLD"));
  const logPath = env("POLY_LOG") ?? s.log;

  return {
    home,
    sandbox,
    bwrapBin: env("POLY_BWRAP_BIN"),
    timeoutMs: parsePositiveInt(env("POLY_TIMEOUT_MS")) ?? s.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    enableCursor: parseSwitch(env("POLY_ENABLE_CURSOR")) ?? s.enable_cursor ?? false,
    bins,
    levels,
    fast: (s.fast ?? DEFAULT_FAST).map((c) => ({ ...c })),
    tools,
    cursorModel: env("POLY_MODEL") ?? s.cursor_model ?? DEFAULT_CURSOR_MODEL,
    exploreModel: env("POLY_EXPLORE_MODEL") ?? s.explore_model ?? DEFAULT_EXPLORE_MODEL,
    exploreEffort: env("POLY_EXPLORE_EFFORT") ?? s.explore_effort ?? DEFAULT_EXPLORE_EFFORT,
    imageModel: env("POLY_IMAGE_MODEL") ?? s.image_model ?? DEFAULT_IMAGE_MODEL,
    openrouterBaseUrl: (env("POLY_OPENROUTER_BASE_URL") ?? s.openrouter_base_url ?? DEFAULT_OPENROUTER_BASE_URL)
      .replace(/\/+$/, ""),
    decideModel: env("POLY_DECIDE_MODEL") ?? s.decide_model ?? DEFAULT_DECIDE_MODEL,
    agentPaths: [...splitPathList(env("POLY_AGENT_PATHS")), ...absolutePaths(s.agent_paths ?? [], configDir)],
    sandboxExtra: [...splitPathList(env("POLY_SANDBOX_EXTRA")), ...absolutePaths(s.sandbox_extra ?? [], configDir)],
    toolchains: [...(s.toolchains ?? DEFAULT_TOOLCHAINS)],
    maxAnswerChars: parsePositiveInt(env("POLY_MAX_ANSWER_CHARS")) ?? s.max_answer_chars ?? DEFAULT_MAX_ANSWER_CHARS,
    healthThreshold: s.health_threshold ?? DEFAULT_HEALTH_THRESHOLD,
    quotaCooldownMs: (s.quota_cooldown_minutes ?? DEFAULT_QUOTA_COOLDOWN_MINUTES) * 60_000,
    fanOut: {
      workers: s.fan_out?.workers ?? 2,
      consensus: parseSwitch(env("POLY_JEV_FANOUT")) ?? s.fan_out?.consensus ?? false,
      consensusThreshold: Number.isFinite(threshold) && threshold > 0 && threshold <= 1
        ? threshold
        : s.fan_out?.consensus_threshold ?? DEFAULT_CONSENSUS_THRESHOLD,
      arbiter: { ...(s.fan_out?.arbiter ?? DEFAULT_ARBITER) },
    },
    jevShadow: parseSwitch(env("POLY_JEV_SHADOW")) ?? false,
    logPath: logPath ? (isAbsolute(logPath) ? logPath : join(configDir, logPath)) : undefined,
    debug: parseSwitch(env("POLY_DEBUG")) ?? false,
  };
}
