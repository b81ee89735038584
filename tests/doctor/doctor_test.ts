/**
 * `poly doctor` checks what one repository needs: the real process on small
 * repositories, with PATH pointing where the host programs are or are not.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertGolden, REPO, runPoly } from "../_helpers/cli.ts";
import { renderDoctor } from "../../lib/doctor/mod.ts";
import { tempDir } from "../_helpers/temp.ts";
import { findExecutable } from "../../lib/fs/executable.ts";

const GOLDEN = join(REPO, "tests", "doctor", "golden");

async function repo(files: Record<string, string>): Promise<string> {
  const dir = await Deno.realPath(await tempDir({ prefix: "poly-doctor-" }));
  await Deno.mkdir(join(dir, ".git"));
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, name, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, name), text);
  }
  return dir;
}

Deno.test("poly doctor names what is missing for this repository, how to install it, exit 1, in 80 columns (golden)", async () => {
  const dir = await repo({
    "run.sh": "#!/bin/sh\necho hi\n",
    "app.py": "print(1)\n",
    "crate/Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n',
    "crate/src/main.rs": "fn main() {}\n",
  });
  const empty = await tempDir({ prefix: "poly-doctor-path-" });
  // An empty home too: cargo subcommands are also looked for in ~/.cargo/bin.
  const { code, stdout, stderr } = await runPoly(["doctor"], {
    cwd: dir,
    env: { PATH: empty, HOME: empty, CARGO_HOME: "" },
  });
  assert.equal(code, 1, stderr);
  assert.match(stdout, /^MISSING +Shell +shellcheck: shellcheck is not on PATH$/m);
  assert.match(stdout, /install: apt install shellcheck/);
  assert.match(stdout, /^MISSING +Cargo workspace crate +clippy: cargo is not on PATH$/m);
  const long = stdout.split("\n").slice(1).filter((l) => l.length > 80);
  assert.deepEqual(long, [], "fits 80 columns");
  await assertGolden(join(GOLDEN, "missing.txt"), stdout.replaceAll(dir, "<repo>"));
});

Deno.test("poly doctor exits 0 when everything the repository needs is here", async () => {
  const dir = await repo({ "app.py": "print(1)\n", "README.md": "# Hi\n" });
  const { code, stdout, stderr } = await runPoly(["doctor"], { cwd: dir });
  assert.equal(code, 0, stderr);
  assert.match(stdout, /^ok +Python +ruff: built in$/m);
  assert.match(stdout, /Everything this repository needs is here\./);
  assert.doesNotMatch(stdout, /gofmt|clang-format/, "only what this repository needs");
});

Deno.test("poly doctor --format json is the same check as a document", async () => {
  const dir = await repo({ "run.sh": "#!/bin/sh\necho hi\n" });
  const empty = await tempDir({ prefix: "poly-doctor-path-" });
  const { code, stdout } = await runPoly(["doctor", "--format", "json"], { cwd: dir, env: { PATH: empty } });
  assert.equal(code, 1);
  const doc = JSON.parse(stdout);
  assert.equal(doc.missing, 1);
  assert.deepEqual(doc.languages, [{ language: "shell", name: "Shell", files: 1 }]);
  const check = doc.checks.find((c: { tool: string }) => c.tool === "shellcheck");
  assert.equal(check.status, "missing");
  assert.match(check.install, /apt install shellcheck/);
});

Deno.test("renderDoctor() wraps long details within the width", () => {
  const text = renderDoctor({
    root: "/r",
    languages: [],
    projects: [],
    checks: [{
      for: "Cargo workspace crates/some/deep/path",
      tool: "cargo-machete",
      status: "optional",
      detail: "cargo-machete is not on PATH; a run skips this job",
      install: "cargo install cargo-machete",
    }],
    missing: 0,
  }, 60);
  assert.deepEqual(text.split("\n").filter((l) => l.length > 60), []);
});

Deno.test("poly doctor does not ask for a tool poly.toml switches off", async () => {
  const dir = await repo({
    "run.sh": "#!/bin/sh\necho hi\n",
    "poly.toml": "[tools.shellcheck]\nenabled = false\n\n[tools.clippy]\nenabled = false\n",
    "crate/Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n',
    "crate/src/main.rs": "fn main() {}\n",
  });
  const empty = await tempDir({ prefix: "poly-doctor-path-" });
  const { stdout } = await runPoly(["doctor", "--format", "json"], { cwd: dir, env: { PATH: empty } });
  const tools = JSON.parse(stdout).checks.map((c: { tool: string }) => c.tool);
  assert.equal(tools.includes("shellcheck"), false, tools.join(", "));
  assert.equal(tools.includes("clippy"), false, tools.join(", "));
  assert.equal(tools.includes("cargo-deny"), true);
});

Deno.test("poly doctor finds a cargo subcommand in ~/.cargo/bin, where cargo and poly lint's jobs find it", async () => {
  const dir = await repo({
    "crate/Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n',
    "crate/src/main.rs": "fn main() {}\n",
  });
  const path = await tempDir({ prefix: "poly-doctor-path-" });
  const home = await tempDir({ prefix: "poly-doctor-home-" });
  const script = (at: string, name: string) => {
    Deno.writeTextFileSync(join(at, name), `#!/bin/sh\necho "${name} 1.0.0"\n`);
    Deno.chmodSync(join(at, name), 0o755);
  };
  for (const name of ["cargo", "cargo-clippy", "rustfmt"]) script(path, name);
  await Deno.mkdir(join(home, ".cargo", "bin"), { recursive: true });
  script(join(home, ".cargo", "bin"), "cargo-sort");
  // cargo itself only counts on PATH: poly runs it by name.
  script(join(home, ".cargo", "bin"), "cargo-machete");
  const { stdout, stderr } = await runPoly(["doctor", "--format", "json"], {
    cwd: dir,
    env: { PATH: path, HOME: home, CARGO_HOME: "" },
  });
  const doc = JSON.parse(stdout);
  const status = (tool: string) => doc.checks.find((c: { tool: string }) => c.tool === tool)?.status;
  assert.equal(status("cargo-sort"), "ok", stderr);
  assert.equal(status("cargo-machete"), "ok");
  assert.equal(status("cargo-deny"), "optional");
  const deny = doc.checks.find((c: { tool: string }) => c.tool === "cargo-deny");
  assert.match(deny.detail, /cargo-deny is not on PATH or in \$CARGO_HOME\/bin/);
});

Deno.test("poly doctor names what the repository's ESLint needs: its dependencies installed, bubblewrap", async () => {
  const dir = await repo({ "eslint.config.js": "export default [];\n", "src/app.js": "export const a = 1;\n" });
  const { code, stdout, stderr } = await runPoly(["doctor", "--format", "json"], { cwd: dir });
  const doc = JSON.parse(stdout) as { checks: { for: string; tool: string; status: string; detail: string }[] };
  const eslint = doc.checks.find((c) => c.tool === "eslint");
  if (!findExecutable("node")) return assert.equal(eslint?.detail, "node is not on PATH");
  assert.equal(code, 1, stderr);
  assert.equal(eslint?.status, "missing");
  assert.match(
    eslint?.detail ?? "",
    findExecutable("bwrap") ? /^ESLint is not installed here/ : /^bwrap is not on PATH/,
  );
});

Deno.test("poly doctor names a language a run will not format here, and why, without calling it missing", async () => {
  const dir = await repo({ "app.py": "x = 'a'\n", ".style.yapf": "[style]\nbased_on_style = pep8\n" });
  const { code, stdout, stderr } = await runPoly(["doctor"], { cwd: dir });
  assert.equal(code, 0, stderr);
  assert.match(stdout, /^ok +Python +ruff: built in$/m);
  assert.match(stdout, /^skipped +Python +format: not formatted: the repository keeps its Python style$/m);
  const json = JSON.parse((await runPoly(["doctor", "--format", "json"], { cwd: dir })).stdout);
  assert.deepEqual(json.checks.find((c: { status: string }) => c.status === "skipped"), {
    for: "Python",
    tool: "format",
    status: "skipped",
    detail: "not formatted: the repository keeps its Python style with yapf (.style.yapf), which poly does not run; " +
      "[fmt.python.ruff] in poly.toml formats it with ruff",
  });
});
