import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { REPO } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";
import { findExecutable } from "../../lib/fs/executable.ts";

/** engineCacheVersion(shellcheck) in a fresh process with `PATH` = `bin` and its own cache home. */
async function cacheVersion(bin: string, home: string, env: Record<string, string> = {}): Promise<string> {
  const script = join(home, "probe.ts");
  await Deno.writeTextFile(
    script,
    `import { engineCacheVersion } from ${JSON.stringify(join(REPO, "lib/identity/engines.ts"))};
import { shellcheck } from ${JSON.stringify(join(REPO, "lib/engines/shellcheck/mod.ts"))};
console.log(await engineCacheVersion(shellcheck));
`,
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-lock", "--node-modules-dir=manual", "--config", join(REPO, "deno.json"), script],
    env: { PATH: bin, POLY_CACHE_HOME: join(home, "cache"), ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

/** A fresh home with `bin/<name>`: a copy of /bin/echo (`echo --version` prints a version). */
async function echoNamed(name: string): Promise<{ home: string; bin: string; program: string }> {
  const home = await Deno.realPath(await tempDir({ prefix: "poly-host-version-" }));
  const bin = join(home, "bin");
  await Deno.mkdir(bin);
  const program = join(bin, name);
  await Deno.copyFile("/bin/echo", program);
  await Deno.chmod(program, 0o755);
  return { home, bin, program };
}

Deno.test("engineCacheVersion() asks a host program its version once, then remembers it by the file's stat", async () => {
  // A real executable (not a script) standing in for shellcheck: `echo --version` prints a version.
  const { home, bin, program } = await echoNamed("shellcheck");
  const asked = await cacheVersion(bin, home);
  assert.match(asked, /^shellcheck \d+\.\d+\S* /);
  const version = asked.split(" ")[1];

  // The memo answers the next run: a version written there (as if asked earlier) is what it gives.
  const memoPath = join(home, "cache", "identity", "sha256.json");
  const memo = JSON.parse(await Deno.readTextFile(memoPath));
  const key = Object.keys(memo).find((k) => k.startsWith(program));
  assert.ok(key, `the version is remembered: ${JSON.stringify(memo)}`);
  assert.equal(memo[key].digest, version);
  memo[key].digest = "9.99";
  await Deno.writeTextFile(memoPath, JSON.stringify(memo));
  assert.equal(await cacheVersion(bin, home), `shellcheck 9.99 ${program}`);

  // The program changes (here its mtime): it is asked again.
  const later = new Date(Date.now() + 5000);
  await Deno.utime(program, later, later);
  assert.equal(await cacheVersion(bin, home), `shellcheck ${version} ${program}`);

  // A script (a version manager's shim: the same file whatever version it runs) is asked every time.
  const selected = join(home, "selected-version");
  await Deno.writeTextFile(selected, "shellcheck 1.2.3\n");
  await Deno.writeTextFile(program, `#!/bin/sh\nexec /bin/cat ${selected}\n`);
  assert.equal(await cacheVersion(bin, home), `shellcheck 1.2.3 ${program}`);
  await Deno.writeTextFile(selected, "shellcheck 1.2.4\n");
  assert.equal(await cacheVersion(bin, home), `shellcheck 1.2.4 ${program}`);

  // What the program reads from its environment is part of the key: SHELLCHECK_OPTS changes shellcheck's findings.
  const opts = await cacheVersion(bin, home, { SHELLCHECK_OPTS: "-e SC2086" });
  assert.equal(opts, `shellcheck 1.2.4 ${program} SHELLCHECK_OPTS="-e SC2086"`);
  await Deno.remove(home, { recursive: true });
});

Deno.test("engineCacheVersion() asks a link to a program of another name every time (rustup's proxies, busybox)", async () => {
  // `shellcheck` -> `multicall`, a real executable (not a script), as rustup's `rustfmt` -> `rustup`.
  const { home, bin, program: multicall } = await echoNamed("multicall");
  await Deno.symlink(multicall, join(bin, "shellcheck"));
  const asked = await cacheVersion(bin, home);
  assert.match(asked, /^shellcheck \d+\.\d+\S* /);
  // Nothing remembered for it: the toolchain such a program runs can change while the file stays the same.
  const memoPath = join(home, "cache", "identity", "sha256.json");
  const memo = await Deno.readTextFile(memoPath).then(JSON.parse, () => ({}));
  assert.deepEqual(Object.keys(memo).filter((k) => k.startsWith(multicall)), []);
  await Deno.remove(home, { recursive: true });
});

Deno.test({
  name: "a resident process sees a host program upgraded between its runs: the next run's cache version is the new one",
  ignore: Deno.build.os === "windows",
  async fn() {
    // shellcheck is a copy of /bin/echo, then is replaced (as a package upgrade does) by a copy of /bin/bash, whose
    // `--version` names another version. One process, as `poly daemon` and `poly mcp` are: each run starts with
    // revalidateEngineVersions() (lib/run/mod.ts).
    const { home, bin, program } = await echoNamed("shellcheck");
    const script = join(home, "resident.ts");
    await Deno.writeTextFile(
      script,
      `import { engineCacheVersion, revalidateEngineVersions } from ${
        JSON.stringify(join(REPO, "lib/identity/engines.ts"))
      };
import { shellcheck } from ${JSON.stringify(join(REPO, "lib/engines/shellcheck/mod.ts"))};
const program = ${JSON.stringify(program)};
const first = await engineCacheVersion(shellcheck);
Deno.copyFileSync("/bin/bash", program + ".new");
Deno.chmodSync(program + ".new", 0o755);
Deno.renameSync(program + ".new", program);
const sameRun = await engineCacheVersion(shellcheck);
revalidateEngineVersions();
const nextRun = await engineCacheVersion(shellcheck);
console.log(JSON.stringify({ first, sameRun, nextRun }));
`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-lock", "--node-modules-dir=manual", "--config", join(REPO, "deno.json"), script],
      env: { PATH: bin, POLY_CACHE_HOME: join(home, "cache") },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const { first, sameRun, nextRun } = JSON.parse(new TextDecoder().decode(out.stdout));
    const bash = /\d+\.\d+(?:\.\d+)?/.exec(
      new TextDecoder().decode((await new Deno.Command("/bin/bash", { args: ["--version"] }).output()).stdout),
    )?.[0];
    assert.ok(bash, "bash names its version");
    assert.equal(sameRun, first, "within a run the version holds");
    assert.notEqual(nextRun, first);
    assert.ok(nextRun.startsWith(`shellcheck ${bash}`), nextRun);
    await Deno.remove(home, { recursive: true });
  },
});

/** A Python interpreter on PATH that is a program (not a version manager's shim), links resolved. */
const python = (() => {
  if (Deno.build.os === "windows") return undefined;
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    const found = findExecutable("python3", dir);
    if (found === undefined) continue;
    const real = Deno.realPathSync(found);
    if (!Deno.readTextFileSync(real).startsWith("#!")) return real;
  }
})();
if (python === undefined) {
  console.log("SKIPPED a Python console script's remembered version: no python3 program on PATH");
}

Deno.test({
  name: "engineCacheVersion() remembers a Python console script's version under its interpreter and package folders",
  ignore: python === undefined,
  async fn() {
    // shellcheck stands in for flake8: a Python script whose version counts the packages in the folder PYTHONPATH
    // names (as flake8's `--version` lists its plug-ins), and which notes each time it is asked.
    const home = await Deno.realPath(await tempDir({ prefix: "poly-host-version-" }));
    const bin = join(home, "bin");
    const site = join(home, "site");
    const other = join(home, "other");
    const asked = join(home, "asked");
    await Deno.mkdir(bin);
    await Deno.mkdir(site);
    await Deno.mkdir(other);
    const program = join(bin, "shellcheck");
    const body = `import os, sys
open(${JSON.stringify(asked)}, "a").write("asked\\n")
site = [p for p in sys.path if p.endswith(("/site", "/other"))][0]
print("version: 1.%d" % len(os.listdir(site)))
`;
    await Deno.writeTextFile(program, `#!${python}\n${body}`);
    await Deno.chmod(program, 0o755);
    const env = (dir: string) => ({ PYTHONPATH: dir, PATH: `${bin}:${dirname(python!)}:/usr/bin:/bin` });
    const times = async () => (await Deno.readTextFile(asked)).split("\n").length - 1;

    assert.equal(await cacheVersion(bin, home, env(site)), `shellcheck 1.0 ${program}`);
    assert.equal(await times(), 1);
    // Nothing changed: remembered, not asked.
    assert.equal(await cacheVersion(bin, home, env(site)), `shellcheck 1.0 ${program}`);
    assert.equal(await times(), 1);
    // A package installed on its sys.path (a flake8 plug-in): asked again, and its new answer remembered.
    await Deno.writeTextFile(join(site, "plugin.py"), "");
    assert.equal(await cacheVersion(bin, home, env(site)), `shellcheck 1.1 ${program}`);
    assert.equal(await cacheVersion(bin, home, env(site)), `shellcheck 1.1 ${program}`);
    assert.equal(await times(), 2);
    // Another PYTHONPATH is another sys.path.
    assert.equal(await cacheVersion(bin, home, env(other)), `shellcheck 1.0 ${program}`);
    assert.equal(await times(), 3);
    // Named through env, the interpreter is found on PATH; the script changed, so it is asked.
    await Deno.writeTextFile(program, `#!/usr/bin/env python3\n${body}`);
    assert.equal(await cacheVersion(bin, home, env(other)), `shellcheck 1.0 ${program}`);
    assert.equal(await cacheVersion(bin, home, env(other)), `shellcheck 1.0 ${program}`);
    assert.equal(await times(), 4);
    // An interpreter that is itself a script (pyenv's shim) decides its version by itself: asked every time.
    const shim = join(bin, "python3");
    await Deno.writeTextFile(shim, `#!/bin/sh\nexec ${python} "$@"\n`);
    await Deno.chmod(shim, 0o755);
    assert.equal(await cacheVersion(bin, home, env(other)), `shellcheck 1.0 ${program}`);
    assert.equal(await cacheVersion(bin, home, env(other)), `shellcheck 1.0 ${program}`);
    assert.equal(await times(), 6);
    await Deno.remove(home, { recursive: true });
  },
});
