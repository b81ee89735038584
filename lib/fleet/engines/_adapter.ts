/**
 * The shape of one engine adapter: how to build its CLI's argument vector, how
 * to read its output, how to tell a quota failure from a rate limit, and which
 * auth and state files it needs inside the sandbox.
 *
 * Adapters are pure: no process, no filesystem. The runner (`../run.ts`) does the
 * spawning; the sandbox (`../sandbox.ts`) does the binds.
 *
 * @module
 */
import type { EngineName } from "../types.ts";

/** What one engine run is asked to do. */
export interface BuildOptions {
  prompt: string;
  model?: string;
  effort?: string;
  /** The engine's own session id to resume (not the `engine:id` handle). */
  resume?: string;
  /** The workspace must not be written (explore, read_slice, web_lookup, fan_out). */
  readOnly: boolean;
  /** Turn the engine's web search on (web_lookup). */
  web: boolean;
  /** Input images (generate_image edits), absolute paths inside the workspace. */
  images?: string[];
  /** A persona's system prompt, added through the engine's own additive channel where it has one. */
  system?: string;
  /** poly's bwrap sandbox wraps this run: the engine's own sandbox must be off (nesting fails). */
  sandboxed: boolean;
}

/** What an engine's output says. */
export interface ParsedOutput {
  /** The answer; undefined when the output holds none. */
  text?: string;
  /** The engine's session id. */
  sessionId?: string;
  /** The output reports a failure (even with exit code 0). */
  isError: boolean;
  /** Error messages the engine reported in its structured output. */
  errors: string[];
}

/** A process's three channels after it ended. */
export interface FailureOutput {
  stdout: string;
  stderr: string;
  exitCode: number | null;
}

/** A failure poly recognises. Anything else is passed through unguessed. */
export type FailureKind = "quota_exhausted" | "rate_limited";

/** A host path bound into the sandbox, relative to the real HOME. */
export interface HomeBind {
  /** Relative to HOME, e.g. ".codex/auth.json". */
  path: string;
  /** Read-write (credentials an engine refreshes, session state it resumes from). */
  rw: boolean;
  /** A directory to create when missing (session stores), so resumes persist. */
  dir?: boolean;
}

/** What an engine can do. */
export interface Capabilities {
  /** Native web search. */
  web: boolean;
  /** Read-only mode of its own (used when poly's sandbox is off). */
  ownReadOnly: boolean;
  /** A built-in image tool (generate_image). */
  image: boolean;
  /** An additive system-prompt channel for personas (otherwise the persona prefixes the prompt). */
  systemPrompt: boolean;
}

/** One engine. */
export interface EngineAdapter {
  name: EngineName;
  /** Human name for messages. */
  title: string;
  capabilities: Capabilities;
  /** Auth and state files bound from the real HOME (only those that exist, plus `dir` ones). */
  homeBinds: readonly HomeBind[];
  /** Auth environment variables passed into the sandbox when set on the host. */
  authEnv: readonly string[];
  /** Extra environment inside the sandbox (e.g. claude's IS_SANDBOX=1). */
  sandboxEnv?: Readonly<Record<string, string>>;
  /** Throws a FleetError when `model` is not acceptable (opencode needs provider/model). */
  checkModel?(model: string | undefined): void;
  /** The argument vector (without the binary). */
  buildArgs(o: BuildOptions): string[];
  /** Reads stdout. Never throws. */
  parse(stdout: string): ParsedOutput;
  /** Quota, rate limit, or null (unrecognised: the engine's own failure is passed through). */
  classify(f: FailureOutput): FailureKind | null;
}

/** Prefixes `system` to the prompt, for engines without a system-prompt channel. */
export function withPrefix(system: string | undefined, prompt: string): string {
  return system ? `${system}\n\n---\n\n${prompt}` : prompt;
}

/**
 * A prompt passed as a flag's value or a positional without `--`: a leading dash
 * would read as an option, so it gets a leading space (harmless to a model).
 */
export function argSafe(text: string): string {
  return text.startsWith("-") ? ` ${text}` : text;
}
