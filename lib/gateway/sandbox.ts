/**
 * How a stdio upstream is started. poly's run permission names a few programs only
 * (deno.json `permissions.default.run`), and a stdio upstream's command is chosen at
 * run time, so poly never spawns it directly: it starts `bwrap` (bubblewrap, allowed by
 * name) and bubblewrap starts the command inside the same sandbox the fleet's engines
 * get (one argument builder, lib/sandbox):
 *
 * - system paths read-only, a fresh `/dev`, `/proc`, and a private `/tmp` (TMPDIR);
 * - an empty tmpfs over the real HOME: nothing of the user's home is visible;
 * - read-only: the command's program folder (when outside the system paths), each absolute
 *   path among its arguments that exists (a script), and each `--bind-ro` path given at
 *   registration;
 * - the working directory recorded at registration, bound read-write, and the command run there
 *   (a folder that holds the home directory is refused);
 * - poly's state home (poly.db, gateway.key) and cache home hidden wherever a bind would expose
 *   them, then a private, persistent, writable HOME inside the state home:
 *   `<state home>/gateway/stdio/<name>`;
 * - an empty environment except PATH, HOME, TMPDIR, LANG, the proxy and TLS variables, and the
 *   variables given with `--env` at registration (sealed in the store, opened at start);
 * - new PID, IPC and UTS namespaces, a new session, and death with poly (`--die-with-parent`:
 *   killing bwrap kills every process inside); network shared.
 *
 * Where bubblewrap is missing, stdio upstreams are refused with a message saying so.
 *
 * @module
 */
import { isAbsolute, join } from "node:path";
import { cacheHome, stateHome } from "../paths/mod.ts";
import {
  binaryDirsFor,
  type Bind,
  bwrapArgs,
  exists,
  findExecutable,
  isUnder,
  PASSTHROUGH_ENV,
  polyHomes,
  systemEntries,
  workspaceHoldsHome,
} from "../sandbox/mod.ts";
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
  /** Variables given to the upstream (registered with `--env`, already unsealed). */
  env?: Record<string, string>;
  /** Host paths bound read-only (registered with `--bind-ro`). */
  bindRo?: string[];
  /** Root of poly's state the upstream belongs to (its private home lies below it); defaults to stateHome(). */
  stateHome?: string;
  /** poly's homes to hide (default: `stateHome`, and the state and cache homes of this process). */
  polyHomes?: string[];
  /** The real HOME, covered by an empty tmpfs (default: $HOME). */
  home?: string;
}

/** Private home directory of a stdio upstream. */
export function upstreamHome(name: string, home: string = stateHome()): string {
  return join(home, "gateway", "stdio", name);
}

function hostEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

/** The error for a working directory that holds the home directory. */
export function cwdHoldsHome(cwd: string, home: string): GatewayError {
  return new GatewayError(
    "invalid_command",
    `Working directory "${cwd}" contains the home directory "${home}": binding it into the sandbox would ` +
      `expose every file in the home. Give --cwd a project folder`,
  );
}

/** Builds the bwrap command line that runs `argv` confined; creates the private home. */
export async function sandboxedLaunch(options: SandboxOptions): Promise<Launch> {
  const own = upstreamHome(options.name, options.stateHome);
  await Deno.mkdir(own, { recursive: true, mode: 0o700 });
  const path = hostEnv("PATH") ?? "/usr/local/bin:/usr/bin:/bin";
  const home = options.home ?? hostEnv("HOME") ?? "/nonexistent";
  if (workspaceHoldsHome(options.cwd, home)) throw cwdHoldsHome(options.cwd, home);
  const system = await systemEntries();

  const readOnly: string[] = [];
  // The program: a name found on PATH, or an absolute path (a relative one lies in the bound cwd).
  const name = options.argv[0] ?? "";
  const program = name && (!name.includes("/") || isAbsolute(name)) ? await findExecutable(name, path) : undefined;
  if (program) readOnly.push(...binaryDirsFor([program, await Deno.realPath(program)], system));
  // A script named by its absolute path (node /srv/mcp/server.mjs) is visible, read-only; never a
  // folder that holds the home (node server.js /): that takes an explicit --bind-ro, which refuses it.
  for (const arg of options.argv.slice(1)) {
    if (!isAbsolute(arg) || isUnder(arg, options.cwd) || workspaceHoldsHome(arg, home)) continue;
    if (await exists(arg)) readOnly.push(arg);
  }
  for (const p of options.bindRo ?? []) {
    if (workspaceHoldsHome(p, home)) {
      throw new GatewayError(
        "invalid_command",
        `Server "${options.name}" binds "${p}", which contains the home directory "${home}": binding it would expose every file in the home. Bind the folders the server needs instead`,
      );
    }
    if (!(await exists(p))) {
      throw new GatewayError(
        "invalid_command",
        `Server "${options.name}" binds "${p}" read-only, and it does not exist: create it, or register the server again without it`,
      );
    }
    readOnly.push(p);
  }
  const binds: Bind[] = [...new Set(readOnly)].map((p) => ({ path: p, rw: false }));

  const env: Record<string, string> = { PATH: path, HOME: own, TMPDIR: "/tmp", LANG: "C.UTF-8" };
  for (const name of PASSTHROUGH_ENV) {
    const v = hostEnv(name);
    if (v !== undefined) env[name] = v;
  }
  Object.assign(env, options.env ?? {});
  const args = bwrapArgs({
    home,
    system,
    binds,
    workspace: options.cwd,
    readOnly: false,
    hide: await polyHomes(options.polyHomes ?? [options.stateHome ?? stateHome(), stateHome(), cacheHome()]),
    own: [own],
    env,
  });
  return { command: SANDBOX_PROGRAM, args: [...args, "--", ...options.argv], env: { PATH: path }, cwd: options.cwd };
}

/** The error for a missing bubblewrap. */
export function sandboxMissing(cause?: unknown): GatewayError {
  return new GatewayError(
    "sandbox",
    'Stdio upstreams run inside bubblewrap, and "bwrap" was not found: install it (Debian and Ubuntu: apt install bubblewrap) or register an HTTP upstream',
    { cause },
  );
}
