/**
 * Where the ast-grep command line (npm `@ast-grep/cli`, pinned to the same
 * version as `@ast-grep/napi`) is and how to start it. The npm package is a
 * Node.js shim (`@ast-grep/cli/ast-grep`) that starts the native binary of the
 * platform package (`@ast-grep/cli-<platform>`); npm's postinstall would put the
 * binary in the shim's place, but Deno runs no postinstall scripts. poly starts
 * the binary through `runExecutable` (lib/engines/host.ts): by `sh -c exec` on
 * POSIX systems, as `node <shim> ...` on Windows (Deno's run permission names
 * programs, not paths).
 *
 * Run from source, the shim is the one in `node_modules`. Inside a compiled poly
 * the packages live in the binary's embedded file system, which neither Node
 * nor the kernel can read, so the shim, its `detect-libc` dependency and the
 * platform package are first copied once to
 * `<cache home>/engines/ast-grep-cli-<version>-<platform>/node_modules/`.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { copyOnce } from "../../fs/copy_once.ts";
import { cacheHome } from "../../paths/mod.ts";
import { platformTriple } from "../host.ts";

/** The pinned `@ast-grep/cli` version (deno.json). */
export const AST_GREP_CLI_VERSION = "0.51.1";

/** Platforms `@ast-grep/cli` publishes a binary for (none for musl Linux). */
const PUBLISHED = new Set([
  "linux-x64-gnu",
  "linux-arm64-gnu",
  "darwin-x64",
  "darwin-arm64",
  "win32-x64-msvc",
  "win32-arm64-msvc",
]);

/** The platform package's name for this machine, or undefined where none is published. */
export function binaryPackage(): string | undefined {
  const triple = platformTriple();
  return PUBLISHED.has(triple) ? `@ast-grep/cli-${triple}` : undefined;
}

function binaryName(): string {
  return Deno.build.os === "windows" ? "ast-grep.exe" : "ast-grep";
}

/** The `@ast-grep/cli` package's root directory URL (ends with `/`). */
export function cliRoot(): URL {
  return new URL("./", import.meta.resolve("@ast-grep/cli/package.json"));
}

/** URL of the native binary for this platform (beside the shim's package in node_modules), if published. */
export function binaryUrl(): URL | undefined {
  const pkg = binaryPackage();
  return pkg ? new URL(`../${pkg.slice("@ast-grep/".length)}/${binaryName()}`, cliRoot()) : undefined;
}

/** The files to copy for a compiled poly: [source URL, path relative to `node_modules/`, executable]. */
async function packageFiles(): Promise<[URL, string, boolean][]> {
  const root = cliRoot();
  const pkg = binaryPackage()!;
  const out: [URL, string, boolean][] = [
    [new URL("package.json", root), "@ast-grep/cli/package.json", false],
    [new URL("ast-grep", root), "@ast-grep/cli/ast-grep", true],
    [new URL("postinstall.js", root), "@ast-grep/cli/postinstall.js", false],
    [new URL(`../${pkg.slice("@ast-grep/".length)}/package.json`, root), `${pkg}/package.json`, false],
    [binaryUrl()!, `${pkg}/${binaryName()}`, true],
  ];
  const libc = new URL("../../detect-libc/", root);
  out.push([new URL("package.json", libc), "detect-libc/package.json", false]);
  for await (const e of Deno.readDir(new URL("lib/", libc))) {
    if (e.isFile && e.name.endsWith(".js")) {
      out.push([new URL(`lib/${e.name}`, libc), `detect-libc/lib/${e.name}`, false]);
    }
  }
  return out;
}

/**
 * Copies the shim, `detect-libc` and the platform package to `dest/node_modules/`
 * and returns the executable there. A finished copy is reused (marked by `.complete`).
 */
export async function materialize(dest: string): Promise<AstGrepExecutable> {
  const modules = join(dest, "node_modules");
  const shim = {
    path: join(modules, ...binaryPackage()!.split("/"), binaryName()),
    launcher: join(modules, "@ast-grep", "cli", "ast-grep"),
  };
  const items = (await packageFiles()).map(([from, rel, executable]) => ({
    from,
    to: `node_modules/${rel}`,
    executable,
  }));
  await copyOnce(dest, AST_GREP_CLI_VERSION, items);
  return shim;
}

/** The native binary and the Node.js shim that starts it (for `runExecutable`). */
export interface AstGrepExecutable {
  path: string;
  launcher: string;
}

let shim: Promise<AstGrepExecutable | undefined> | undefined;

/**
 * The command line to run (materialized when compiled), or undefined when this
 * platform has no binary or it is not installed.
 */
export function astGrepExecutable(): Promise<AstGrepExecutable | undefined> {
  shim ??= (async () => {
    const binary = binaryUrl();
    if (!binary) return undefined;
    try {
      await Deno.stat(fileURLToPath(binary));
    } catch {
      return undefined;
    }
    if (!Deno.build.standalone) {
      return { path: fileURLToPath(binary), launcher: fileURLToPath(new URL("ast-grep", cliRoot())) };
    }
    const dir = join(cacheHome(), "engines", `ast-grep-cli-${AST_GREP_CLI_VERSION}-${platformTriple()}`);
    return await materialize(dir);
  })().catch(() => undefined);
  return shim;
}
