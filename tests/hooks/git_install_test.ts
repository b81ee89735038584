/**
 * `poly hooks install | uninstall`: atomic install, chaining an existing hook,
 * refusing when it cannot chain, core.hooksPath, and restoring on uninstall.
 * Commits run the real hook script with POLY_BIN=true (poly itself is not needed
 * to test the wiring; tests/hooks/pre_commit_test.ts runs the real check).
 */
import { equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { runPoly } from "../_helpers/cli.ts";
import { HOOK_MARKER, installGitHooks, isPolyHook, uninstallGitHooks } from "../../lib/hooks/mod.ts";
import { PolyError } from "../../lib/errors/mod.ts";
import { git, tempRepo, write } from "./_repo.ts";
import { tempDir } from "../_helpers/temp.ts";

const NO_POLY = { POLY_BIN: "true" };

Deno.test("installGitHooks() writes an executable pre-commit hook, and is idempotent", async () => {
  const repo = await tempRepo();
  try {
    const [first] = await installGitHooks({ cwd: repo.dir });
    equal(first.action, "installed");
    equal(first.path, join(repo.dir, ".git", "hooks", "pre-commit"));
    const info = await Deno.stat(first.path);
    equal((info.mode ?? 0) & 0o777, 0o755);
    ok(isPolyHook(await Deno.readTextFile(first.path)));
    const [second] = await installGitHooks({ cwd: repo.dir });
    equal(second.action, "unchanged");
    const [third] = await installGitHooks({ cwd: repo.dir, version: "9.9.9" });
    equal(third.action, "refreshed");
    ok((await Deno.readTextFile(first.path)).includes(`${HOOK_MARKER} v=9.9.9`));
    const leftovers = [...Deno.readDirSync(join(repo.dir, ".git", "hooks"))].filter((e) => e.name.includes("poly-"));
    equal(leftovers.length, 0, "no staging files left behind");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("installGitHooks() chains an existing hook, which still runs and can still block", async () => {
  const repo = await tempRepo();
  try {
    const hook = join(repo.dir, ".git", "hooks", "pre-commit");
    const marker = join(repo.dir, "old-hook-ran");
    const old = `#!/bin/sh\ntouch "${marker}"\nexit "\${OLD_HOOK_EXIT:-0}"\n`;
    await write(repo.dir, ".git/hooks/pre-commit", old, 0o755);
    const [change] = await installGitHooks({ cwd: repo.dir });
    equal(change.action, "chained");
    equal(change.chained, `${hook}.pre-poly`);
    equal(await Deno.readTextFile(`${hook}.pre-poly`), old);
    equal(((await Deno.stat(`${hook}.pre-poly`)).mode ?? 0) & 0o777, 0o755);

    await write(repo.dir, "a.txt", "a\n");
    await git(repo.dir, ["add", "a.txt"]);
    const blocked = await git(repo.dir, ["commit", "-qm", "one"], { ...NO_POLY, OLD_HOOK_EXIT: "3" });
    equal(blocked.code, 1, "the chained hook's failure blocks the commit");
    ok(await Deno.stat(marker));
    await Deno.remove(marker);
    const passed = await git(repo.dir, ["commit", "-qm", "one"], NO_POLY);
    equal(passed.code, 0, passed.stderr);
    ok(await Deno.stat(marker), "the chained hook ran");

    const [again] = await installGitHooks({ cwd: repo.dir });
    equal(again.action, "unchanged", "reinstalling does not chain poly to itself");

    const [removed] = await uninstallGitHooks({ cwd: repo.dir });
    equal(removed.action, "restored");
    equal(await Deno.readTextFile(hook), old);
    await rejects(Deno.stat(`${hook}.pre-poly`));
  } finally {
    await repo.cleanup();
  }
});

Deno.test("installGitHooks() refuses when the existing hook cannot be kept", async () => {
  const repo = await tempRepo();
  try {
    await write(repo.dir, ".git/hooks/pre-commit", "#!/bin/sh\necho mine\n", 0o755);
    await write(repo.dir, ".git/hooks/pre-commit.pre-poly", "#!/bin/sh\necho older\n", 0o755);
    await rejects(
      installGitHooks({ cwd: repo.dir }),
      (e) => e instanceof PolyError && /already exists/.test(e.message),
    );
    equal(await Deno.readTextFile(join(repo.dir, ".git/hooks/pre-commit")), "#!/bin/sh\necho mine\n", "untouched");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("installGitHooks() chains a symlinked hook as a link", async () => {
  const repo = await tempRepo();
  try {
    await write(repo.dir, "tools/hook.sh", "#!/bin/sh\nexit 0\n", 0o755);
    await Deno.symlink("../../tools/hook.sh", join(repo.dir, ".git/hooks/pre-commit"));
    const [change] = await installGitHooks({ cwd: repo.dir });
    equal(change.action, "chained");
    equal(await Deno.readLink(join(repo.dir, ".git/hooks/pre-commit.pre-poly")), "../../tools/hook.sh");
    const [removed] = await uninstallGitHooks({ cwd: repo.dir });
    equal(removed.action, "restored");
    equal(await Deno.readLink(join(repo.dir, ".git/hooks/pre-commit")), "../../tools/hook.sh");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("installGitHooks() honours core.hooksPath", async () => {
  const repo = await tempRepo();
  try {
    await git(repo.dir, ["config", "core.hooksPath", ".githooks"]);
    const [change] = await installGitHooks({ cwd: join(repo.dir) });
    equal(change.path, join(repo.dir, ".githooks", "pre-commit"));
    await write(repo.dir, "a.txt", "a\n");
    await git(repo.dir, ["add", "a.txt"]);
    const blocked = await git(repo.dir, ["commit", "-qm", "x"], { POLY_BIN: "false" });
    equal(blocked.code, 1, "git runs the hook from core.hooksPath");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("uninstallGitHooks() leaves a hook that is not poly's alone", async () => {
  const repo = await tempRepo();
  try {
    equal((await uninstallGitHooks({ cwd: repo.dir }))[0].action, "absent");
    await write(repo.dir, ".git/hooks/pre-commit", "#!/bin/sh\necho mine\n", 0o755);
    equal((await uninstallGitHooks({ cwd: repo.dir }))[0].action, "foreign");
    equal(await Deno.readTextFile(join(repo.dir, ".git/hooks/pre-commit")), "#!/bin/sh\necho mine\n");
    await Deno.remove(join(repo.dir, ".git/hooks/pre-commit"));
    await installGitHooks({ cwd: repo.dir });
    equal((await uninstallGitHooks({ cwd: repo.dir }))[0].action, "removed");
    await rejects(Deno.stat(join(repo.dir, ".git/hooks/pre-commit")));
  } finally {
    await repo.cleanup();
  }
});

const POLY_ON_SYSTEM_PATH = ["/usr/bin/poly", "/bin/poly"].some((p) => {
  try {
    return Deno.statSync(p).isFile;
  } catch {
    return false;
  }
});

Deno.test({
  name: "the hook fails the commit with a message when poly is not on PATH",
  ignore: POLY_ON_SYSTEM_PATH,
}, async () => {
  const repo = await tempRepo();
  try {
    await installGitHooks({ cwd: repo.dir });
    await write(repo.dir, "a.txt", "a\n");
    await git(repo.dir, ["add", "a.txt"]);
    const r = await git(repo.dir, ["commit", "-qm", "x"], { PATH: "/usr/bin:/bin", POLY_BIN: "" });
    equal(r.code, 1);
    ok(r.stderr.includes("poly is not on PATH"), r.stderr);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("poly hooks install / uninstall from the command line", async () => {
  const repo = await tempRepo();
  try {
    const sub = join(repo.dir, "src");
    await Deno.mkdir(sub);
    const installed = await runPoly(["hooks", "install"], { cwd: sub });
    equal(installed.code, 0, installed.stderr);
    ok(installed.stdout.includes("pre-commit") && installed.stdout.includes("installed"), installed.stdout);
    const removed = await runPoly(["hooks", "uninstall"], { cwd: sub });
    equal(removed.code, 0, removed.stderr);
    ok(removed.stdout.includes("removed"), removed.stdout);
    const outside = await runPoly(["hooks", "install"], { cwd: await tempDir() });
    equal(outside.code, 2);
    ok(outside.stderr.includes("not inside a git work tree"), outside.stderr);
  } finally {
    await repo.cleanup();
  }
});
