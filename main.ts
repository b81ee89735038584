/**
 * The poly executable: loads the program (lib/cli/program.ts) — from the bundle
 * built for this checkout when its source is what the bundle was built from,
 * else from source (lib/identity/launch.ts) — runs it on the process's arguments
 * and exits with its code. No logic of its own.
 *
 * @module
 */
import { fileURLToPath } from "./lib/paths/path.ts";
import { bundleFailed, chooseProgram } from "./lib/identity/launch.ts";

type Program = typeof import("./lib/cli/program.ts");

if (import.meta.main) {
  const root = fileURLToPath(new URL(".", import.meta.url));
  const entry = await chooseProgram(root, Deno.args);
  let program: Program | undefined;
  if (entry !== undefined) {
    try {
      program = await import(entry);
    } catch (error) {
      bundleFailed(root, error);
    }
  }
  program ??= await import("./lib/cli/program.ts");
  Deno.exit(await program.run(Deno.args));
}
