/**
 * Real npm packages the tests run (a server, a linter), installed once with npm into the tests' cache home.
 *
 * @module
 */
import { join } from "node:path";

/** Where the tests install `name` at `version`: `<cache home>/poly-tests/<name>-<version>`. */
export function npmPrefix(name: string, version: string): string {
  const base = Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/tmp", ".cache");
  return join(base, "poly-tests", `${name}-${version}`);
}

/**
 * `name@version` installed under `prefix` (its `node_modules`), installing it first when `marker` (a path below
 * `node_modules`) is absent; a reason string when it cannot be had.
 */
export async function npmInstalled(
  prefix: string,
  name: string,
  version: string,
  marker: string,
): Promise<{ modules: string } | { reason: string }> {
  const modules = join(prefix, "node_modules");
  const exists = () => Deno.stat(join(modules, marker)).then(() => true, () => false);
  if (await exists()) return { modules };
  try {
    await Deno.mkdir(prefix, { recursive: true });
    const out = await new Deno.Command("npm", {
      args: ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", `${name}@${version}`],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!out.success) return { reason: `npm install failed: ${new TextDecoder().decode(out.stderr).slice(0, 300)}` };
  } catch (error) {
    return { reason: `npm is not available (${(error as Error).message})` };
  }
  return await exists() ? { modules } : { reason: `npm install left no node_modules/${marker}` };
}
