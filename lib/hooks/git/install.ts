/**
 * `poly hooks install | uninstall`: puts poly's pre-commit script into the
 * repository's hooks directory (core.hooksPath respected) and takes it out again.
 *
 * An existing pre-commit hook that is not poly's is never overwritten: it is kept
 * as `pre-commit.pre-poly` and the new script calls it first (chaining). If that
 * name is taken too, install refuses. The new script appears in one rename, so at
 * no moment is there no hook or a half-written one.
 *
 * @module
 */
import { join } from "node:path";
import { PolyError } from "../../errors/mod.ts";
import { writeFileAtomic } from "../../fs/atomic.ts";
import { VERSION } from "../../identity/build.ts";
import { hooksDir } from "./_git.ts";
import { CHAINED_SUFFIX, hookScript, isPolyHook } from "./_script.ts";

/** The hooks poly installs. */
export const HOOKS = ["pre-commit"] as const;

/** One of {@link HOOKS}. */
export type HookName = typeof HOOKS[number];

/** What install or uninstall did to one hook. */
export interface HookChange {
  hook: HookName;
  /** The hook file. */
  path: string;
  action:
    | "installed" // there was no hook
    | "chained" // an existing hook was kept as <hook>.pre-poly and is called first
    | "refreshed" // poly's hook was rewritten for this version
    | "unchanged" // poly's hook was already current
    | "removed" // uninstall removed poly's hook
    | "restored" // uninstall put the chained hook back
    | "absent" // uninstall: no hook there
    | "foreign"; // uninstall: the hook there is not poly's; left alone
  /** The chained hook, when there is one. */
  chained?: string;
}

async function lstatOrUndefined(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

async function readOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return undefined; // missing, a dangling link, or unreadable: treated as "not poly's"
  }
}

/** Writes `text` as an executable file and renames it over `path` in one step. */
async function placeExecutable(path: string, text: string): Promise<void> {
  const staging = `${path}.poly-new`;
  await Deno.remove(staging).catch(() => {});
  await writeFileAtomic(staging, text, { mode: 0o755 });
  await Deno.rename(staging, path);
}

/** Keeps the existing hook at `chained` (a link stays a link), leaving `path` in place. */
async function keepAs(path: string, info: Deno.FileInfo, chained: string): Promise<void> {
  if (info.isSymlink) {
    await Deno.symlink(await Deno.readLink(path), chained);
    return;
  }
  await Deno.copyFile(path, chained);
  if (info.mode !== null && Deno.build.os !== "windows") await Deno.chmod(chained, info.mode & 0o7777);
}

async function installOne(dir: string, hook: HookName, version: string): Promise<HookChange> {
  const path = join(dir, hook);
  const chained = path + CHAINED_SUFFIX;
  const script = hookScript(hook, version);
  const info = await lstatOrUndefined(path);
  const hasChained = (await lstatOrUndefined(chained)) !== undefined;
  const withChained = hasChained ? { chained } : {};
  if (info === undefined) {
    await placeExecutable(path, script);
    return { hook, path, action: "installed", ...withChained };
  }
  const current = await readOrUndefined(path);
  if (current !== undefined && isPolyHook(current)) {
    if (current === script && info.isFile && ((info.mode ?? 0o755) & 0o111) !== 0) {
      return { hook, path, action: "unchanged", ...withChained };
    }
    await placeExecutable(path, script);
    return { hook, path, action: "refreshed", ...withChained };
  }
  if (hasChained) {
    throw new PolyError(
      `Cannot install the ${hook} hook: "${path}" is not poly's and "${chained}" already exists, so the existing ` +
        `hook cannot be kept: merge or remove one of them, then run poly hooks install again`,
    );
  }
  await keepAs(path, info, chained);
  await placeExecutable(path, script);
  return { hook, path, action: "chained", chained };
}

async function uninstallOne(dir: string, hook: HookName): Promise<HookChange> {
  const path = join(dir, hook);
  const chained = path + CHAINED_SUFFIX;
  const current = await readOrUndefined(path);
  const info = await lstatOrUndefined(path);
  if (info === undefined) return { hook, path, action: "absent" };
  if (current === undefined || !isPolyHook(current)) return { hook, path, action: "foreign" };
  if ((await lstatOrUndefined(chained)) !== undefined) {
    await Deno.rename(chained, path);
    return { hook, path, action: "restored", chained };
  }
  await Deno.remove(path);
  return { hook, path, action: "removed" };
}

/** Options of install and uninstall. */
export interface GitHooksOptions {
  /** A directory inside the repository. */
  cwd: string;
  /** Version written into the script's marker (default: this program's). */
  version?: string;
}

/** Installs poly's git hooks into the repository containing `cwd`. */
export async function installGitHooks(options: GitHooksOptions): Promise<HookChange[]> {
  const dir = await hooksDir(options.cwd);
  await Deno.mkdir(dir, { recursive: true });
  const changes: HookChange[] = [];
  for (const hook of HOOKS) changes.push(await installOne(dir, hook, options.version ?? VERSION));
  return changes;
}

/** Removes poly's git hooks, restoring hooks they chained. Hooks that are not poly's are left alone. */
export async function uninstallGitHooks(options: GitHooksOptions): Promise<HookChange[]> {
  const dir = await hooksDir(options.cwd);
  const changes: HookChange[] = [];
  for (const hook of HOOKS) changes.push(await uninstallOne(dir, hook));
  return changes;
}
