/**
 * The fleet's failures. Every one is a {@link PolyError} (so the CLI exits with
 * its code) and carries a `kind` an agent can branch on, plus the engines still
 * usable when that helps the caller decide what to do next.
 *
 * @module
 */
import { ExitCode, PolyError } from "../errors/mod.ts";
import type { EngineName } from "./types.ts";

/** What went wrong, in one word. */
export type FleetErrorKind =
  /** The engine's plan quota is exhausted: never retried elsewhere automatically. */
  | "quota_exhausted"
  /** A transient throttle: wait and retry the same engine. */
  | "rate_limited"
  /** The engine failed for a reason poly does not recognise: its own message is passed through. */
  | "engine_failed"
  /** The engine ran longer than the timeout and was killed with its process tree. */
  | "timeout"
  /** bubblewrap is required and missing (or not runnable). */
  | "sandbox_unavailable"
  /** The engine is not installed, not enabled, or not capable of what the tool needs. */
  | "engine_unavailable"
  /** The call's parameters were wrong. */
  | "invalid_request"
  /** A session, persona or file named by the call does not exist. */
  | "not_found"
  /** decide's OpenRouter call failed or answered something that does not parse. */
  | "decide_failed"
  /** The caller cancelled the call. */
  | "cancelled";

/** The structured form of a fleet error, as tools return it. */
export interface FleetErrorInfo {
  kind: FleetErrorKind;
  message: string;
  engine?: string;
  usable_engines?: string[];
}

/** One fleet failure. */
export class FleetError extends PolyError {
  readonly kind: FleetErrorKind;
  readonly engine?: EngineName;
  readonly usableEngines?: EngineName[];
  constructor(
    kind: FleetErrorKind,
    message: string,
    options: { engine?: EngineName; usableEngines?: EngineName[]; cause?: unknown } = {},
  ) {
    super(message, { exitCode: ExitCode.Incomplete, cause: options.cause });
    this.name = "FleetError";
    this.kind = kind;
    this.engine = options.engine;
    this.usableEngines = options.usableEngines;
  }

  /** The structured form tools return. */
  info(): FleetErrorInfo {
    return {
      kind: this.kind,
      message: this.message,
      ...(this.engine ? { engine: this.engine } : {}),
      ...(this.usableEngines ? { usable_engines: [...this.usableEngines] } : {}),
    };
  }
}

/** Shorthand for an invalid-request error. */
export function invalid(message: string): FleetError {
  return new FleetError("invalid_request", message);
}
