/**
 * The platforms poly is released for: Rust-style target triples (what
 * `deno compile --target` takes), the matching npm platform (what native npm
 * packages are named after), and the names of the build outputs and archives.
 *
 * @module
 */

/** A release target triple. */
export type Target =
  | "x86_64-unknown-linux-gnu"
  | "aarch64-unknown-linux-gnu"
  | "x86_64-apple-darwin"
  | "aarch64-apple-darwin"
  | "x86_64-pc-windows-msvc";

/** The five release targets, in release order. */
export const TARGETS: readonly Target[] = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
];

/** How npm names a platform: `os`, `cpu` and (Linux, Windows) the C library / ABI. */
export interface NpmPlatform {
  os: "linux" | "darwin" | "win32";
  cpu: "x64" | "arm64";
  /** "gnu" for glibc Linux, "msvc" for Windows; undefined for macOS. */
  abi?: "gnu" | "msvc";
}

const PLATFORMS: Record<Target, NpmPlatform> = {
  "x86_64-unknown-linux-gnu": { os: "linux", cpu: "x64", abi: "gnu" },
  "aarch64-unknown-linux-gnu": { os: "linux", cpu: "arm64", abi: "gnu" },
  "x86_64-apple-darwin": { os: "darwin", cpu: "x64" },
  "aarch64-apple-darwin": { os: "darwin", cpu: "arm64" },
  "x86_64-pc-windows-msvc": { os: "win32", cpu: "x64", abi: "msvc" },
};

/** Whether `value` is one of the release targets. */
export function isTarget(value: string): value is Target {
  return (TARGETS as readonly string[]).includes(value);
}

/** The npm platform of a target. */
export function npmPlatform(target: Target): NpmPlatform {
  return PLATFORMS[target];
}

/** Whether the target builds a Windows executable. */
export function isWindows(target: Target): boolean {
  return target.includes("windows");
}

/** The target this Deno runs on (`Deno.build.target`), e.g. "x86_64-unknown-linux-gnu". */
export function hostTarget(): string {
  return Deno.build.target;
}

/** File name of a compiled binary: `poly-<target>` (`.exe` on Windows). */
export function binaryName(target: Target): string {
  return `poly-${target}${isWindows(target) ? ".exe" : ""}`;
}

/** File name of a release archive: `poly-<target>.tar.gz` (`.zip` on Windows). */
export function archiveName(target: Target): string {
  return `poly-${target}${isWindows(target) ? ".zip" : ".tar.gz"}`;
}

/** Name of the program inside a release archive. */
export function programName(target: Target): string {
  return isWindows(target) ? "poly.exe" : "poly";
}

/** A native npm package's platform, parsed from its name (`@oxlint/binding-linux-x64-gnu`). */
export interface NativePackagePlatform {
  os: string;
  cpu: string;
  abi?: string;
}

const NATIVE_NAME =
  /(?:^|[-/])(linux|darwin|win32|freebsd|openbsd|netbsd|android|sunos|aix)-(x64|arm64|ia32|arm|riscv64|ppc64|s390x|loong64|wasm32)(?:-(gnu|musl|msvc|gnueabihf|musleabihf|eabi))?$/;

/**
 * The platform a native npm package is built for, read from its name; undefined
 * for a platform-independent package.
 *
 * @example
 * ```ts
 * nativePlatformOf("@ast-grep/napi-linux-x64-musl"); // { os: "linux", cpu: "x64", abi: "musl" }
 * nativePlatformOf("@biomejs/cli-darwin-arm64"); // { os: "darwin", cpu: "arm64" }
 * nativePlatformOf("zod"); // undefined
 * ```
 */
export function nativePlatformOf(packageName: string): NativePackagePlatform | undefined {
  const m = NATIVE_NAME.exec(packageName);
  if (!m) return undefined;
  return { os: m[1], cpu: m[2], ...(m[3] ? { abi: m[3] } : {}) };
}

/**
 * Whether a native package runs on the target. A package without an ABI suffix
 * (`cli-linux-x64`) is taken to be the platform's default (glibc on Linux).
 */
export function nativeMatches(platform: NativePackagePlatform, target: Target): boolean {
  const want = npmPlatform(target);
  if (platform.os !== want.os || platform.cpu !== want.cpu) return false;
  return platform.abi === undefined || platform.abi === want.abi;
}
