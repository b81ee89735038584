/**
 * The poly executable: runs the command line (lib/cli/main.ts) on the process's
 * arguments and exits with its code. No logic of its own.
 *
 * @module
 */
import { ExitSignal, main } from "./lib/cli/main.ts";
import { describeError, ExitCode, OutputClosed } from "./lib/errors/mod.ts";

export { fastPath, main, processIO } from "./lib/cli/main.ts";

if (import.meta.main) {
  let code: number;
  try {
    code = await main(Deno.args);
  } catch (error) {
    // A reader that closed poly's output (`poly lint | head -1`) ends it quietly, as ruff does.
    if (error instanceof OutputClosed) code = ExitCode.Clean;
    else if (error instanceof ExitSignal) code = error.code;
    else {
      code = ExitCode.Incomplete;
      console.error(`error: ${describeError(error)}`);
    }
  }
  Deno.exit(code);
}
