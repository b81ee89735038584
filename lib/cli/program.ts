/**
 * The program main.ts loads — from source, or as the entry of a bundle of it
 * (lib/identity/launch.ts): runs the command line on the process's arguments and
 * turns what escapes it into an exit code. No logic of its own.
 *
 * @module
 */
import { ExitSignal, main, processIO } from "./main.ts";
import { describeError, ExitCode, OutputClosed } from "../errors/mod.ts";

/** Runs poly on `args` for this process; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  try {
    return await main(args, processIO(), { warm: true });
  } catch (error) {
    // A reader that closed poly's output (`poly lint | head -1`) ends it quietly, as ruff does.
    if (error instanceof OutputClosed) return ExitCode.Clean;
    if (error instanceof ExitSignal) return error.code;
    console.error(`error: ${describeError(error)}`);
    return ExitCode.Incomplete;
  }
}
