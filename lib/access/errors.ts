/**
 * Errors of members, tokens and approvals: each names what was wrong and what
 * to do, and carries the exit code the CLI ends with (2).
 *
 * @module
 */
import { ExitCode, PolyError } from "../errors/mod.ts";

/** What kind of failure an {@link AccessError} is. */
export type AccessErrorKind = "invalid" | "not_found" | "conflict" | "forbidden" | "stale";

/** A refused or invalid access operation. */
export class AccessError extends PolyError {
  readonly kind: AccessErrorKind;
  constructor(kind: AccessErrorKind, message: string) {
    super(message, { exitCode: ExitCode.Incomplete });
    this.name = "AccessError";
    this.kind = kind;
  }
}
