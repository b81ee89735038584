/**
 * The engine registry: one adapter per engine.
 *
 * @module
 */
import type { EngineName } from "../types.ts";
import type { EngineAdapter } from "./_adapter.ts";
import { claude } from "./claude.ts";
import { codex } from "./codex.ts";
import { cursor } from "./cursor.ts";
import { grok } from "./grok.ts";
import { opencode } from "./opencode.ts";

export type {
  BuildOptions,
  Capabilities,
  EngineAdapter,
  FailureKind,
  FailureOutput,
  HomeBind,
  ParsedOutput,
} from "./_adapter.ts";

/** Every adapter by engine name. */
export const ADAPTERS: Readonly<Record<EngineName, EngineAdapter>> = { codex, claude, grok, opencode, cursor };

/** The adapter of `engine`. */
export function adapter(engine: EngineName): EngineAdapter {
  return ADAPTERS[engine];
}
