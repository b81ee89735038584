/**
 * `poly config show|init|update` as users run them: the real CLI with the
 * program's permission flags, output checked against golden files.
 */
import { join } from "node:path";
import { deepEqual, equal, match, notEqual } from "node:assert/strict";
import { assertGolden, copyFixture, REPO, runPoly, runPolyWithin } from "../_helpers/cli.ts";
import { STARTER_CONFIG } from "../../lib/config/mod.ts";
import { tempDir } from "../_helpers/temp.ts";

const GOLDEN = join(REPO, "tests", "config", "golden");

async function cascadeFixture(): Promise<string> {
  const dir = await copyFixture(join("config", "valid", "cascade"));
  await Deno.mkdir(join(dir, ".git"));
  return dir;
}

Deno.test("poly config show prints the merged config as TOML with hash and sources (golden)", async () => {
  const dir = await cascadeFixture();
  const run = await runPoly(["config", "show", "pkg/sub"], { cwd: dir });
  equal(run.stderr, "");
  equal(run.code, 0);
  await assertGolden(join(GOLDEN, "show.toml"), run.stdout);
});

Deno.test("poly config show --format json prints the same config as a JSON document (golden)", async () => {
  const dir = await cascadeFixture();
  const run = await runPoly(["config", "show", "--format", "json"], { cwd: join(dir, "pkg") });
  equal(run.code, 0);
  await assertGolden(join(GOLDEN, "show.json"), run.stdout);
  const toml = await Deno.readTextFile(join(GOLDEN, "show.toml"));
  equal(JSON.parse(run.stdout).hash, /# hash: (\S+)/.exec(toml)?.[1], "pkg and pkg/sub share one config and hash");
});

Deno.test("poly config show --config uses exactly that file", async () => {
  const dir = await cascadeFixture();
  const run = await runPoly(["config", "show", "--format", "json", "--config", "shared/base.toml", "pkg"], {
    cwd: dir,
  });
  equal(run.code, 0, run.stderr);
  const doc = JSON.parse(run.stdout);
  equal(JSON.stringify(doc.sources), JSON.stringify(["shared/base.toml"]));
  equal(doc.config.defaults.line_length, 120);
  equal(doc.config.defaults.indent_width, 4);
});

Deno.test("poly config show refuses a directory that does not exist", async () => {
  const dir = await cascadeFixture();
  const run = await runPoly(["config", "show", "nope"], { cwd: dir });
  equal(run.code, 2);
  equal(run.stderr, 'error: Directory "nope" does not exist: pass an existing directory\n');
});

Deno.test("poly config init writes the commented starter poly.toml, and refuses to overwrite without --force", async () => {
  const dir = await tempDir({ prefix: "poly-config-init-" });
  const first = await runPoly(["config", "init"], { cwd: dir });
  equal(first.code, 0, first.stderr);
  equal(first.stderr, "Wrote poly.toml\n");
  const written = await Deno.readTextFile(join(dir, "poly.toml"));
  equal(written, STARTER_CONFIG);
  await assertGolden(join(GOLDEN, "init.toml"), written);

  await Deno.writeTextFile(join(dir, "poly.toml"), "# mine\n");
  const again = await runPoly(["config", "init"], { cwd: dir });
  equal(again.code, 2);
  equal(again.stderr, 'error: "poly.toml" already exists in this directory: pass --force to overwrite it\n');
  equal(await Deno.readTextFile(join(dir, "poly.toml")), "# mine\n", "the existing file is untouched");

  const forced = await runPoly(["config", "init", "--force"], { cwd: dir });
  equal(forced.code, 0);
  equal(await Deno.readTextFile(join(dir, "poly.toml")), STARTER_CONFIG);
  const entries = [...Deno.readDirSync(dir)].map((e) => e.name);
  equal(JSON.stringify(entries), JSON.stringify(["poly.toml"]), "no temporary file is left behind");
});

// ---- git extends bases: `poly config update` pins, `poly config show` reads the pin offline ----

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=poly-test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false", ...args],
    cwd,
    stdin: "null",
  }).output();
  if (!out.success) throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout).trim();
}

async function styleRepo(): Promise<string> {
  const repo = await tempDir({ prefix: "poly-style-repo-" });
  await git(repo, "init", "-q", "-b", "main");
  await Deno.writeTextFile(join(repo, "poly.toml"), "[defaults]\nline_length = 72\n");
  await Deno.mkdir(join(repo, "strict"));
  await Deno.writeTextFile(join(repo, "strict", "poly.toml"), 'extends = ["../poly.toml"]\n[cache]\nenabled = false\n');
  await git(repo, "add", ".");
  await git(repo, "commit", "-q", "-m", "style");
  await git(repo, "tag", "v1");
  return repo;
}

