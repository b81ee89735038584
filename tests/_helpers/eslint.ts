/**
 * The real ESLint (and xo, standard) for the tests of the eslint engine: installed once with npm into the tests' cache home (as
 * `.ci/run` does first), then copied into a test repository's `node_modules` (a repository's own install; a link would
 * point into the home, which the engine's sandbox hides).
 *
 * @module
 */
import { join } from "node:path";
import { npmInstalled, npmPrefix } from "./npm.ts";

/** The pinned ESLint version. */
export const ESLINT_VERSION = "10.16.0";

/** The installed `node_modules`, installing it first when absent; a reason string when it cannot be had. */
export function eslintModules(): Promise<{ modules: string } | { reason: string }> {
  return npmInstalled(npmPrefix("eslint", ESLINT_VERSION), "eslint", ESLINT_VERSION, "eslint/package.json");
}

/** The xo versions the tests run, one of each API: xo 0.x's `xo` object, xo 1 and later's `Xo` class. */
export const XO_VERSIONS = ["0.60.0", "1.2.3"] as const;

/** xo `version`'s installed `node_modules`, installing it first when absent; a reason string when it cannot be had. */
export function xoModules(version: string): Promise<{ modules: string } | { reason: string }> {
  return npmInstalled(npmPrefix("xo", version), "xo", version, "xo/package.json");
}

/** The pinned standard version (standard-engine's API, which semistandard shares). */
export const STANDARD_VERSION = "17.1.2";

/** standard's installed `node_modules`, installing it first when absent; a reason string when it cannot be had. */
export function standardModules(): Promise<{ modules: string } | { reason: string }> {
  return npmInstalled(npmPrefix("standard", STANDARD_VERSION), "standard", STANDARD_VERSION, "standard/package.json");
}

/** Copies the installed `node_modules` into `dir` (a repository's own install). */
export async function installEslint(modules: string, dir: string): Promise<void> {
  const out = await new Deno.Command("cp", { args: ["-a", modules, join(dir, "node_modules")], stderr: "piped" })
    .output();
  if (!out.success) throw new Error(`cp failed: ${new TextDecoder().decode(out.stderr)}`);
}
