/**
 * The shape of one CLI command. Each command is a file in `lib/cli/commands/`
 * exporting a {@link CommandSpec}; `lib/cli/commands/table.ts` lists them and
 * `main.ts` parses argv with `@optique/run` and calls the chosen command's `run`.
 *
 * Parsers import only `@optique/*` (through `lib/cli/_optique.ts`); a command's
 * `run` loads its heavy modules with a literal `await import("../../run/mod.ts")`
 * where it needs them: under Deno's `lazy-dynamic-imports` (deno.json) `deno run`
 * walks such a module's graph only when the import runs, never at start.
 *
 * @module
 */
import type { Parser } from "./_optique.ts";
import type { RunMemo } from "../run/types.ts";

/** The streams a command writes to; tests pass their own. */
export interface CommandIO {
  /** Writes a document or text to stdout (no newline added). */
  stdout(text: string): Promise<void>;
  /** Writes a message for a person to stderr (no newline added). */
  stderr(text: string): Promise<void>;
  /** Whether stdout and stderr are terminals (colour, progress). */
  stdoutIsTerminal: boolean;
  stderrIsTerminal: boolean;
  /** The working directory the command was run from. */
  cwd: string;
  /** Set by a resident `poly daemon` only: what its earlier runs know (lint and fmt pass it on). */
  memo?: RunMemo;
}

/**
 * One command: its parser, and what it does with the parsed value. `run` returns
 * the process exit code; it throws a `PolyError` for a failure with its own code.
 */
export interface CommandSpec<T = unknown> {
  // deno-lint-ignore no-explicit-any
  parser: Parser<"sync", T, any>;
  run(value: T, io: CommandIO): Promise<number>;
}

/** Declares a command with its value type checked against its runner. */
export function defineCommand<T>(spec: CommandSpec<T>): CommandSpec<unknown> {
  return spec as CommandSpec<unknown>;
}