Deno.test("poly config update pins git bases in poly-config.lock; show reads them offline", async () => {
  const style = await styleRepo();
  const v1 = await git(style, "rev-parse", "HEAD");
  const project = await tempDir({ prefix: "poly-config-project-" });
  await Deno.mkdir(join(project, ".git"));
  await Deno.writeTextFile(
    join(project, "poly.toml"),
    `extends = [{ git = "${style}", revision = "main", file = "strict/poly.toml" }]\n[defaults]\nindent_width = 2\n`,
  );
  const home = await tempDir({ prefix: "poly-config-home-" });
  const env = { POLY_CACHE_HOME: join(home, "cache") };

  const update = await runPoly(["config", "update"], { cwd: project, env });
  equal(update.code, 0, update.stderr);
  equal(update.stderr, `Pinned "${style}" (revision "main") at ${v1.slice(0, 12)}\nWrote poly-config.lock\n`);
  const lock = await Deno.readTextFile(join(project, "poly-config.lock"));
  match(lock, new RegExp(`commit = "${v1}"`));

  const show = await runPoly(["config", "show", "--format", "json"], { cwd: project, env });
  equal(show.code, 0, show.stderr);
  const doc = JSON.parse(show.stdout);
  equal(doc.config.defaults.line_length, 72, "the git base's own extends applies");
  equal(doc.config.cache.enabled, false);
  equal(doc.config.defaults.indent_width, 2);
  equal(doc.sources.length, 3);

  // The branch moves: reading config still uses the pinned commit, until the next update.
  await Deno.writeTextFile(join(style, "poly.toml"), "[defaults]\nline_length = 64\n");
  await git(style, "commit", "-q", "-am", "narrower");
  const v2 = await git(style, "rev-parse", "HEAD");
  const pinned = await runPoly(["config", "show", "--format", "json"], { cwd: project, env });
  equal(JSON.parse(pinned.stdout).config.defaults.line_length, 72);

  const again = await runPoly(["config", "update"], { cwd: project, env });
  equal(again.code, 0, again.stderr);
  match(await Deno.readTextFile(join(project, "poly-config.lock")), new RegExp(`commit = "${v2}"`));
  const moved = await runPoly(["config", "show", "--format", "json"], { cwd: project, env });
  equal(JSON.parse(moved.stdout).config.defaults.line_length, 64);
  notEqual(JSON.parse(moved.stdout).hash, doc.hash, "a moved base changes the fingerprint");

  // The cache is cleared: show asks for an update instead of fetching.
  await Deno.remove(join(home, "cache"), { recursive: true });
  const cleared = await runPoly(["config", "show"], { cwd: project, env });
  equal(cleared.code, 2);
  match(cleared.stderr, /is not in the cache: run "poly config update"/);
});

Deno.test("poly config update reports a revision that does not exist at its extends entry", async () => {
  const style = await styleRepo();
  const project = await tempDir({ prefix: "poly-config-project-" });
  await Deno.mkdir(join(project, ".git"));
  await Deno.writeTextFile(join(project, "poly.toml"), `extends = [{ git = "${style}", revision = "v9" }]\n`);
  const run = await runPoly(["config", "update"], { cwd: project });
  equal(run.code, 2);
  equal(
    run.stderr.split("\n")[0],
    `error: poly.toml:1:12: cannot fetch git base "${style}": revision "v9" not found`,
  );
});

Deno.test("poly config update without git bases says so and writes nothing", async () => {
  const dir = await cascadeFixture();
  const run = await runPoly(["config", "update"], { cwd: dir });
  equal(run.code, 0);
  equal(run.stderr, "No git extends bases to update\n");
  equal(await Deno.stat(join(dir, "poly-config.lock")).then(() => true, () => false), false);
});

Deno.test({
  name: "poly lint with 100,000 [per-file-ignores] entries loads and lints a few files, the ignores applied",
  fn: async () => {
    const dir = await tempDir({ prefix: "poly-pfi-" });
    await Deno.mkdir(join(dir, ".git"));
    const lines = ["[per-file-ignores]"];
    for (let i = 0; i < 100_000; i++) {
      if (i % 4 === 0) lines.push(`"src/pkg${i}/**/*.py" = ["F401", "E741"]`);
      else if (i % 4 === 1) lines.push(`"tests/test_${i}.py" = ["S101"]`);
      else if (i % 4 === 2) lines.push(`"gen/mod${i}/*.py" = ["E${i % 900 + 100}"]`);
      else lines.push(`"file_${i}.py" = ["F"]`);
    }
    await Deno.writeTextFile(join(dir, "poly.toml"), lines.join("\n") + "\n");
    const files: Record<string, string> = {
      "src/pkg4/a/x.py": "import os\n", // "src/pkg4/**/*.py": F401 silenced
      "src/pkg5/x.py": "import os\n", // no entry for pkg5
      "deep/dir/file_7.py": "import os\n", // "file_7.py" (no slash: any depth): F silenced
      "keep.py": "import sys\n",
    };
    for (const [rel, text] of Object.entries(files)) {
      await Deno.mkdir(join(dir, rel, ".."), { recursive: true });
      await Deno.writeTextFile(join(dir, rel), text);
    }
    const run = await runPolyWithin(60_000, ["lint", "--format", "json", "--no-workspace", "."], { cwd: dir });
    equal(run.timedOut, false, `poly lint still running after 60 s (${run.ms} ms)`);
    const report = JSON.parse(run.stdout) as { results: { path: string; diagnostics?: { code: string }[] }[] };
    // Clean files (the two silenced) have no diagnostics.
    const codes = Object.fromEntries(
      report.results.filter((r) => r.diagnostics?.length)
        .map((r) => [r.path, r.diagnostics!.map((d) => d.code.replace(/^.*\//, ""))]),
    );
    deepEqual(codes, { "keep.py": ["F401"], "src/pkg5/x.py": ["F401"] });
  },
});
