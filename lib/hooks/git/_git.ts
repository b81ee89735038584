/**
 * Running git for the hooks: one small wrapper, the environment inherited (inside
 * a hook, git's own GIT_INDEX_FILE / GIT_DIR must reach the child processes).
 *
 * @module
 */
import { resolve } from "node:path";
import { PolyError } from "../../errors/mod.ts";

/** The outcome of one git command. */
export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `git args...` in `cwd`; throws a PolyError when git cannot be started. */
export async function git(args: string[], cwd: string, stdin?: string): Promise<GitResult> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("git", {
      args,
      cwd,
      stdin: stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    throw new PolyError(
      `Cannot run git: ${error instanceof Error ? error.message : error}: install git and put it on PATH`,
    );
  }
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Runs git and returns its stdout; a non-zero exit becomes a PolyError naming the command. */
export async function gitOk(args: string[], cwd: string, stdin?: string): Promise<string> {
  const result = await git(args, cwd, stdin);
  if (result.code !== 0) {
    const detail = result.stderr.trim() || `exit code ${result.code}`;
    throw new PolyError(`"git ${args.join(" ")}" failed in "${cwd}": ${detail}`);
  }
  return result.stdout;
}

/** The work tree's top directory; a PolyError outside a repository. */
export async function topLevel(cwd: string): Promise<string> {
  const result = await git(["rev-parse", "--show-toplevel"], cwd);
  if (result.code !== 0) {
    throw new PolyError(`"${cwd}" is not inside a git work tree: run this in a repository (git init creates one)`);
  }
  return result.stdout.trim();
}

/** The hooks directory git runs hooks from (honours core.hooksPath), absolute. */
export async function hooksDir(cwd: string): Promise<string> {
  await topLevel(cwd);
  const out = (await gitOk(["rev-parse", "--git-path", "hooks"], cwd)).trim();
  return resolve(cwd, out);
}

/** One index entry. */
export interface IndexEntry {
  mode: string;
  path: string;
}

/** The index (stage 0 entries), as `git ls-files --stage` lists it. */
export async function indexEntries(cwd: string): Promise<IndexEntry[]> {
  const out = await gitOk(["ls-files", "--stage", "-z"], cwd);
  const entries: IndexEntry[] = [];
  for (const record of out.split("\0")) {
    if (record === "") continue;
    const tab = record.indexOf("\t");
    const [mode, , stage] = record.slice(0, tab).split(" ");
    if (stage === "0") entries.push({ mode, path: record.slice(tab + 1) });
  }
  return entries;
}

/** Paths added, copied, modified or renamed in the index relative to HEAD (all of them before the first commit). */
export async function stagedPaths(cwd: string): Promise<string[]> {
  const out = await gitOk(["diff", "--cached", "--name-only", "--diff-filter=ACMR", "-z"], cwd);
  return out.split("\0").filter((p) => p !== "");
}
