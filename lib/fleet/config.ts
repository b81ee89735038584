/**
 * The `[fleet]` section of poly.toml. Every table is strict: a misspelt key is an
 * error, never silently ignored. `lib/config/schema.ts` embeds {@link FleetSection}.
 *
 * ```toml
 * [fleet]
 * sandbox = "bwrap"            # or "off" (explicit operator choice)
 * timeout_ms = 1800000
 *
 * [fleet.levels.4]
 * engine = "claude"
 * model = "claude-opus-5-5"
 * effort = "high"
 *
 * [fleet.tools.web_lookup]
 * engine = "claude"
 * ```
 *
 * @module
 */
import { z } from "zod";
import { AUX_TOOLS, ENGINES } from "./types.ts";

const Engine = z.enum(ENGINES);
const NonEmpty = z.string().min(1);

/** One (engine, model, effort) triple. */
export const TierTable = z.strictObject({
  engine: Engine,
  model: NonEmpty.optional(),
  effort: NonEmpty.optional(),
});

/** A cascade candidate (`[[fleet.fast]]`). */
export const CandidateTable = z.strictObject({
  engine: Engine,
  model: NonEmpty.optional(),
  effort: NonEmpty.optional(),
  /** Billed per token: tried only after every subscription candidate. */
  paid: z.boolean().optional(),
});

/** `[fleet.tools.<tool>]`: a fixed engine (no cascade), model and effort for one auxiliary tool. */
export const ToolTable = z.strictObject({
  engine: Engine.optional(),
  model: NonEmpty.optional(),
  effort: NonEmpty.optional(),
});

/** `[fleet.engines.<engine>]`: where the CLI is. */
export const EngineTable = z.strictObject({
  bin: NonEmpty.optional(),
});

/** `[fleet.fan_out]`. */
export const FanOutTable = z.strictObject({
  /** Workers when the call names none (2–5). */
  workers: z.number().int().min(1).max(5).optional(),
  /** Ask decide whether the workers agree before running the arbiter. */
  consensus: z.boolean().optional(),
  consensus_threshold: z.number().min(0).max(1).optional(),
  arbiter: TierTable.optional(),
});

const LevelKey = z.enum(["1", "2", "3", "4", "5"]);

/** The whole `[fleet]` section. */
export const FleetSection = z.strictObject({
  /** "bwrap" (default) or "off". `POLY_SANDBOX` wins. */
  sandbox: z.enum(["bwrap", "off"]).optional(),
  /** Per-call safety-net timeout. `POLY_TIMEOUT_MS` wins. */
  timeout_ms: z.number().int().min(1).optional(),
  enable_cursor: z.boolean().optional(),
  cursor_model: NonEmpty.optional(),
  explore_model: NonEmpty.optional(),
  explore_effort: NonEmpty.optional(),
  image_model: NonEmpty.optional(),
  openrouter_base_url: z.url().optional(),
  decide_model: NonEmpty.optional(),
  /** Extra persona roots, searched before `.claude/agents` and `~/.claude/agents`. */
  agent_paths: z.array(NonEmpty).optional(),
  /** Extra host paths bound read-write into the sandbox. */
  sandbox_extra: z.array(NonEmpty).optional(),
  /** Paths relative to HOME bound read-only into the sandbox (toolchains). */
  toolchains: z.array(NonEmpty).optional(),
  /** Longest answer returned to the caller; longer answers are cut with a note. */
  max_answer_chars: z.number().int().min(100).optional(),
  /** Success rate (0–1) below which an engine counts as unhealthy. */
  health_threshold: z.number().min(0).max(1).optional(),
  /** How long a quota failure keeps an engine out of cascades. */
  quota_cooldown_minutes: z.number().min(0).optional(),
  /** JSONL call log path (like `POLY_LOG`). */
  log: NonEmpty.optional(),
  levels: z.partialRecord(LevelKey, TierTable).optional(),
  fast: z.array(CandidateTable).min(1).optional(),
  tools: z.partialRecord(z.enum(AUX_TOOLS), ToolTable).optional(),
  engines: z.partialRecord(Engine, EngineTable).optional(),
  fan_out: FanOutTable.optional(),
});

/** The validated `[fleet]` section. */
export type FleetSectionValue = z.infer<typeof FleetSection>;
