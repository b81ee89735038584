/**
 * Where biome's native command line is and how to start it. The npm package
 * `@biomejs/biome` is a Node.js launcher (`bin/biome`) plus one platform package
 * per OS and CPU (`@biomejs/cli-<platform>`) holding the `biome` executable. poly
 * starts the executable through `runExecutable` (lib/engines/host.ts): by
 * `sh -c exec` on POSIX systems; on Windows as `node <package>/bin/biome`, naming
 * the executable in `BIOME_BINARY`, which the launcher honours (it then skips
 * its own libc probe). poly's run permission names `sh` and `node`, not paths.
 * Run from source, both are the packages in `node_modules`. Inside a compiled
 * poly they live in the binary's embedded file system, which Node cannot read,
 * so they are first copied once to `<cache home>/engines/biome-<version>-<platform>/`.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { copyOnce } from "../../fs/copy_once.ts";
import { cacheHome } from "../../paths/mod.ts";

/** The version of biome's command line (pinned in deno.json; equal to the WebAssembly build's). */
export const BIOME_CLI_VERSION = "2.5.14";

/** biome's platform package suffix for this machine, e.g. "linux-x64", "linux-x64-musl", "win32-x64". */
export function cliPlatform(): string {
  const arch = Deno.build.arch === "x86_64" ? "x64" : "arm64";
  const os = Deno.build.os === "windows" ? "win32" : Deno.build.os;
  return os === "linux" && Deno.build.env === "musl" ? `linux-${arch}-musl` : `${os}-${arch}`;
}

/** The launcher script's URL (`@biomejs/biome/bin/biome`). */
export function launcherUrl(): URL {
  return new URL(import.meta.resolve("@biomejs/biome/bin/biome"));
}

/** URL of this platform's executable, beside the launcher's package in node_modules. */
export function executableUrl(): URL {
  const name = Deno.build.os === "windows" ? "biome.exe" : "biome";
  return new URL(`../../cli-${cliPlatform()}/${name}`, launcherUrl());
}

/** How to start the native command line: the executable, or `node <script>` with `env` (Windows). */
export interface BiomeCommand {
  /** The `biome` executable. */
  binary: string;
  /** The Node.js launcher, which honours `env`'s `BIOME_BINARY`. */
  script: string;
  env: Record<string, string>;
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/**
 * Copies the launcher and this platform's executable to `dest` in the layout
 * Node's module resolution expects (`node_modules/@biomejs/biome/bin/biome`,
 * `node_modules/@biomejs/cli-<platform>/biome`) and returns the command. A
 * finished copy is reused (marked by `.complete`).
 */
export async function materialize(dest: string): Promise<BiomeCommand> {
  const exe = Deno.build.os === "windows" ? "biome.exe" : "biome";
  const launcher = launcherUrl();
  const items = [
    { from: launcher, to: "node_modules/@biomejs/biome/bin/biome" },
    { from: new URL("../package.json", launcher), to: "node_modules/@biomejs/biome/package.json" },
    { from: executableUrl(), to: `node_modules/@biomejs/cli-${cliPlatform()}/${exe}`, executable: true },
  ];
  await copyOnce(dest, BIOME_CLI_VERSION, items);
  const binary = join(dest, ...items[2].to.split("/"));
  return { binary, script: join(dest, ...items[0].to.split("/")), env: { BIOME_BINARY: binary } };
}

async function locate(): Promise<BiomeCommand | undefined> {
  try {
    if (Deno.build.standalone) {
      await Deno.stat(fileURLToPath(executableUrl())); // not embedded for this platform: no native path
      return await materialize(join(cacheHome(), "engines", `biome-${BIOME_CLI_VERSION}-${cliPlatform()}`));
    }
    const script = fileURLToPath(launcherUrl());
    const binary = fileURLToPath(executableUrl());
    if (!(await exists(script)) || !(await exists(binary))) return undefined;
    return { binary, script, env: { BIOME_BINARY: binary } };
  } catch {
    return undefined;
  }
}

let located: Promise<BiomeCommand | undefined> | undefined;

/**
 * The command that starts biome's native command line, or undefined when this
 * installation has none for this platform (then the engine stays on WebAssembly).
 * Looked up once per process.
 */
export function biomeCommand(): Promise<BiomeCommand | undefined> {
  located ??= locate();
  return located;
}
