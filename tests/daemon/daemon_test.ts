/**
 * `poly daemon` end to end, as users run it: a real daemon process watching a
 * repository, and `poly lint` / `poly fmt` run by the CLI in it. Whatever the
 * daemon remembers, its reports equal what poly gives run on its own, edit
 * after edit.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { polyCommand } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";
import { alive, killHard, until } from "../_helpers/process.ts";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A repository of `files` in a fresh folder with its own cache and state homes, and a way to run poly there. */
async function repository(prefix: string, files: Record<string, string>) {
  const base = await Deno.realPath(await tempDir({ prefix }));
  const root = join(base, "repo");
  await Deno.mkdir(join(root, ".git"), { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, rel), text);
  }
  const env = { NO_COLOR: "1", POLY_CACHE_HOME: join(base, "cache"), POLY_STATE_HOME: join(base, "state") };
  const [exe, ...rest] = polyCommand();
  const poly = async (args: string[], extra: Record<string, string> = {}, cwd = root): Promise<Run> => {
    const out = await new Deno.Command(exe, { args: [...rest, ...args], cwd, env: { ...env, ...extra } }).output();
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  };
  return { base, root, env, exe, rest, poly };
}

async function setup() {
  const { base, root, env, exe, rest, poly } = await repository("poly-daemon-", {
    "src/a.ts": "const x = 1;\nif (x == 2) { debugger; }\n",
    "src/ok.ts": "export const ok = 1;\n",
    "b.py": "import os\n",
  });
  const daemon = new Deno.Command(exe, {
    args: [...rest, "daemon", "run", root],
    cwd: base,
    env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  // Up once it lists itself and answers.
  for (let i = 0; i < 400; i++) {
    const status = await poly(["daemon", "status", "--format", "json"]);
    if (JSON.parse(status.stdout).daemons.length > 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { base, root, env, poly, daemon };
}

/** A JSON report without what differs from run to run (identity, cache counters). */
function stable(stdout: string): unknown {
  const { poly: _poly, summary: { cache: _cache, ...summary }, ...rest } = JSON.parse(stdout);
  return { ...rest, summary };
}

async function status(poly: (args: string[]) => Promise<Run>) {
  return JSON.parse((await poly(["daemon", "status", "--format", "json"])).stdout).daemons[0];
}

Deno.test("poly daemon: every run through it reports what poly alone reports, edit after edit", async () => {
  const { base, root, poly, daemon } = await setup();
  const compare = async (label: string, args = ["lint", "--no-workspace", "--format", "json"]) => {
    const alone = await poly(args, { POLY_DAEMON: "0" });
    const served = await poly(args);
    assert.equal(served.code, alone.code, `${label}: exit code`);
    assert.deepEqual(stable(served.stdout), stable(alone.stdout), label);
    return stable(served.stdout) as { results: { path: string; diagnostics?: { code?: string }[] }[] };
  };
  try {
    const first = await compare("first run");
    assert.deepEqual(first.results.map((r) => r.path), ["b.py", "src/a.ts"]);
    await compare("nothing changed");
    const runs = (await status(poly)).runs;
    assert.ok(runs >= 2, `the daemon ran them (runs: ${runs})`);

    await Deno.writeTextFile(join(root, "src/ok.ts"), "export const ok = 1;\neval('1');\n");
    const edited = await compare("a file edited");
    assert.ok(edited.results.some((r) => r.path === "src/ok.ts"), "the edit's findings are reported");

    await Deno.writeTextFile(join(root, "src/new.ts"), "debugger;\n");
    assert.ok((await compare("a file added")).results.some((r) => r.path === "src/new.ts"));

    await Deno.writeTextFile(join(root, ".gitignore"), "src/new.ts\n");
    assert.ok(!(await compare("a .gitignore added")).results.some((r) => r.path === "src/new.ts"));

    await Deno.writeTextFile(join(root, "poly.toml"), '[lint.python.ruff]\nignore = ["F401"]\n');
    assert.ok(!(await compare("poly.toml changed")).results.some((r) => r.path === "b.py"));

    await Deno.mkdir(join(root, ".poly/rules"), { recursive: true });
    await Deno.writeTextFile(
      join(root, ".poly/rules/no-const-ok.yml"),
      "id: no-const-ok\nlanguage: TypeScript\nseverity: error\nmessage: no ok\nrule:\n  pattern: export const ok = $A\n",
    );
    const ruled = await compare("a user rule added");
    assert.ok(ruled.results.some((r) => r.diagnostics?.some((d) => d.code === "no-const-ok")));

    await Deno.rename(join(root, "src"), join(root, "lib"));
    await Deno.writeTextFile(join(root, "lib/a.ts"), "export const a = 1;\n");
    await Deno.rename(join(root, "lib"), join(root, "src"));
    await compare("a directory renamed away, edited, and back");

    await Deno.remove(join(root, "src/a.ts"));
    await compare("a file removed");
    await compare("fmt", ["fmt", "--format", "json"]);
    await compare("a subdirectory", ["lint", "--no-workspace", "--format", "json", "src"]);

    const before = await status(poly);
    assert.equal(before.live.watching, true);
    assert.ok(before.live.files > 0, "it remembers files");
    // Another environment (here NO_COLOR unset) is refused: the CLI runs the command itself.
    const other = await poly(["lint", "--no-workspace", "--format", "json"], { NO_COLOR: "" });
    assert.deepEqual(stable(other.stdout), stable((await poly(["lint", "--no-workspace", "--format", "json"])).stdout));
    const after = await status(poly);
    assert.equal(after.refused, before.refused + 1);
    assert.match(after.lastRefusal, /NO_COLOR/);

    const stopped = await poly(["daemon", "stop", root]);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(stopped.stderr, /stopped the poly daemon/);
    assert.equal((await daemon.status).code, 0);
    assert.deepEqual(JSON.parse((await poly(["daemon", "status", "--format", "json"])).stdout).daemons, []);
  } finally {
    try {
      daemon.kill("SIGTERM");
    } catch {
      // stopped
    }
    await daemon.stderr.cancel().catch(() => {});
    await daemon.status;
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("poly daemon start runs one in the background, and a second start says it is running", async () => {
  const { base, root, poly } = await repository("poly-daemon-start-", { "a.py": "x = 1\n" });
  try {
    const started = await poly(["daemon", "start"]);
    assert.equal(started.code, 0, started.stderr);
    assert.match(started.stderr, new RegExp(`poly daemon watching ${root} \\(pid \\d+\\)`));
    // Only this user can reach it: it runs commands as them.
    const dir = join(base, "state", "daemon");
    assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
    const socket = [...Deno.readDirSync(dir)].find((e) => e.name.endsWith(".sock"))!;
    assert.equal((await Deno.stat(join(dir, socket.name))).mode! & 0o777, 0o600);
    const again = await poly(["daemon", "start"]);
    assert.match(again.stderr, /already watching/);
    const second = await poly(["daemon", "run"]);
    assert.equal(second.code, 2, "a second daemon for the same root is refused");
    assert.match(second.stderr, /already watching/);
    const human = await poly(["daemon", "status"]);
    assert.match(human.stdout, new RegExp(`^${root}  pid \\d+  watching`));
    const lint = await poly(["lint", "--format", "json"]);
    assert.equal(lint.code, 0, lint.stderr);
    assert.equal((await status(poly)).runs, 1);
    const stop = await poly(["daemon", "stop"]);
    assert.equal(stop.code, 0);
    assert.match((await poly(["daemon", "status"])).stdout, /no poly daemon is running/);
    assert.match((await poly(["daemon", "stop"])).stderr, /no poly daemon is watching/);
  } finally {
    await poly(["daemon", "stop", root]);
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test({
  name: "poly daemon: a client that goes away cancels its run, and the engine process the run started ends",
  ignore: Deno.build.os === "windows", // a shell script as shellcheck, `kill -0`
  async fn() {
    const { base, poly, exe, rest, env, root } = await repository("poly-daemon-gone-", {
      "a.sh": "#!/bin/sh\necho $1\n",
    });
    // A shellcheck that answers `--version` as the real one does, and otherwise never ends.
    await Deno.mkdir(join(base, "bin"));
    const pidFile = join(base, "bin", "shellcheck.pid");
    const script = `#!/bin/sh\ncase " $* " in *" --version "*) echo "ShellCheck - shell script analysis tool"; ` +
      `echo "version: 0.10.0"; exit 0;; esac\necho $$ > "${pidFile}"\nexec sleep 60\n`;
    await Deno.writeTextFile(join(base, "bin", "shellcheck"), script, { mode: 0o755 });
    const path = { PATH: `${join(base, "bin")}:${Deno.env.get("PATH") ?? ""}` };
    let pid = 0;
    try {
      assert.equal((await poly(["daemon", "start"], path)).code, 0);
      const client = new Deno.Command(exe, {
        args: [...rest, "lint", "--no-workspace", "--format", "json"],
        cwd: root,
        env: { ...env, ...path },
        stdout: "null",
        stderr: "null",
      }).spawn();
      const started = async () => (await Deno.readTextFile(pidFile).catch(() => "")).endsWith("\n");
      await until(started, "shellcheck to start", 30_000);
      pid = Number((await Deno.readTextFile(pidFile)).trim());
      assert.ok(await alive(pid), "shellcheck runs for the daemon's run");
      client.kill("SIGKILL");
      await client.status;
      await until(async () => !(await alive(pid)), `shellcheck (${pid}) to end with the run`, 5_000);
      // The daemon serves the next client.
      assert.equal((await status((args) => poly(args, path))).runs, 1);
    } finally {
      if (pid) killHard(pid);
      await poly(["daemon", "stop", root], path);
      await Deno.remove(base, { recursive: true });
    }
  },
});
