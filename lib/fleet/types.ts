/**
 * Names shared by every part of the fleet: engines, tools, and the shapes a
 * resolved engine choice and an engine's answer take.
 *
 * @module
 */

/** The engines poly can delegate to. `cursor` runs the `cursor-agent` CLI and is opt-in. */
export const ENGINES = ["codex", "claude", "grok", "opencode", "cursor"] as const;

/** One engine name. */
export type EngineName = typeof ENGINES[number];

/** Whether `name` is an engine poly knows. */
export function isEngineName(name: string): name is EngineName {
  return (ENGINES as readonly string[]).includes(name);
}

/** The twelve fleet tools. */
export const FLEET_TOOLS = [
  "delegate",
  "fast_delegate",
  "explore",
  "read_slice",
  "run_filtered",
  "web_lookup",
  "decide",
  "generate_image",
  "fan_out",
  "follow_up",
  "bridge_stats",
  "rate",
] as const;

/** One fleet tool name. */
export type FleetTool = typeof FLEET_TOOLS[number];

/** The four auxiliary tools whose engine comes from a cascade or a per-tool setting. */
export const AUX_TOOLS = ["explore", "read_slice", "run_filtered", "web_lookup"] as const;

/** One auxiliary tool. */
export type AuxTool = typeof AUX_TOOLS[number];

/** Delegate levels. */
export const LEVELS = [1, 2, 3, 4, 5] as const;

/** One delegate level. */
export type Level = typeof LEVELS[number];

/** An (engine, model, effort) triple: a level, a cascade candidate, an arbiter. */
export interface Tier {
  engine: EngineName;
  model?: string;
  effort?: string;
}

/** A cascade candidate: a tier, and whether it is billed per token (tried only after every subscription). */
export interface Candidate extends Tier {
  /** Pay-per-token: never promoted above a subscription candidate by latency. */
  paid?: boolean;
}

/** A persona resolved on the host: its name (or "inline") and the system prompt it adds. */
export interface Persona {
  name: string;
  prompt: string;
  /** The file it was read from, for named personas. */
  source?: string;
}

/** Formats a session handle `engine:id`. */
export function formatHandle(engine: EngineName, id: string): string {
  return `${engine}:${id}`;
}

/** Splits a session handle `engine:id`; undefined when it is not one. */
export function parseHandle(handle: string): { engine: EngineName; id: string } | undefined {
  const at = handle.indexOf(":");
  if (at <= 0 || at === handle.length - 1) return undefined;
  const engine = handle.slice(0, at);
  if (!isEngineName(engine)) return undefined;
  return { engine, id: handle.slice(at + 1) };
}
