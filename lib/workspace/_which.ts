/**
 * Finds host programs without running them: a file with an execute bit in a
 * `PATH` directory (cargo subcommands also in `$CARGO_HOME/bin`, where cargo
 * itself looks).
 *
 * @module
 */
import { delimiter, join } from "node:path";

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

function executable(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && (Deno.build.os === "windows" || ((info.mode ?? 0o111) & 0o111) !== 0);
  } catch {
    return false;
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
  const exts = Deno.build.os === "windows" ? ["", ".exe", ".cmd"] : [""];
  for (const dir of searchDirs(name)) {
    for (const ext of exts) {
      const candidate = join(dir, name + ext);
      if (executable(candidate)) return candidate;
    }
  }
  return undefined;
}
