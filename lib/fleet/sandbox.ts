/**
 * The bubblewrap sandbox every engine runs in. It is mandatory: without `bwrap`
 * the delegation tools refuse to run (with how to install it) unless
 * `POLY_SANDBOX=off` is set explicitly.
 *
 * Inside: system paths read-only; `/proc`, `/dev`, a private `/tmp`; an empty
 * tmpfs at `$HOME` with only that engine's auth and state files (and read-only
 * toolchains) bound back in; the engine's own install directory read-only; extra
 * binds (`POLY_SANDBOX_EXTRA`) read-write; the workspace last (read-only for the
 * read-only tools). PID, IPC and UTS namespaces are private; the network is
 * shared (engines reach their model APIs); `--die-with-parent` and
 * `--new-session` tie the tree to poly; the environment is cleared and rebuilt.
 *
 * {@link bwrapArgs} is pure (golden-tested); {@link planSandbox} probes the disk.
 *
 * @module
 */
import { dirname, join, sep } from "node:path";
import type { EngineAdapter } from "./engines/mod.ts";
import type { EnvReader } from "./env.ts";
import { FleetError } from "./errors.ts";
import { compareText } from "../report/sort.ts";

/** A system path: bound read-only, or recreated as the same relative symlink (merged /usr). */
export interface SystemEntry {
  path: string;
  symlink?: string;
}

/** Everything {@link bwrapArgs} needs; plain data. */
export interface SandboxSpec {
  /** The real HOME path: an empty tmpfs is mounted there. */
  home: string;
  workspace: string;
  readOnly: boolean;
  system: SystemEntry[];
  /** Absolute host paths under HOME bound back in. */
  homeBinds: { path: string; rw: boolean }[];
  /** Directories holding the engine binary, bound read-only. */
  binaryDirs: string[];
  /** `POLY_SANDBOX_EXTRA`: bound read-write. */
  extra: string[];
  env: Record<string, string>;
}

/** System paths bound read-only when they exist. */
export const SYSTEM_PATHS: readonly string[] = [
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/opt",
  "/nix/store",
  "/etc/alternatives",
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/pki",
  "/etc/resolv.conf",
  "/etc/hosts",
  "/etc/host.conf",
  "/etc/gai.conf",
  "/etc/nsswitch.conf",
  "/etc/passwd",
  "/etc/group",
  "/etc/localtime",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/gitconfig",
];

/** Host environment variables passed into the sandbox when set (network and TLS plumbing). */
export const PASSTHROUGH_ENV: readonly string[] = [
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
];

/** The bwrap argument vector (without the bwrap binary, ending before the engine command). */
export function bwrapArgs(spec: SandboxSpec): string[] {
  const args: string[] = [];
  for (const entry of spec.system) {
    if (entry.symlink !== undefined) args.push("--symlink", entry.symlink, entry.path);
    else args.push("--ro-bind", entry.path, entry.path);
  }
  args.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/run");
  args.push("--tmpfs", spec.home);
  for (const b of spec.homeBinds) args.push(b.rw ? "--bind" : "--ro-bind", b.path, b.path);
  for (const dir of spec.binaryDirs) args.push("--ro-bind", dir, dir);
  for (const dir of spec.extra) args.push("--bind", dir, dir);
  args.push(spec.readOnly ? "--ro-bind" : "--bind", spec.workspace, spec.workspace);
  args.push("--chdir", spec.workspace);
  args.push("--clearenv");
  for (const [k, v] of Object.entries(spec.env).sort(([a], [b]) => compareText(a, b))) args.push("--setenv", k, v);
  args.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
  args.push("--die-with-parent", "--new-session");
  return args;
}

async function lstat(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch {
    return undefined;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Probes which system paths exist here, keeping merged-/usr symlinks as symlinks. */
export async function probeSystem(paths: readonly string[] = SYSTEM_PATHS): Promise<SystemEntry[]> {
  const out: SystemEntry[] = [];
  for (const path of paths) {
    const info = await lstat(path);
    if (!info) continue;
    if (info.isSymlink && dirname(path) === "/") {
      const target = await Deno.readLink(path);
      if (!target.startsWith("/")) {
        out.push({ path, symlink: target });
        continue;
      }
    }
    if (await exists(path)) out.push({ path });
  }
  return out;
}

function under(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/**
 * The directories to bind so the engine binary (and, for npm installs, its
 * package) is visible: nothing for binaries under system paths.
 */
export function binaryDirsFor(paths: string[], system: SystemEntry[]): string[] {
  const covered = system.filter((s) => s.symlink === undefined).map((s) => s.path).filter((p) => !p.startsWith("/etc"));
  const out = new Set<string>();
  for (const p of paths) {
    if (covered.some((dir) => under(p, dir))) continue;
    const nm = p.lastIndexOf(`${sep}node_modules${sep}`);
    if (nm !== -1) {
      const rest = p.slice(nm + 14).split(sep);
      const pkgParts = rest[0]?.startsWith("@") ? 2 : 1;
      out.add(p.slice(0, nm + 14) + rest.slice(0, pkgParts).join(sep));
    } else {
      out.add(dirname(p));
    }
  }
  return [...out].sort();
}

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
}

let systemProbe: Promise<SystemEntry[]> | undefined;

/** Builds the {@link SandboxSpec} for one run: probes the binds that exist, creates session stores. */
export async function planSandbox(o: PlanOptions): Promise<SandboxSpec> {
  // System paths do not come and go while poly runs: probe them once per process.
  const system = await (systemProbe ??= probeSystem());
  const homeBinds: { path: string; rw: boolean }[] = [];
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
    homeBinds,
    binaryDirs: binaryDirsFor([o.binary.path, o.binary.real], system),
    extra,
    env,
  };
}

/** The message shown when bwrap is missing. */
export const BWRAP_MISSING = "bubblewrap (bwrap) is required to run engines and was not found: install it " +
  "(Debian/Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap), " +
  "or set POLY_SANDBOX=off to run engines unconfined (an explicit operator choice)";

/** Finds an executable: a path (when `name` has a slash) or a name on `pathEnv`. */
export async function findExecutable(name: string, pathEnv: string | undefined): Promise<string | undefined> {
  const candidates = name.includes("/")
    ? [name.startsWith("/") ? name : join(Deno.cwd(), name)]
    : (pathEnv ?? "").split(":").filter(Boolean).map((dir) => join(dir, name));
  for (const c of candidates) {
    try {
      const info = await Deno.stat(c);
      if (info.isFile && info.mode !== null && (info.mode & 0o111) !== 0) return c;
    } catch {
      // next
    }
  }
  return undefined;
}

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
