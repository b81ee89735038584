/**
 * What a sandbox plan needs from the disk: which system paths exist here, where
 * a program lives (and which folders to bind so it is visible), poly's own homes
 * to hide.
 *
 * @module
 */
import { dirname, sep } from "node:path";
import { cacheHome, stateHome } from "../paths/mod.ts";
import { isUnder, type SystemEntry } from "./bwrap.ts";

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

/** Host environment variables passed into a sandbox when set (network and TLS plumbing). */
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

async function lstat(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch {
    return undefined;
  }
}

/** Whether `path` exists (following links). */
export async function exists(path: string): Promise<boolean> {
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

let systemProbe: Promise<SystemEntry[]> | undefined;

/** {@link probeSystem} once per process: system paths do not come and go while poly runs. */
export function systemEntries(): Promise<SystemEntry[]> {
  return systemProbe ??= probeSystem();
}

/**
 * The directories to bind so a program is visible (for npm installs, its whole
 * package): nothing for programs under system paths.
 */
export function binaryDirsFor(paths: string[], system: SystemEntry[]): string[] {
  const covered = system.filter((s) => s.symlink === undefined).map((s) => s.path).filter((p) => !p.startsWith("/etc"));
  const out = new Set<string>();
  for (const p of paths) {
    if (covered.some((dir) => isUnder(p, dir))) continue;
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

/**
 * poly's own homes, as {@link SandboxSpec.hide} takes them: the state home (poly.db, gateway.key)
 * and the cache home, each as named and as its real path, when they exist.
 */
export async function polyHomes(homes: string[] = [stateHome(), cacheHome()]): Promise<string[]> {
  const out = new Set<string>();
  for (const home of homes) {
    if (!(await exists(home))) continue;
    out.add(home);
    out.add(await Deno.realPath(home));
  }
  return [...out];
}
