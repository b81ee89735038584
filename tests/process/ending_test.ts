/**
 * A SIGTERM sent to poly alone (`timeout`, an MCP host or a CI runner stopping it) reached poly only: a lint engine's
 * process (here shellcheck, a host program, in poly's process group, so a terminal's Ctrl-C does reach it), an agent
 * CLI's process tree (in a group of its own; with the sandbox on, bwrap's `--die-with-parent` takes it) and the `git`
 * of `poly config update` went on, and the private folder the engine worked in stayed in the temporary directory. The
 * real `poly lint`, `poly delegate` and `poly config update`, stopped that way, stop them too and remove the folder
 * (lib/process/ending.ts) and exit 143. The same for whole-project jobs is tests/workspace/interrupt_test.ts.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { isolatedHomes, polyCommand, REPO } from "../_helpers/cli.ts";
import { inProcessWith } from "../_helpers/isolated.ts";
import { tempDir } from "../_helpers/temp.ts";
import { alive, killHard, until } from "../_helpers/process.ts";
import { FAKE_PATH, makeHome, makeWorkspace } from "../fleet/_helpers.ts";

const posix = Deno.build.os !== "windows"; // SIGTERM, `sh` and `kill -0`

/**
 * Starts the real poly with `args` in `cwd`, waits until `pidFile` names the processes it started (space-separated,
 * one line), sends poly alone a SIGTERM, and checks that poly exits 143 and every one of them is gone within 5 s.
 * With `tmp` (poly's `TMPDIR`), also that poly left nothing there.
 */
async function stopsWithPoly(
  args: string[],
  options: { cwd: string; env: Record<string, string>; pidFile: string; what: string; tmp?: string },
): Promise<void> {
  const [exe, ...base] = polyCommand();
  const child = new Deno.Command(exe, {
    args: [...base, ...args],
    cwd: options.cwd,
    env: { NO_COLOR: "1", ...(await isolatedHomes()), ...options.env, ...(options.tmp ? { TMPDIR: options.tmp } : {}) },
    stdout: "null",
    stderr: "null",
  }).spawn();
  let pids: number[] = [];
  try {
    const written = async () => (await Deno.readTextFile(options.pidFile).catch(() => "")).endsWith("\n");
    await until(written, `${options.what} to start`, 30_000);
    pids = (await Deno.readTextFile(options.pidFile)).trim().split(" ").map(Number);
    for (const pid of pids) ok(await alive(pid), `${options.what} (${pid}) runs`);
    child.kill("SIGTERM");
    equal((await child.status).code, 143);
    for (const pid of pids) await until(async () => !(await alive(pid)), `${options.what} (${pid}) to end`, 5_000);
    if (options.tmp) deepEqual([...Deno.readDirSync(options.tmp)].map((e) => e.name), []);
  } finally {
    // Whatever happened above, nothing the test started goes on.
    killHard(child.pid);
    for (const pid of pids) killHard(pid);
    await child.status;
  }
}

/** A folder holding `bin/<name>`: a program that writes its pid to `bin/<name>.pid` and sleeps a minute. */
async function fakeProgram(name: string, before = ""): Promise<{ dir: string; path: string; pidFile: string }> {
  const dir = await Deno.realPath(await tempDir({ prefix: "poly-ending-" }));
  await Deno.mkdir(join(dir, "bin"));
  const script = `#!/bin/sh\n${before}echo $$ > "$(dirname "$0")/${name}.pid"\nexec sleep 60\n`;
  await Deno.writeTextFile(join(dir, "bin", name), script, { mode: 0o755 });
  return {
    dir,
    path: `${join(dir, "bin")}:${Deno.env.get("PATH") ?? ""}`,
    pidFile: join(dir, "bin", `${name}.pid`),
  };
}

