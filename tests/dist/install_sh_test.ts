/**
 * install.sh end to end against a fake release on 127.0.0.1: it installs the
 * latest or a pinned version, replaces an existing poly, and refuses — leaving
 * the previous poly untouched and no partial file behind — a tampered archive,
 * a missing checksum line, a missing sha256sums.txt, a broken download, and a
 * program that does not run or is not the version asked for.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { REPO } from "../_helpers/cli.ts";
import { type ReleaseServer, startReleaseServer, versionLine } from "./_release_server.ts";
import { missing } from "../engines/_harness.ts";
import { tempDir } from "../_helpers/temp.ts";

const INSTALL_SH = join(REPO, "install.sh");
const OLD = "#!/bin/sh\necho 'poly 0.0.1 (build old, channel release)'\n";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function install(env: Record<string, string>, path = Deno.env.get("PATH") ?? "/usr/bin:/bin"): Promise<Run> {
  const home = await tempDir({ prefix: "poly-install-home-" });
  try {
    const out = await new Deno.Command("sh", {
      args: [INSTALL_SH],
      env: { PATH: path, HOME: home, ...env },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(30_000),
    }).output();
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  } finally {
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
}

async function entries(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

/** An install directory holding a previous poly. */
async function withPrevious(): Promise<string> {
  const dir = await tempDir({ prefix: "poly-install-dir-" });
  await Deno.writeTextFile(join(dir, "poly"), OLD, { mode: 0o755 });
  return dir;
}

function serverTest(name: string, fn: (server: ReleaseServer) => Promise<void>, ignore = false) {
  Deno.test({
    name,
    ignore,
    async fn() {
      const server = await startReleaseServer();
      try {
        await fn(server);
      } finally {
        await server.close();
      }
    },
  });
}

serverTest("install.sh installs the latest release and prints the installed version", async (server) => {
  const dir = join(await tempDir({ prefix: "poly-install-dir-" }), "nested", "bin");
  const run = await install({ POLY_DOWNLOAD_BASE: `${server.base}/good`, POLY_INSTALL_DIR: dir });
  equal(run.code, 0, run.stderr);
  equal(run.stdout.trim(), versionLine("0.2.0"));
  deepEqual(await entries(dir), ["poly"]);
  const info = await Deno.stat(join(dir, "poly"));
  equal(info.mode! & 0o777, 0o755);
  deepEqual(server.requests, [
    "/good/latest.txt",
    `/good/v0.2.0/${server.archive}`,
    "/good/v0.2.0/sha256sums.txt",
  ]);
  match(run.stderr, /is not on your PATH/);
});

serverTest("install.sh installs a pinned POLY_VERSION (with or without the v)", async (server) => {
  for (const pin of ["0.1.0", "v0.1.0"]) {
    const dir = await tempDir({ prefix: "poly-install-dir-" });
    const run = await install({ POLY_DOWNLOAD_BASE: `${server.base}/good`, POLY_INSTALL_DIR: dir, POLY_VERSION: pin });
    equal(run.code, 0, run.stderr);
    equal(run.stdout.trim(), versionLine("0.1.0"));
  }
  ok(!server.requests.includes("/good/latest.txt"), "a pinned version does not look up the latest");
  ok(server.requests.includes(`/good/v0.1.0/${server.archive}`));
});

serverTest("install.sh replaces an existing poly instead of skipping it", async (server) => {
  const dir = await withPrevious();
  const run = await install({ POLY_DOWNLOAD_BASE: `${server.base}/good`, POLY_INSTALL_DIR: dir });
  equal(run.code, 0, run.stderr);
  equal(run.stdout.trim(), versionLine("0.2.0"));
  ok((await Deno.readTextFile(join(dir, "poly"))).includes("0.2.0"));
  deepEqual(await entries(dir), ["poly"]);
});

/** Runs a failing scenario over a previous install and checks nothing changed. */
async function refuses(server: ReleaseServer, scenario: string, reason: RegExp, extra: Record<string, string> = {}) {
  const dir = await withPrevious();
  const run = await install({ POLY_DOWNLOAD_BASE: `${server.base}/${scenario}`, POLY_INSTALL_DIR: dir, ...extra });
  equal(run.code, 1, `${scenario}: expected a refusal\n${run.stderr}`);
  match(run.stderr, reason);
  equal(run.stdout, "", "nothing reported as installed");
  equal(await Deno.readTextFile(join(dir, "poly")), OLD, "the previous poly is left in place");
  deepEqual(await entries(dir), ["poly"], "no partial or staged file is left in the install directory");
  return run;
}

serverTest("install.sh refuses a tampered archive", async (server) => {
  await refuses(server, "tampered", /checksum mismatch for poly-.*refusing to install/);
});

serverTest("install.sh refuses an archive with no line in sha256sums.txt", async (server) => {
  await refuses(server, "noline", /sha256sums\.txt has no line for poly-.*refusing/);
});

serverTest("install.sh refuses when sha256sums.txt is missing", async (server) => {
  await refuses(
    server,
    "nosums",
    /cannot download .*sha256sums\.txt: refusing to install an archive that cannot be verified/,
  );
});

serverTest("install.sh keeps the previous poly when the download breaks off", async (server) => {
  await refuses(server, "truncated", /cannot download .*poly-/);
});

