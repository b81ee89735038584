/**
 * The built-in ladder and cascades (the seed's defaults). Every one can be
 * overridden in `[fleet]` or by environment variables; see `docs/fleet.md`.
 *
 * @module
 */
import type { Candidate, EngineName, Level, Tier } from "./types.ts";

/**
 * Delegate levels: a distinct model per level, cheapest first. Levels 4 and 5 are
 * expensive (5 costs ~3.3× level 4): last resort only.
 */
export const DEFAULT_LEVELS: Readonly<Record<Level, Tier>> = {
  1: { engine: "codex", model: "gpt-6-luna", effort: "max" },
  2: { engine: "codex", model: "gpt-6-sol", effort: "high" },
  3: { engine: "codex", model: "gpt-6-sol", effort: "max" },
  4: { engine: "claude", model: "claude-opus-5-5", effort: "high" },
  5: { engine: "claude", model: "claude-opus-5-5", effort: "max" },
};

/**
 * fast_delegate's cascade (also run_filtered's, and the read tools' before the
 * capability filter): two subscriptions, then pay-per-token OpenRouter through
 * opencode, tried only when both are missing, unhealthy or out of quota.
 */
export const DEFAULT_FAST: readonly Candidate[] = [
  { engine: "codex", model: "gpt-6-luna", effort: "medium" },
  { engine: "claude", model: "claude-haiku-5-5", effort: "low" },
  { engine: "opencode", model: "openrouter/inception/mercury-2", paid: true },
];

/** Default binary name per engine (`POLY_<ENGINE>_BIN` overrides). */
export const DEFAULT_BINS: Readonly<Record<EngineName, string>> = {
  codex: "codex",
  claude: "claude",
  grok: "grok",
  opencode: "opencode",
  cursor: "cursor-agent",
};

/** Model for explore, read_slice and web_lookup on codex. */
export const DEFAULT_EXPLORE_MODEL = "gpt-6-luna";
/** Effort for explore, read_slice and web_lookup on codex. */
export const DEFAULT_EXPLORE_EFFORT = "medium";
/** Model codex uses to drive its built-in image tool. */
export const DEFAULT_IMAGE_MODEL = "gpt-6-sol";
/** Default model of the opt-in cursor-agent path. */
export const DEFAULT_CURSOR_MODEL = "composer-2.5-fast";
/** OpenRouter's chat-completions base URL. */
export const DEFAULT_OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1";
/** decide's model (TypeSafe's Jev on OpenRouter). */
export const DEFAULT_DECIDE_MODEL = "typesafe/jev";
/** Per-call safety-net timeout: 30 minutes. */
export const DEFAULT_TIMEOUT_MS = 30 * 60 * 1000;
/** The fan_out arbiter. */
export const DEFAULT_ARBITER: Tier = { engine: "codex", model: "gpt-6-sol", effort: "high" };
/** Agreement probability at or above which fan_out's consensus gate skips the arbiter. */
export const DEFAULT_CONSENSUS_THRESHOLD = 0.85;
/** Longest answer handed back to the caller. */
export const DEFAULT_MAX_ANSWER_CHARS = 100_000;
/** Raw engine output kept for parsing (bytes of stdout). */
export const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;
/** Success rate below which an engine is unhealthy. */
export const DEFAULT_HEALTH_THRESHOLD = 0.3;
/** How long a quota failure keeps an engine out of cascades. */
export const DEFAULT_QUOTA_COOLDOWN_MINUTES = 60;

/**
 * Toolchain folders (relative to HOME) bound read-only into the sandbox when they
 * exist. Never folders that hold credentials (`~/.cargo` itself holds
 * `credentials.toml`, so only its `bin` is bound).
 */
export const DEFAULT_TOOLCHAINS: readonly string[] = [
  ".cargo/bin",
  ".rustup",
  ".nvm/versions",
  ".local/bin",
  ".deno/bin",
  ".bun/bin",
  "go/bin",
  ".volta/bin",
  ".volta/tools",
];
