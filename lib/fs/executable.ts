/**
 * Finding a program without running it — the one PATH lookup poly has (engines'
 * host tools, `poly doctor`, the whole-project jobs, the fleet's agent command
 * lines and the gateway's stdio upstreams all ask here): a file with an execute
 * bit in a `PATH` directory. On Windows `<name>.exe`, then `<name>.cmd`, then
 * `<name>`.
 *
 * @example
 * ```ts
 * findExecutable("shellcheck"); // "/usr/bin/shellcheck", or undefined when it is not installed
 * findExecutable("codex", "/opt/agents/bin:/usr/bin"); // searched on that PATH instead of poly's own
 * findExecutable("./bin/tool"); // a name with a slash is a path: checked as given (relative to the cwd)
 * ```
 *
 * @module
 */
import { basename, delimiter, join, resolve } from "node:path";

const WINDOWS = Deno.build.os === "windows";

function ownPath(): string | undefined {
  try {
    return Deno.env.get("PATH");
  } catch {
    return undefined;
  }
}

function executable(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && (WINDOWS || ((info.mode ?? 0o111) & 0o111) !== 0);
  } catch {
    return false;
  }
}

/**
 * Whether the file at `path` has an executable bit set (what ruff's `EXE001` and `EXE002` read), or undefined where the
 * file cannot be stat-ed or the system keeps no mode (Windows).
 */
export function hasExecutableBit(path: string): boolean | undefined {
  try {
    const mode = Deno.statSync(path).mode;
    return mode === null ? undefined : (mode & 0o111) !== 0;
  } catch {
    return undefined;
  }
}

/**
 * Absolute path of program `name` on `pathEnv` (the `PATH` of the environment it will
 * run in; poly's own when not given), or undefined when it is not there. A `name` with
 * a slash is a path, checked as given.
 */
export function findExecutable(name: string, ...pathEnv: [pathEnv: string | undefined] | []): string | undefined {
  if (name.includes("/")) {
    const path = resolve(name);
    return executable(path) ? path : undefined;
  }
  const names = WINDOWS ? [name + ".exe", name + ".cmd", name] : [name];
  const path = pathEnv.length ? pathEnv[0] : ownPath();
  for (const dir of (path ?? "").split(delimiter).filter(Boolean)) {
    for (const file of names) {
      const candidate = join(dir, file);
      if (executable(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * Whether the program at `path` is what its name makes it rather than what its file is: a link to a program of
 * another name (rustup's proxies, busybox) or a script (a version manager's shim). Such a file stays the same while
 * the program it runs changes (`rustup update`, a `rust-toolchain.toml`), so only asking the program tells which it
 * is. A file that cannot be read counts as one.
 */
export function isIndirect(path: string): boolean {
  try {
    const real = Deno.realPathSync(path);
    return basename(real) !== basename(path) || isScript(real);
  } catch {
    return true;
  }
}

/** Whether the file at `path` is a script (it starts with `#!`); a file that cannot be read counts as one. */
export function isScript(path: string): boolean {
  try {
    const head = new Uint8Array(2);
    const file = Deno.openSync(path);
    try {
      return file.readSync(head) === 2 && head[0] === 0x23 && head[1] === 0x21; // "#!"
    } finally {
      file.close();
    }
  } catch {
    return true;
  }
}
