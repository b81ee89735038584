/**
 * The real ESLint for the tests of the eslint engine: installed once with npm into the tests' cache home (as
 * `.ci/run` does first), then copied into a test repository's `node_modules` (a repository's own install; a link would
 * point into the home, which the engine's sandbox hides).
 *
 * @module
 */
import { join } from "node:path";

/** The pinned ESLint version. */
export const ESLINT_VERSION = "10.16.0";

/** Where the tests install ESLint. */
export function eslintPrefix(): string {
  const base = Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/tmp", ".cache");
  return join(base, "poly-tests", `eslint-${ESLINT_VERSION}`);
}

/** The installed `node_modules`, installing it first when absent; a reason string when it cannot be had. */
export async function eslintModules(): Promise<{ modules: string } | { reason: string }> {
  const prefix = eslintPrefix();
  const modules = join(prefix, "node_modules");
  const exists = () => Deno.stat(join(modules, "eslint", "package.json")).then(() => true, () => false);
  if (await exists()) return { modules };
  try {
    await Deno.mkdir(prefix, { recursive: true });
    const out = await new Deno.Command("npm", {
      args: ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", `eslint@${ESLINT_VERSION}`],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!out.success) return { reason: `npm install failed: ${new TextDecoder().decode(out.stderr).slice(0, 300)}` };
  } catch (error) {
    return { reason: `npm is not available (${(error as Error).message})` };
  }
  return await exists() ? { modules } : { reason: "npm install left no node_modules/eslint" };
}

/** Copies the installed `node_modules` into `dir` (a repository's own install). */
export async function installEslint(modules: string, dir: string): Promise<void> {
  const out = await new Deno.Command("cp", { args: ["-a", modules, join(dir, "node_modules")], stderr: "piped" })
    .output();
  if (!out.success) throw new Error(`cp failed: ${new TextDecoder().decode(out.stderr)}`);
}