serverTest("install.sh refuses a program that does not run, or reports another version", async (server) => {
  await refuses(server, "broken", /does not run on this machine/);
  await refuses(server, "wrongversion", /reports 'poly 9\.9\.9 .*not poly 0\.2\.0/);
  await refuses(server, "noprogram", /does not contain the poly program/);
});

serverTest("install.sh refuses a version that does not exist or is not a version", async (server) => {
  await refuses(server, "good", /cannot download .*v0\.3\.0\/poly-/, { POLY_VERSION: "0.3.0" });
  const before = server.requests.length;
  await refuses(server, "good", /is not a version/, { POLY_VERSION: "../../etc" });
  equal(server.requests.length, before, "an invalid version is refused before any download");
});

async function onPath(program: string): Promise<boolean> {
  return (await new Deno.Command("sh", { args: ["-c", `command -v ${program}`], stdout: "null" }).output()).success;
}

serverTest("install.sh works with wget and shasum when curl and sha256sum are absent", async (server) => {
  const tools = [
    "wget",
    "shasum",
    "perl",
    "uname",
    "mktemp",
    "tr",
    "awk",
    "sort",
    "grep",
    "tar",
    "gzip",
    "mkdir",
    "cp",
    "chmod",
    "mv",
    "rm",
    "head",
    "sed",
    "ldd",
    "getconf",
    "ls",
    "cat",
    "sh",
  ];
  const bin = await tempDir({ prefix: "poly-install-path-" });
  for (const tool of tools) {
    const found = await new Deno.Command("sh", { args: ["-c", `command -v ${tool}`], stdout: "piped" }).output();
    const path = new TextDecoder().decode(found.stdout).trim();
    if (path.startsWith("/")) await Deno.symlink(path, join(bin, tool));
  }
  const dir = await withPrevious();
  const run = await install({ POLY_DOWNLOAD_BASE: `${server.base}/good`, POLY_INSTALL_DIR: dir }, bin);
  equal(run.code, 0, run.stderr);
  equal(run.stdout.trim(), versionLine("0.2.0"));
  deepEqual(await entries(dir), ["poly"]);
}, !(await onPath("wget") && await onPath("shasum")));

Deno.test({
  name: "install.sh is POSIX sh that shellcheck accepts",
  ignore: await missing("shellcheck", "install.sh shellcheck"),
  async fn() {
    const out = await new Deno.Command("shellcheck", { args: ["-s", "sh", INSTALL_SH], stdout: "piped" }).output();
    equal(out.code, 0, new TextDecoder().decode(out.stdout));
  },
});

/** A PATH directory whose `uname` (and optionally `ldd`, `getconf`) report another platform. */
async function fakePlatform(os: string, arch: string, musl = false): Promise<string> {
  const dir = await tempDir({ prefix: "poly-install-uname-" });
  await Deno.writeTextFile(
    join(dir, "uname"),
    `#!/bin/sh\ncase "$1" in -s) echo '${os}' ;; -m) echo '${arch}' ;; *) echo '${os}' ;; esac\n`,
    { mode: 0o755 },
  );
  if (musl) {
    await Deno.writeTextFile(join(dir, "ldd"), "#!/bin/sh\necho 'musl libc (x86_64)' >&2\nexit 1\n", { mode: 0o755 });
    await Deno.writeTextFile(join(dir, "getconf"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
  }
  return `${dir}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
}

serverTest("install.sh picks the archive for the platform uname reports", async (server) => {
  const cases: [string, string, string][] = [
    ["Darwin", "arm64", "aarch64-apple-darwin"],
    ["Darwin", "x86_64", "x86_64-apple-darwin"],
    ["Linux", "aarch64", "aarch64-unknown-linux-gnu"],
    ["Linux", "amd64", "x86_64-unknown-linux-gnu"],
  ];
  for (const [os, arch, target] of cases) {
    const dir = await tempDir({ prefix: "poly-install-dir-" });
    await install(
      { POLY_DOWNLOAD_BASE: `${server.base}/good`, POLY_INSTALL_DIR: dir, POLY_VERSION: "0.1.0" },
      await fakePlatform(os, arch),
    );
    ok(
      server.requests.includes(`/good/v0.1.0/poly-${target}.tar.gz`),
      `${os} ${arch} → ${target}: ${server.requests.join(", ")}`,
    );
  }
});

serverTest("install.sh refuses platforms without a build, before downloading anything", async (server) => {
  const cases: [string, string, boolean, RegExp][] = [
    ["Linux", "x86_64", true, /built for glibc Linux; this system uses musl libc/],
    ["MINGW64_NT-10.0", "x86_64", false, /on Windows, use install\.ps1/],
    ["Linux", "riscv64", false, /no poly build for the riscv64 architecture/],
    ["SunOS", "x86_64", false, /no poly build for SunOS/],
  ];
  for (const [os, arch, musl, reason] of cases) {
    const dir = await withPrevious();
    const run = await install(
      { POLY_DOWNLOAD_BASE: `${server.base}/good`, POLY_INSTALL_DIR: dir },
      await fakePlatform(os, arch, musl),
    );
    equal(run.code, 1, run.stderr);
    match(run.stderr, reason);
    deepEqual(await entries(dir), ["poly"]);
  }
  deepEqual(server.requests, [], "nothing was downloaded");
});
