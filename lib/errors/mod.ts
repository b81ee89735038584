/**
 * One typed error hierarchy. Every error a user can cause carries the exit code
 * the process should end with, and a message they can act on.
 *
 * Nothing below `main.ts` calls `Deno.exit`; it throws one of these instead.
 *
 * @module
 */

/** Exit codes: the contract every command keeps. */
export const ExitCode = {
  /** Clean: everything that was asked was verified and nothing is wrong. */
  Clean: 0,
  /** Findings: error-severity diagnostics, or formatting drift. */
  Findings: 1,
  /** The run verified less than it claims, or the invocation itself was wrong. */
  Incomplete: 2,
} as const;

/** One of the values of {@link ExitCode}. */
export type ExitCode = typeof ExitCode[keyof typeof ExitCode];

/** Base class: a failure with a message for a person and an exit code. */
export class PolyError extends Error {
  /** The exit code the process should end with. */
  readonly exitCode: number;
  constructor(message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "PolyError";
    this.exitCode = options.exitCode ?? ExitCode.Incomplete;
  }
}

/** Where in a file something went wrong (1-based line and column). */
export interface SourcePosition {
  file: string;
  line?: number;
  column?: number;
}

/**
 * A configuration file is malformed or invalid. The message is rendered as
 * `file:line:col: message`, followed by the offending line when known.
 */
export class ConfigError extends PolyError {
  readonly position: SourcePosition;
  readonly detail: string;
  readonly excerpt?: string;
  constructor(position: SourcePosition, detail: string, excerpt?: string) {
    const where = [position.file, position.line, position.column].filter((p) => p !== undefined).join(":");
    super(`${where}: ${detail}${excerpt ? `\n${excerpt}` : ""}`, { exitCode: ExitCode.Incomplete });
    this.name = "ConfigError";
    this.position = position;
    this.detail = detail;
    this.excerpt = excerpt;
  }
}

/** The command line itself was wrong (unknown option, bad value). */
export class UsageError extends PolyError {
  constructor(message: string) {
    super(message, { exitCode: ExitCode.Incomplete });
    this.name = "UsageError";
  }
}

/** A path was given that lies outside the workspace root. */
export class OutsideWorkspaceError extends PolyError {
  constructor(path: string, root: string) {
    super(`Path "${path}" is outside the workspace root "${root}": pass a path inside it`, {
      exitCode: ExitCode.Incomplete,
    });
    this.name = "OutsideWorkspaceError";
  }
}

/** Renders any thrown value as a one-line message for a person. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * The reader of poly's stdout (or stderr) went away (`poly lint | head -1`, a pager quit
 * early): the write failed with a broken pipe. Not a failure to report: like ruff and
 * ripgrep, poly stops quietly with exit code 0 (main.ts).
 */
export class OutputClosed extends Error {
  constructor(options: { cause?: unknown } = {}) {
    super("The output stream was closed by its reader", options);
    this.name = "OutputClosed";
  }
}
