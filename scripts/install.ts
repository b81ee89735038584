/**
 * `deno task install [--root DIR]`: puts a `poly` command on PATH that runs this
 * checkout from source with the program's permission set, never prompting —
 * exactly the command line of `deno task poly` (lib/identity/code.ts
 * `sourceCommand`), with the checkout's `deno.json` named, so `poly lint` run
 * in any folder lints that folder.
 *
 * It writes `DIR/bin/poly` (and `poly.cmd` on Windows), replacing the file
 * atomically, and builds the bundle the program loads from while the checkout
 * is unchanged (scripts/bundle.ts). DIR is `--root`, else `$DENO_INSTALL_ROOT`, else `~/.deno`, where
 * `deno install --global` puts commands. (`deno install --global -P` would write
 * a launcher without the permission set: Deno 2.9 drops `-P` from it.)
 *
 * @module
 */
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sourceCommand } from "../lib/identity/code.ts";
import { buildBundle } from "./bundle.ts";

/** The checkout this script belongs to. */
export const CHECKOUT: string = fileURLToPath(new URL("../", import.meta.url)).replace(/[\\/]$/, "");

/** Thrown for a bad command line (exit code 2). */
export class UsageError extends Error {
  override name = "UsageError";
}

/** The installation root from the arguments and environment. */
export function installRoot(args: readonly string[], env: (name: string) => string | undefined): string {
  let root: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--root") {
      root = args[++i];
      if (!root) throw new UsageError("--root needs a folder: use --root DIR");
    } else if (arg.startsWith("--root=")) root = arg.slice("--root=".length);
    else throw new UsageError(`Unknown option "${arg}": use --root DIR (default: $DENO_INSTALL_ROOT, else ~/.deno)`);
  }
  if (root) return root;
  const fromEnv = env("DENO_INSTALL_ROOT");
  if (fromEnv) return fromEnv;
  const home = env("HOME") ?? env("USERPROFILE");
  if (!home) throw new UsageError("No home folder (HOME is unset): pass --root DIR");
  return join(home, ".deno");
}

function shQuote(arg: string): string {
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** The launcher scripts for `argv`: file name → text. */
export function launchers(argv: readonly string[], os: typeof Deno.build.os = Deno.build.os): Record<string, string> {
  const note = `poly from the source checkout ${CHECKOUT} (written by \`deno task install\`)`;
  if (os === "windows") {
    return { "poly.cmd": `@echo off\r\nrem ${note}\r\n${argv.map((a) => `"${a}"`).join(" ")} %*\r\n` };
  }
  return { poly: `#!/bin/sh\n# ${note}\nexec ${argv.map(shQuote).join(" ")} "$@"\n` };
}

async function writeAtomic(path: string, text: string): Promise<void> {
  const temp = `${path}.${Deno.pid}.tmp`;
  try {
    await Deno.writeTextFile(temp, text, { mode: 0o755 });
    await Deno.chmod(temp, 0o755).catch(() => {}); // the umask may have narrowed it; Windows has no mode
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/** Installs the launcher under `root`; returns the paths written. */
export async function install(root: string): Promise<string[]> {
  const bin = join(root, "bin");
  await Deno.mkdir(bin, { recursive: true });
  const written: string[] = [];
  for (const [name, text] of Object.entries(launchers(sourceCommand(CHECKOUT)))) {
    const path = join(bin, name);
    await writeAtomic(path, text);
    written.push(path);
  }
  return written;
}

if (import.meta.main) {
  const env = (name: string) => Deno.env.get(name) || undefined;
  try {
    const root = installRoot(Deno.args, env);
    const [path] = await install(root);
    console.log(`Installed poly from ${CHECKOUT} as ${path}`);
    // The program loads from a bundle of this checkout while its source is what the bundle was built from
    // (lib/identity/launch.ts); without one it runs from source, as it does after an edit until the next build.
    try {
      const { folder } = await buildBundle(CHECKOUT);
      console.log(`Bundled the program into ${folder} (\`deno task bundle\` again after editing the checkout)`);
    } catch (error) {
      console.error(
        `warning: poly will run from source, slower to start: the bundle was not built: ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
    }
    const bin = join(root, "bin");
    if (!(env("PATH") ?? "").split(delimiter).includes(bin)) {
      console.log(`${bin} is not on PATH: add it (e.g. export PATH="${bin}:$PATH" in your shell's profile)`);
    }
    console.log("Then run poly in your own repository: cd your-repo && poly lint");
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(error instanceof UsageError ? 2 : 1);
  }
}
