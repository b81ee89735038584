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
  // A signal that stopped poly's processes ends poly as it would have (143 for SIGTERM), not as the failure it caused.
  if (code !== ExitCode.Clean) code = (await import("./lib/process/ending.ts")).signalExitCode() ?? code;
  Deno.exit(code);
}
