/**
 * The only place config touches the network: cloning a git extends base and
 * checking out the commit a revision resolves to, into
 * `<cache home>/config-bases/<commit>`. Called by `poly config update` alone.
 *
 * @module
 */
import { join } from "node:path";
import { cacheHome } from "../paths/mod.ts";
import { checkoutDir } from "./lock.ts";
import { killWithPoly, removeWithPoly } from "../process/ending.ts";

/** A failed git command: its arguments' first word and git's own last message line. */
export class GitFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GitFailure";
  }
}

async function git(args: string[], cwd: string): Promise<string> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("git", {
      args,
      cwd,
      env: { GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "", SSH_ASKPASS: "" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new GitFailure("git is not installed (not found on PATH)");
    throw new GitFailure(error instanceof Error ? error.message : String(error));
  }
  // A clone can take a while: a signal that ends poly ends git too (lib/process/ending.ts).
  const release = killWithPoly(child);
  let out: Deno.CommandOutput;
  try {
    out = await child.output();
  } finally {
    release();
  }
  if (!out.success) {
    const lines = new TextDecoder().decode(out.stderr).trim().split("\n").filter((l) => l.trim() !== "");
    throw new GitFailure(`git ${args[0]} failed: ${lines.at(-1)?.replace(/^fatal: /, "") ?? `exit code ${out.code}`}`);
  }
  return new TextDecoder().decode(out.stdout).trim();
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

async function resolveRevision(repo: string, revision: string | undefined): Promise<string | undefined> {
  const candidates = revision === undefined ? ["HEAD"] : [revision, `origin/${revision}`, `refs/tags/${revision}`];
  for (const candidate of candidates) {
    try {
      return await git(["rev-parse", "--verify", "--quiet", `${candidate}^{commit}`], repo);
    } catch {
      // Try the next spelling.
    }
  }
  return undefined;
}

/**
 * Clones `url` (relative URLs resolve against `cwd`, the declaring file's
 * directory), resolves `revision` (default: the remote's HEAD) to a commit, and
 * makes sure that commit is checked out in the cache. Returns the commit and its directory.
 */
export async function fetchGitBase(
  url: string,
  revision: string | undefined,
  cwd: string,
): Promise<{ commit: string; dir: string }> {
  const root = join(cacheHome(), "config-bases");
  await Deno.mkdir(root, { recursive: true, mode: 0o700 });
  const tmp = await Deno.makeTempDir({ dir: root, prefix: ".clone-" });
  // Gone also when a signal ends poly mid-clone (lib/process/ending.ts; git, registered later, is stopped first).
  const release = removeWithPoly(tmp);
  try {
    await git(["clone", "--quiet", "--no-checkout", "--", url, tmp], cwd);
    const commit = await resolveRevision(tmp, revision);
    if (!commit) throw new GitFailure(`revision "${revision}" not found`);
    const dir = checkoutDir(commit);
    if (await isDir(dir)) return { commit, dir };
    await git(["-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", commit], tmp);
    try {
      await Deno.rename(tmp, dir);
    } catch (error) {
      if (!(await isDir(dir))) throw error; // another update won the race: its checkout is the same commit
    }
    return { commit, dir };
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    release();
  }
}
