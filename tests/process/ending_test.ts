/**
 * A SIGTERM sent to poly alone (`timeout`, an MCP host or a CI runner stopping it) reached poly only: a lint engine's
 * process (here shellcheck, a host program, in poly's process group, so a terminal's Ctrl-C does reach it) and an agent
 * CLI's process tree (in a group of its own; with the sandbox on, bwrap's `--die-with-parent` takes it) went on. The
 * real `poly lint`, `poly delegate` and `poly config update` (its `git clone`), stopped that way, stop them too
 * (lib/process/ending.ts) and exit 143. The same for whole-project jobs is tests/workspace/interrupt_test.ts.
 */
import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { isolatedHomes, polyCommand } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";
import { alive, killHard, until } from "../_helpers/process.ts";
import { FAKE_PATH, makeHome, makeWorkspace } from "../fleet/_helpers.ts";

const posix = Deno.build.os !== "windows"; // SIGTERM, `sh` and `kill -0`

/** A `shellcheck` that answers `--version`, and otherwise writes its pid beside itself and sleeps a minute. */
const FAKE_SHELLCHECK = `#!/bin/sh
case " $* " in *" --version "*) echo "ShellCheck - shell script analysis tool"; echo "version: 0.10.0"; exit 0;; esac
echo $$ > "$(dirname "$0")/shellcheck.pid"
exec sleep 60
`;

Deno.test({
  name: "poly lint stopped by a SIGTERM to poly alone while an engine's process runs stops that process and exits 143",
  ignore: !posix,
  async fn() {
    const dir = await Deno.realPath(await tempDir({ prefix: "poly-ending-" }));
    const bin = join(dir, "bin");
    const tree = join(dir, "tree");
    await Deno.mkdir(bin);
    await Deno.mkdir(join(tree, ".git"), { recursive: true });
    await Deno.writeTextFile(join(bin, "shellcheck"), FAKE_SHELLCHECK, { mode: 0o755 });
    await Deno.writeTextFile(join(tree, "a.sh"), "#!/bin/sh\necho $1\n");
    const [exe, ...args] = polyCommand();
    const child = new Deno.Command(exe, {
      args: [...args, "lint", "--no-cache", "--no-workspace"],
      cwd: tree,
      env: { NO_COLOR: "1", PATH: `${bin}:${Deno.env.get("PATH") ?? ""}`, ...(await isolatedHomes()) },
      stdout: "null",
      stderr: "null",
    }).spawn();
    let engine: number | undefined;
    try {
      const pidFile = join(bin, "shellcheck.pid");
      const written = async () => (await Deno.readTextFile(pidFile).catch(() => "")).endsWith("\n");
      await until(written, "shellcheck to start", 30_000);
      engine = Number((await Deno.readTextFile(pidFile)).trim());
      ok(await alive(engine), "shellcheck runs");
      child.kill("SIGTERM");
      equal((await child.status).code, 143);
      await until(async () => !(await alive(engine!)), "shellcheck to end", 5_000);
    } finally {
      // Whatever happened above, nothing the test started goes on.
      killHard(child.pid);
      if (engine !== undefined) killHard(engine);
      await child.status;
    }
  },
});

Deno.test({
  name: "poly delegate (sandbox off) stopped by a SIGTERM to poly alone stops the agent's process tree and exits 143",
  ignore: !posix,
  async fn() {
    const cwd = await makeWorkspace();
    const [exe, ...args] = polyCommand();
    const child = new Deno.Command(exe, {
      // The fake agent CLI ([[hang]]) writes its pid and its child's to poly-hang-pids.txt, then never ends.
      args: [...args, "delegate", "--level", "1", "[[hang]] wait"],
      cwd,
      env: { NO_COLOR: "1", HOME: await makeHome(), PATH: FAKE_PATH, POLY_SANDBOX: "off", ...(await isolatedHomes()) },
      stdout: "null",
      stderr: "null",
    }).spawn();
    let pids: number[] = [];
    try {
      const pidFile = join(cwd, "poly-hang-pids.txt");
      const written = async () => (await Deno.readTextFile(pidFile).catch(() => "")).endsWith("\n");
      await until(written, "the agent to start", 30_000);
      pids = (await Deno.readTextFile(pidFile)).trim().split(" ").map(Number);
      for (const pid of pids) ok(await alive(pid), `the agent's process ${pid} runs`);
      child.kill("SIGTERM");
      equal((await child.status).code, 143);
      for (const pid of pids) await until(async () => !(await alive(pid)), `the agent's process ${pid} to end`, 5_000);
    } finally {
      killHard(child.pid);
      for (const pid of pids) killHard(pid);
      await child.status;
    }
  },
});

Deno.test({
  name: "poly config update stopped by a SIGTERM to poly alone while git clones stops git and exits 143",
  ignore: !posix,
  async fn() {
    const dir = await Deno.realPath(await tempDir({ prefix: "poly-ending-git-" }));
    const bin = join(dir, "bin");
    const project = join(dir, "project");
    await Deno.mkdir(bin);
    await Deno.mkdir(join(project, ".git"), { recursive: true });
    // A `git` whose clone never ends (it writes its pid beside itself first).
    await Deno.writeTextFile(join(bin, "git"), `#!/bin/sh\necho $$ > "$(dirname "$0")/git.pid"\nexec sleep 60\n`, {
      mode: 0o755,
    });
    await Deno.writeTextFile(
      join(project, "poly.toml"),
      'extends = [{ git = "https://example.com/style.git", revision = "main", file = "poly.toml" }]\n',
    );
    const [exe, ...args] = polyCommand();
    const child = new Deno.Command(exe, {
      args: [...args, "config", "update"],
      cwd: project,
      env: { NO_COLOR: "1", PATH: `${bin}:${Deno.env.get("PATH") ?? ""}`, ...(await isolatedHomes()) },
      stdout: "null",
      stderr: "null",
    }).spawn();
    let git: number | undefined;
    try {
      const pidFile = join(bin, "git.pid");
      const written = async () => (await Deno.readTextFile(pidFile).catch(() => "")).endsWith("\n");
      await until(written, "git to start", 30_000);
      git = Number((await Deno.readTextFile(pidFile)).trim());
      ok(await alive(git), "git runs");
      child.kill("SIGTERM");
      equal((await child.status).code, 143);
      await until(async () => !(await alive(git!)), "git to end", 5_000);
    } finally {
      killHard(child.pid);
      if (git !== undefined) killHard(git);
      await child.status;
    }
  },
});
