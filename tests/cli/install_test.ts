/**
 * `deno task install`: a `poly` command on PATH that runs this checkout with the
 * program's permission set, from any folder, on that folder. Installed into a
 * temporary root (`--root`), then run from elsewhere as a user would.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyFixture, DENO_JSON, isolatedHomes, REPO } from "../_helpers/cli.ts";
import { installRoot, launchers } from "../../scripts/install.ts";
import { tempDir } from "../_helpers/temp.ts";

/** `text` as a regular expression that matches it literally. */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

async function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const out = await new Deno.Command(cmd, { args, cwd, env, stdin: "null", stdout: "piped", stderr: "piped" })
    .output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("deno task install: an installed poly runs from any folder, from its bundle, and lints the folder it is run in", async () => {
  const root = await tempDir({ prefix: "poly-install-root-" });
  const elsewhere = await tempDir({ prefix: "poly-install-cwd-" });
  // The bundle goes to a folder of the test's (the suite's other runs stay on the checkout's own).
  const bundles = await tempDir({ prefix: "poly-install-bundles-" });
  const installed = await run(
    Deno.execPath(),
    ["task", "-q", "--config", DENO_JSON, "install", "--root", root],
    elsewhere,
    { POLY_BUNDLE_DIR: bundles },
  );
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(
    installed.stdout,
    new RegExp(`\nBundled the program into ${escaped(bundles)}/`),
  );
  const bin = join(root, "bin");
  assert.match(installed.stdout, new RegExp(`Installed poly from ${escaped(REPO)}`));
  assert.ok(((await Deno.stat(join(bin, "poly"))).mode ?? 0) & 0o100, "bin/poly is executable");

  const env = {
    ...await isolatedHomes(),
    NO_COLOR: "1",
    PATH: `${bin}:${Deno.env.get("PATH")}`,
    POLY_BUNDLE_DIR: bundles,
    POLY_DEBUG: "launch",
  };
  const version = await run("poly", ["--version"], elsewhere, env);
  assert.equal(version.code, 0, version.stderr);
  assert.match(version.stdout, /^poly \d+\.\d+\.\d+ /);

  const dir = await copyFixture("e2e/findings");
  const lint = await run("poly", ["lint", "--no-workspace", "--no-cache", "--format", "json"], dir, env);
  assert.equal(lint.code, 1, lint.stderr);
  assert.match(
    lint.stderr,
    new RegExp(`^poly: the program runs from ${escaped(bundles)}/`),
  );
  const report = JSON.parse(lint.stdout);
  assert.deepEqual(report.results.map((r: { path: string }) => r.path).sort(), ["bad.py", "bad.ts"]);
  assert.equal(report.summary.checked, 3, "the three files of the fixture, not poly's own tree");
});

Deno.test("deno task install: installing again replaces the command; a bad option is a usage error", async () => {
  const root = await tempDir({ prefix: "poly-install-root-" });
  const bundles = await tempDir({ prefix: "poly-install-bundles-" });
  for (let i = 0; i < 2; i++) {
    const again = await run(Deno.execPath(), ["task", "-q", "--config", DENO_JSON, "install", "--root", root], REPO, {
      POLY_BUNDLE_DIR: bundles,
    });
    assert.equal(again.code, 0, again.stderr);
  }
  assert.deepEqual([...Deno.readDirSync(join(root, "bin"))].map((e) => e.name), ["poly"], "no temporary file left");
  const bad = await run(Deno.execPath(), ["task", "-q", "--config", DENO_JSON, "install", "--rot", root], REPO);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^error: Unknown option "--rot": use --root DIR/);
});

Deno.test("launchers() quotes every argument for sh, so a checkout path with spaces or quotes still runs", () => {
  const { poly } = launchers(["/opt/my deno/deno", "run", "/home/o'neil/poly/main.ts"], "linux");
  assert.match(poly, /^#!\/bin\/sh\n# poly from the source checkout /);
  assert.ok(poly.endsWith(`exec '/opt/my deno/deno' 'run' '/home/o'\\''neil/poly/main.ts' "$@"\n`), poly);
});

Deno.test("installRoot(): --root wins, then DENO_INSTALL_ROOT, then ~/.deno", () => {
  const env = (values: Record<string, string>) => (name: string) => values[name];
  assert.equal(installRoot(["--root", "/r"], env({ DENO_INSTALL_ROOT: "/d", HOME: "/h" })), "/r");
  assert.equal(installRoot(["--root=/r"], env({})), "/r");
  assert.equal(installRoot([], env({ DENO_INSTALL_ROOT: "/d", HOME: "/h" })), "/d");
  assert.equal(installRoot([], env({ HOME: "/h" })), join("/h", ".deno"));
  assert.throws(() => installRoot(["--root"], env({})), /--root needs a folder/);
});
