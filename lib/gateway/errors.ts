/**
 * The gateway's errors and the exact messages the specification names.
 *
 * @module
 */
import { ExitCode, PolyError } from "../errors/mod.ts";

/** Refusal when a grant or a call names a fingerprint that is no longer the tool's current one. */
export const SCHEMA_CHANGED = "The approved MCP tool schema changed. Review the current fingerprint";

/** Outcome of a write that could not be confirmed; further writes to its server wait until it is resolved. */
export const OUTCOME_UNCERTAIN =
  "The MCP mutation outcome is uncertain. Verify the recorded operation before another write.";

/** Machine-readable reason of a {@link GatewayError}. */
export type GatewayErrorCode =
  | "invalid_endpoint"
  | "invalid_name"
  | "invalid_command"
  | "exists"
  | "not_found"
  | "disabled"
  | "discovery_failed"
  | "catalog_refused"
  | "revision_conflict"
  | "schema_changed"
  | "grant_refused"
  | "not_granted"
  | "profile"
  | "unresolved_mutation"
  | "token"
  | "oauth"
  | "sandbox"
  | "upstream"
  | "invalid_request";

/** A refusal or failure of the gateway, with a reason code for programs and a message for people. */
export class GatewayError extends PolyError {
  /** Why, for programs (MCP tool results carry it). */
  readonly code: GatewayErrorCode;
  constructor(code: GatewayErrorCode, message: string, options: { cause?: unknown; exitCode?: number } = {}) {
    super(message, { exitCode: options.exitCode ?? ExitCode.Incomplete, cause: options.cause });
    this.name = "GatewayError";
    this.code = code;
  }
}

/** Whether `error` is a {@link GatewayError} with the given code. */
export function isGatewayError(error: unknown, code?: GatewayErrorCode): error is GatewayError {
  return error instanceof GatewayError && (code === undefined || error.code === code);
}
