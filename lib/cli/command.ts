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
import type { CommandIO } from "../io/mod.ts";

export type { CommandIO };

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
