/**
 * Finds whole-project tools without running them: on PATH (`findExecutable`, the
 * one PATH lookup, lib/fs/executable.ts), cargo subcommands also in
 * `$CARGO_HOME/bin` (or `~/.cargo/bin`), where cargo itself looks.
 *
 * @module
 */
import { delimiter, join } from "node:path";
import { findExecutable } from "../fs/executable.ts";

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

/** The directories searched for `name`: PATH, plus `$CARGO_HOME/bin` (or `~/.cargo/bin`) for cargo subcommands. */
export function searchDirs(name: string): string[] {
  const dirs = (env("PATH") ?? "").split(delimiter).filter(Boolean);
  if (name.startsWith("cargo")) {
    const home = env("CARGO_HOME") ?? (env("HOME") ? join(env("HOME")!, ".cargo") : undefined);
    if (home) dirs.push(join(home, "bin"));
  }
  return dirs;
}

/** Absolute path of program `name`, or undefined when it is not installed. */
export function which(name: string): string | undefined {
  return findExecutable(name, searchDirs(name).join(delimiter));
}