Deno.test({
  name: "poly lint stopped by a SIGTERM to poly alone while an engine's process runs stops that process and exits 143",
  ignore: !posix,
  async fn() {
    // A `shellcheck` that answers `--version` as the real one does, and otherwise never ends.
    const version = `case " $* " in *" --version "*) echo "ShellCheck - shell script analysis tool"; ` +
      `echo "version: 0.10.0"; exit 0;; esac\n`;
    const { dir, path, pidFile } = await fakeProgram("shellcheck", version);
    const tree = join(dir, "tree");
    const tmp = join(dir, "tmp"); // where shellcheck's batch gets its private folder
    await Deno.mkdir(join(tree, ".git"), { recursive: true });
    await Deno.mkdir(tmp);
    await Deno.writeTextFile(join(tree, "a.sh"), "#!/bin/sh\necho $1\n");
    await stopsWithPoly(["lint", "--no-cache", "--no-workspace"], {
      cwd: tree,
      env: { PATH: path },
      pidFile,
      what: "shellcheck",
      tmp,
    });
  },
});

Deno.test({
  name: "poly delegate (sandbox off) stopped by a SIGTERM to poly alone stops the agent's process tree and exits 143",
  ignore: !posix,
  async fn() {
    const cwd = await makeWorkspace();
    // The fake agent CLI ([[hang]]) writes its pid and its child's to poly-hang-pids.txt, then never ends.
    await stopsWithPoly(["delegate", "--level", "1", "[[hang]] wait"], {
      cwd,
      env: { HOME: await makeHome(), PATH: FAKE_PATH, POLY_SANDBOX: "off" },
      pidFile: join(cwd, "poly-hang-pids.txt"),
      what: "the agent",
    });
  },
});

Deno.test({
  name: "poly config update stopped by a SIGTERM to poly alone while git clones stops git and exits 143",
  ignore: !posix,
  async fn() {
    const { dir, path, pidFile } = await fakeProgram("git");
    const project = join(dir, "project");
    await Deno.mkdir(join(project, ".git"), { recursive: true });
    await Deno.writeTextFile(
      join(project, "poly.toml"),
      'extends = [{ git = "https://example.com/style.git", revision = "main", file = "poly.toml" }]\n',
    );
    const cache = join(dir, "cache");
    await stopsWithPoly(["config", "update"], {
      cwd: project,
      env: { PATH: path, POLY_CACHE_HOME: cache },
      pidFile,
      what: "git",
    });
    // The folder poly made for the clone went with it.
    deepEqual([...Deno.readDirSync(join(cache, "config-bases"))].map((e) => e.name), []);
  },
});

Deno.test({
  name:
    "onEndingSignal(): a server's graceful end is called after the stops, and the process goes on (the server ends itself)",
  ignore: !posix,
  async fn() {
    const order = await inProcessWith(
      { PATH: Deno.env.get("PATH") ?? "" },
      `
      const { onEndingSignal, stopWithPoly } = await import(REPO + "/lib/process/ending.ts");
      const order = [];
      const releaseStop = stopWithPoly(() => order.push("stop"));
      let done;
      const ended = new Promise((resolve) => (done = resolve));
      const releaseEnd = onEndingSignal(() => (order.push("graceful"), done()), ["SIGTERM"]);
      Deno.kill(Deno.pid, "SIGTERM");
      await ended;
      releaseEnd();
      releaseStop();
      console.log(JSON.stringify(order));
    `,
    );
    deepEqual(order, ["stop", "graceful"]);
  },
});

Deno.test({
  name: "a signal with no graceful end registered: the stops run, and poly exits as the signal would have ended it",
  ignore: !posix,
  async fn() {
    const dir = await tempDir({ prefix: "poly-ending-exit-" });
    const script = join(dir, "main.ts");
    await Deno.writeTextFile(
      script,
      `const { stopWithPoly } = await import(${JSON.stringify(join(REPO, "lib/process/ending.ts"))});
      stopWithPoly(() => Deno.writeTextFileSync(${JSON.stringify(join(dir, "stopped"))}, "yes"));
      Deno.kill(Deno.pid, "SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 30_000));
      console.log("still here");\n`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-q", "-P=test", "--no-prompt", "--config", join(REPO, "deno.json"), script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    equal(out.code, 143, new TextDecoder().decode(out.stderr));
    equal(new TextDecoder().decode(out.stdout), "");
    equal(await Deno.readTextFile(join(dir, "stopped")), "yes");
    await Deno.remove(dir, { recursive: true });
  },
});
