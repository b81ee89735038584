/**
 * The poly executable: loads the program (lib/cli/program.ts) — for `poly lint`
 * and `poly fmt`, from the bundle built for this checkout when its source is
 * what the bundle was built from (lib/identity/launch.ts), else from source —
 * runs it on the process's arguments and exits with its code. No logic of its own.
 *
 * @module
 */
type Program = typeof import("./lib/cli/program.ts");

if (import.meta.main) {
  let program: Program | undefined;
  // Only runs that start engines may load a bundle (see chooseProgram): the others load nothing more to choose.
  if (Deno.args[0] === "lint" || Deno.args[0] === "fmt") {
    const [{ fileURLToPath }, { bundleFailed, chooseProgram }] = await Promise.all([
      import("./lib/paths/path.ts"),
      import("./lib/identity/launch.ts"),
    ]);
    const root = fileURLToPath(new URL(".", import.meta.url));
    const entry = await chooseProgram(root, Deno.args);
    if (entry !== undefined) {
      try {
        program = await import(entry);
      } catch (error) {
        bundleFailed(root, error);
      }
    }
  }
  program ??= await import("./lib/cli/program.ts");
  Deno.exit(await program.run(Deno.args));
}
