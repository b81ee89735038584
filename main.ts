/**
 * The poly executable: runs the command line (lib/main.ts) on the process's
 * arguments and exits with its code. No logic of its own.
 *
 * @module
 */
import { ExitSignal, main } from "./lib/main.ts";
import { describeError, ExitCode } from "./lib/errors/mod.ts";

export { fastPath, main, processIO } from "./lib/main.ts";

if (import.meta.main) {
  let code: number;
  try {
    code = await main(Deno.args);
  } catch (error) {
    code = error instanceof ExitSignal ? error.code : ExitCode.Incomplete;
    if (!(error instanceof ExitSignal)) console.error(`error: ${describeError(error)}`);
  }
  Deno.exit(code);
}
