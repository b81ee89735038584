/**
 * One result cache per repository: a linked worktree (`git worktree add`, as coding agents make one per task) shares
 * its main checkout's, its keys naming its own paths relative to it (lib/cache/relocate.ts); a result that quotes one
 * checkout's folder is that checkout's alone; a `.git` file that claims another repository's worktree is not taken
 * at its word.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cacheDirFor, checkoutDirFor, mainCheckout, openCache } from "../../lib/cache/db.ts";
import { runPoly } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=poly", "-c", "user.email=poly@example.invalid", "-c", "init.defaultBranch=main", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

const hasGit = await new Deno.Command("git", { args: ["--version"], stdout: "null", stderr: "null" }).output()
  .then((o) => o.success, () => false);

/** A repository with a commit, and a worktree of it beside. */
async function repositoryWithWorktree(): Promise<{ main: string; worktree: string }> {
  const root = await Deno.realPath(await tempDir({ prefix: "poly-worktree-" }));
  const main = join(root, "main");
  await Deno.mkdir(main);
  await git(main, "init", "-q");
  await Deno.writeTextFile(join(main, "poly.toml"), '[lint.python.ruff]\nselect = ["E", "F"]\n');
  await Deno.mkdir(join(main, "pkg"));
  for (let i = 0; i < 12; i++) {
    await Deno.writeTextFile(join(main, "pkg", `m${i}.py`), `import os\nx${i} = ${i}\n`);
    await Deno.writeTextFile(join(main, "pkg", `t${i}.ts`), `export const a${i} = ${i} == 0 ? 1 : 2;\n`);
  }
  await git(main, "add", "-A");
  await git(main, "commit", "-q", "-m", "init");
  const worktree = join(root, "task-1");
  await git(main, "worktree", "add", "-q", worktree);
  return { main, worktree };
}

Deno.test({
  name: "a worktree's first poly lint is answered from its main checkout's cache, with the same report",
  ignore: !hasGit,
  fn: async () => {
    const { main, worktree } = await repositoryWithWorktree();
    assert.equal(mainCheckout(worktree), main);
    assert.equal(cacheDirFor(worktree, "/h"), cacheDirFor(main, "/h"));
    assert.notEqual(checkoutDirFor(worktree, "/h"), checkoutDirFor(main, "/h"));
    const home = await tempDir({ prefix: "poly-worktree-home-" });
    const lint = async (cwd: string) => {
      const run = await runPoly(["lint", "--format", "json", "--no-workspace"], {
        cwd,
        env: { POLY_CACHE_HOME: home },
      });
      assert.ok(run.stdout.startsWith("{"), run.stderr);
      const doc = JSON.parse(run.stdout);
      return { code: run.code, results: doc.results, cache: doc.summary.cache };
    };
    const first = await lint(main);
    assert.equal(first.cache.hits, 0);
    assert.ok(first.cache.misses > 0);
    const second = await lint(worktree);
    assert.equal(second.cache.misses, 0);
    assert.equal(second.cache.hits, first.cache.misses);
    assert.deepEqual(second.results, first.results);
    assert.equal(second.code, first.code);
    // An edit in the worktree is checked there; the main checkout's results stand.
    await Deno.writeTextFile(join(worktree, "pkg", "m0.py"), "import sys\n");
    const edited = await lint(worktree);
    assert.equal(edited.cache.misses, 2, JSON.stringify(edited.cache)); // ruff and the rule pack
  },
});

Deno.test("a result that quotes its checkout's folder is a miss for another checkout sharing the cache", async () => {
  const root = await tempDir({ prefix: "poly-bound-" });
  const home = await tempDir({ prefix: "poly-bound-home-" });
  // A main checkout and a worktree of it, as git lays them out.
  const main = join(root, "main");
  const gitdir = join(main, ".git", "worktrees", "wt");
  const worktree = join(root, "wt");
  await Deno.mkdir(gitdir, { recursive: true });
  await Deno.mkdir(worktree);
  await Deno.writeTextFile(join(worktree, ".git"), `gitdir: ${gitdir}\n`);
  await Deno.writeTextFile(join(gitdir, "gitdir"), `${join(worktree, ".git")}\n`);
  await Deno.writeTextFile(join(gitdir, "commondir"), "../..\n");
  assert.equal(mainCheckout(worktree), main);

  const plain = { diagnostics: [{ engine: "x", severity: "error", title: "plain" }] };
  const quoting = { diagnostics: [{ engine: "x", severity: "error", title: `cannot read ${main}/tsconfig.json` }] };
  const own = await openCache({ anchor: main, root: home });
  own.set("lint", "a", plain);
  own.set("lint", "b", quoting);
  own.close();
  const other = await openCache({ anchor: worktree, root: home });
  assert.equal(other.path, own.path);
  assert.deepEqual([other.get("lint", "a"), other.get("lint", "b")], [plain, undefined]);
  assert.deepEqual(other.counters().lint, { hits: 1, misses: 1 });
  other.close();
  const again = await openCache({ anchor: main, root: home });
  assert.deepEqual([again.get("lint", "a"), again.get("lint", "b")], [plain, quoting]);
  again.close();
});

Deno.test("a .git file that claims another repository's worktree is not taken at its word", async () => {
  const root = await tempDir({ prefix: "poly-claim-" });
  const victim = join(root, "victim");
  const gitdir = join(victim, ".git", "worktrees", "real");
  await Deno.mkdir(gitdir, { recursive: true });
  await Deno.writeTextFile(join(gitdir, "gitdir"), `${join(root, "real", ".git")}\n`);
  await Deno.writeTextFile(join(gitdir, "commondir"), "../..\n");
  const claimant = join(root, "claimant");
  await Deno.mkdir(claimant);
  await Deno.writeTextFile(join(claimant, ".git"), `gitdir: ${gitdir}\n`);
  assert.equal(mainCheckout(claimant), claimant);
  assert.notEqual(cacheDirFor(claimant, "/h"), cacheDirFor(victim, "/h"));
  // A submodule's `.git` file (no `commondir`) and a plain clone are their own.
  const sub = join(root, "sub");
  await Deno.mkdir(join(root, "modules", "sub"), { recursive: true });
  await Deno.mkdir(sub);
  await Deno.writeTextFile(join(sub, ".git"), `gitdir: ../modules/sub\n`);
  assert.equal(mainCheckout(sub), sub);
  assert.equal(mainCheckout(victim), victim);
});
