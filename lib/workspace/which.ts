/**
 * Finds whole-project tools without running them: on PATH (`findExecutable`, the
 * one PATH lookup, lib/fs/executable.ts), cargo subcommands (`cargo-sort`, ...)
 * also in `$CARGO_HOME/bin` (or `~/.cargo/bin`), where cargo itself looks for them.
 * `cargo` itself only on PATH: poly runs it by name. `poly lint`'s whole-project
 * phase and `poly doctor` both ask here, so they agree on what is installed.
 *
 * @module
 */
import { delimiter, join } from "node:path";
import { findExecutable } from "../fs/executable.ts";
import { env } from "../paths/mod.ts";

/** The directories searched for `name`: PATH, plus `$CARGO_HOME/bin` (or `~/.cargo/bin`) for cargo subcommands. */
export function searchDirs(name: string): string[] {
  const dirs = (env("PATH") ?? "").split(delimiter).filter(Boolean);
  if (isCargoSubcommand(name)) {
    const home = env("CARGO_HOME") ?? (env("HOME") ? join(env("HOME")!, ".cargo") : undefined);
    if (home) dirs.push(join(home, "bin"));
  }
  return dirs;
}

/** Absolute path of program `name`, or undefined when it is not installed. */
export function which(name: string): string | undefined {
  return findExecutable(name, searchDirs(name).join(delimiter));
}

/** `cargo-<name>`, which `cargo <name>` runs from PATH or `$CARGO_HOME/bin`. */
export function isCargoSubcommand(name: string): boolean {
  return name.startsWith("cargo-");
}
