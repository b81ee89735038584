/**
 * The bubblewrap sandbox every engine runs in. It is mandatory: without `bwrap`
 * the delegation tools refuse to run (with how to install it) unless
 * `POLY_SANDBOX=off` is set explicitly.
 *
 * Inside: system paths read-only; `/proc`, `/dev`, a private `/tmp`; an empty
 * tmpfs at `$HOME` with only that engine's auth and state files (and read-only
 * toolchains) bound back in; the engine's own install directory read-only; extra
 * binds (`POLY_SANDBOX_EXTRA`) read-write; the workspace last (read-only for the
 * read-only tools); poly's state and cache homes hidden wherever a bind would
 * expose them. PID, IPC and UTS namespaces are private; the network is
 * shared (engines reach their model APIs); `--die-with-parent` and
 * `--new-session` tie the tree to poly; the environment is cleared and rebuilt.
 *
 * The arguments come from the builder the gateway uses too (lib/sandbox,
 * golden-tested); {@link planSandbox} probes the disk for the fleet's spec.
 *
 * @module
 */
import { join } from "node:path";
import type { EngineAdapter } from "./engines/mod.ts";
import type { EnvReader } from "./env.ts";
import { FleetError } from "./errors.ts";
import {
  binaryDirsFor,
  type Bind,
  exists,
  findExecutable,
  PASSTHROUGH_ENV,
  polyHomes,
  type SandboxSpec,
  systemEntries,
} from "../sandbox/mod.ts";

export {
  binaryDirsFor,
  bwrapArgs,
  findExecutable,
  PASSTHROUGH_ENV,
  probeSystem,
  type SandboxSpec,
  SYSTEM_PATHS,
  type SystemEntry,
} from "../sandbox/mod.ts";

/** Options for {@link planSandbox}. */
export interface PlanOptions {
  adapter: EngineAdapter;
  /** The engine binary as resolved, and its real path. */
  binary: { path: string; real: string };
  workspace: string;
  readOnly: boolean;
  home: string;
  toolchains: readonly string[];
  extra: readonly string[];
  env: EnvReader;
  /** poly's state and cache homes (default: this process's); hidden wherever a bind would expose them. */
  polyHomes?: string[];
}

/** Builds the {@link SandboxSpec} for one run: probes the binds that exist, creates session stores. */
export async function planSandbox(o: PlanOptions): Promise<SandboxSpec> {
  const system = await systemEntries();
  const homeBinds: Bind[] = [];
  for (const rel of o.toolchains) {
    const path = join(o.home, rel);
    if (await exists(path)) homeBinds.push({ path, rw: false });
  }
  for (const b of o.adapter.homeBinds) {
    const path = join(o.home, b.path);
    if (b.dir && !(await exists(path))) {
      try {
        await Deno.mkdir(path, { recursive: true, mode: 0o700 });
      } catch {
        continue;
      }
    }
    if (await exists(path)) homeBinds.push({ path, rw: b.rw });
  }
  const extra: string[] = [];
  for (const p of o.extra) if (p !== o.workspace && await exists(p)) extra.push(p);

  const env: Record<string, string> = {
    HOME: o.home,
    PATH: o.env("PATH") ?? "/usr/local/bin:/usr/bin:/bin",
    USER: o.env("USER") ?? "user",
    LOGNAME: o.env("USER") ?? "user",
    LANG: o.env("LANG") ?? "C.UTF-8",
    TERM: "dumb",
    TMPDIR: "/tmp",
    NO_COLOR: "1",
  };
  for (const name of [...o.adapter.authEnv, ...PASSTHROUGH_ENV]) {
    const v = o.env(name);
    if (v !== undefined) env[name] = v;
  }
  Object.assign(env, o.adapter.sandboxEnv ?? {});

  return {
    home: o.home,
    workspace: o.workspace,
    readOnly: o.readOnly,
    system,
    binds: [
      ...homeBinds,
      ...binaryDirsFor([o.binary.path, o.binary.real], system).map((path) => ({ path, rw: false })),
      ...extra.map((path) => ({ path, rw: true })),
    ],
    hide: await polyHomes(o.polyHomes),
    env,
  };
}

/** The message shown when bwrap is missing. */
export const BWRAP_MISSING = "bubblewrap (bwrap) is required to run engines and was not found: install it " +
  "(Debian/Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap), " +
  "or set POLY_SANDBOX=off to run engines unconfined (an explicit operator choice)";

const bwrapFound = new Map<string, string>();

/** Locates bwrap (`POLY_BWRAP_BIN`, else PATH) or throws `sandbox_unavailable`. A found bwrap is remembered. */
export async function resolveBwrap(bwrapBin: string | undefined, pathEnv: string | undefined): Promise<string> {
  const key = `${bwrapBin ?? ""}\0${pathEnv ?? ""}`;
  const known = bwrapFound.get(key);
  if (known) return known;
  const found = await findExecutable(bwrapBin ?? "bwrap", pathEnv);
  if (found) bwrapFound.set(key, found);
  if (!found) {
    throw new FleetError(
      "sandbox_unavailable",
      bwrapBin ? `POLY_BWRAP_BIN="${bwrapBin}" is not an executable file. ${BWRAP_MISSING}` : BWRAP_MISSING,
    );
  }
  return found;
}
