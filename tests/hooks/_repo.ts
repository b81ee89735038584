/**
 * A throwaway git repository for the git hook tests.
 *
 * @module
 */
import { join } from "node:path";
import { tempDir } from "../_helpers/temp.ts";

// The library's own git calls inherit this process's environment: keep the
// developer's global and system git config (a global core.hooksPath!) out of them.
Deno.env.set("GIT_CONFIG_GLOBAL", "/dev/null");
Deno.env.set("GIT_CONFIG_NOSYSTEM", "1");

/** Result of a git command. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs git in `cwd` with `env` added (never the developer's global config). */
export async function git(cwd: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const out = await new Deno.Command("git", {
    args,
    cwd,
    env: { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** A fresh repository with an identity configured; removed by the returned cleanup. */
export async function tempRepo(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await tempDir({ prefix: "poly-git-" });
  for (
    const args of [
      ["init", "-q", "-b", "main"],
      ["config", "user.email", "test@example.com"],
      ["config", "user.name", "Test"],
      ["config", "commit.gpgsign", "false"],
    ]
  ) {
    const r = await git(dir, args);
    if (r.code !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  }
  return { dir, cleanup: () => Deno.remove(dir, { recursive: true }) };
}

/** Writes a file (creating folders) inside the repository. */
export async function write(dir: string, path: string, text: string, mode?: number): Promise<void> {
  const full = join(dir, path);
  await Deno.mkdir(join(full, ".."), { recursive: true });
  await Deno.writeTextFile(full, text, mode === undefined ? {} : { mode });
  if (mode !== undefined) await Deno.chmod(full, mode);
}
