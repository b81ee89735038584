/**
 * How a stdio upstream is started. poly's run permission names a few programs only
 * (deno.json `permissions.default.run`), and a stdio upstream's command is chosen at
 * run time, so poly never spawns it directly: it starts `bwrap` (bubblewrap, allowed by
 * name) and bubblewrap starts the command inside a sandbox:
 *
 * - the whole filesystem read-only (`--ro-bind / /`, `/tmp` included, so a command or script kept
 *   there still runs), a fresh `/dev` and `/proc`;
 * - a private, persistent, writable HOME: `<state home>/gateway/stdio/<name>`;
 * - the working directory recorded at registration, bound read-write, and the command run there;
 * - an empty environment except PATH, HOME, LANG, and TMPDIR: a private writable `tmp/` in HOME;
 * - new PID, IPC and UTS namespaces, a new session, and death with poly; network shared.
 *
 * Where bubblewrap is missing, stdio upstreams are refused with a message saying so.
 *
 * @module
 */
import { join } from "node:path";
import { stateHome } from "../paths/mod.ts";
import { GatewayError } from "./errors.ts";

/** The program poly spawns for every stdio upstream. */
export const SANDBOX_PROGRAM = "bwrap";

/** A process to spawn: program, arguments, environment. */
export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/** Options for {@link sandboxedLaunch}. */
export interface SandboxOptions {
  /** Server name (names its private home). */
  name: string;
  /** The upstream's argv. */
  argv: string[];
  /** Working directory, bound read-write. */
  cwd: string;
  /** Root of poly's state; defaults to stateHome(). */
  stateHome?: string;
}

/** Private home directory of a stdio upstream. */
export function upstreamHome(name: string, home: string = stateHome()): string {
  return join(home, "gateway", "stdio", name);
}

/** Builds the bwrap command line that runs `argv` confined; creates the private home. */
export function sandboxedLaunch(options: SandboxOptions): Launch {
  const home = upstreamHome(options.name, options.stateHome);
  const tmp = join(home, "tmp");
  Deno.mkdirSync(tmp, { recursive: true, mode: 0o700 });
  let path = "/usr/local/bin:/usr/bin:/bin";
  try {
    path = Deno.env.get("PATH") || path;
  } catch {
    // PATH not readable: keep the default.
  }
  const args = [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--bind",
    home,
    home,
    "--bind",
    options.cwd,
    options.cwd,
    "--chdir",
    options.cwd,
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--die-with-parent",
    "--new-session",
    "--clearenv",
    "--setenv",
    "PATH",
    path,
    "--setenv",
    "HOME",
    home,
    "--setenv",
    "TMPDIR",
    tmp,
    "--setenv",
    "LANG",
    "C.UTF-8",
    "--",
    ...options.argv,
  ];
  return { command: SANDBOX_PROGRAM, args, env: { PATH: path }, cwd: options.cwd };
}

/** The error for a missing bubblewrap. */
export function sandboxMissing(cause?: unknown): GatewayError {
  return new GatewayError(
    "sandbox",
    'Stdio upstreams run inside bubblewrap, and "bwrap" was not found: install it (Debian and Ubuntu: apt install bubblewrap) or register an HTTP upstream',
    { cause },
  );
}
