/**
 * The pre-commit check end to end, in a temporary repository with the hook
 * installed and the real poly (from source) behind POLY_BIN: it reads the STAGED
 * content, so a fix left unstaged does not unblock a commit.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { polyCommand } from "../_helpers/cli.ts";
import { exportSet, gate, installGitHooks } from "../../lib/hooks/mod.ts";
import type { Report } from "../../lib/report/schema.ts";
import { git, tempRepo, write } from "./_repo.ts";
import { tempDir } from "../_helpers/temp.ts";

const POLY_BIN = polyCommand().join(" ");
const BAD_PY = "import os\nx=1\n";
const GOOD_PY = "x = 1\n";

async function isolatedEnv(): Promise<Record<string, string>> {
  const base = await tempDir({ prefix: "poly-pre-commit-home-" });
  return { POLY_BIN, POLY_CACHE_HOME: `${base}/cache`, POLY_STATE_HOME: `${base}/state`, NO_COLOR: "1" };
}

Deno.test("pre-commit: a staged bad file blocks; an unstaged fix does not unblock; staging it does", async () => {
  const repo = await tempRepo();
  const env = await isolatedEnv();
  try {
    await installGitHooks({ cwd: repo.dir });
    await write(repo.dir, "app.py", BAD_PY);
    await git(repo.dir, ["add", "app.py"]);

    const first = await git(repo.dir, ["commit", "-qm", "bad"], env);
    equal(first.code, 1, first.stderr);
    ok(first.stderr.includes("commit blocked"), first.stderr);
    ok(first.stderr.includes("F401"), "the lint report is printed");
    ok(first.stderr.includes("app.py"), first.stderr);

    await write(repo.dir, "app.py", GOOD_PY); // fixed in the working tree, not staged
    const second = await git(repo.dir, ["commit", "-qm", "bad"], env);
    equal(second.code, 1, "the unstaged fix must not unblock the commit");
    ok(second.stderr.includes("import os"), "the report shows the staged content, not the working tree");

    await git(repo.dir, ["add", "app.py"]);
    const third = await git(repo.dir, ["commit", "-qm", "good"], env);
    equal(third.code, 0, third.stderr);
    ok(third.stderr.includes("1 staged file(s) checked"), third.stderr);
    equal((await git(repo.dir, ["log", "--format=%s"])).stdout.trim(), "good");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("pre-commit: the staged content and the staged poly.toml decide, not the working tree", async () => {
  const repo = await tempRepo();
  const env = await isolatedEnv();
  try {
    await installGitHooks({ cwd: repo.dir });
    await write(repo.dir, "poly.toml", '[lint.python.ruff]\nignore = ["F401"]\n');
    await write(repo.dir, "lib/uses_os.py", "import os\n\nx = 1\n"); // F401, ignored by the staged config
    await write(repo.dir, "lib/util.py", GOOD_PY);
    await write(repo.dir, "notes.zig", "const x = 1;\n");
    await git(repo.dir, ["add", "."]);
    await write(repo.dir, "poly.toml", ""); // unstaged: would re-enable F401
    await write(repo.dir, "lib/util.py", BAD_PY); // unstaged breakage
    const r = await git(repo.dir, ["commit", "-qm", "ok"], env);
    equal(r.code, 0, r.stderr);
    ok(/skipped/.test(r.stderr), `a file with no engine is reported as skipped, not blocked: ${r.stderr}`);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("poly hooks run pre-commit with nothing staged exits 0", async () => {
  const repo = await tempRepo();
  try {
    const out = await new Deno.Command(polyCommand()[0], {
      args: [...polyCommand().slice(1), "hooks", "run", "pre-commit"],
      cwd: repo.dir,
      env: await isolatedEnv(),
      stdout: "piped",
      stderr: "piped",
    }).output();
    equal(out.code, 0, new TextDecoder().decode(out.stderr));
  } finally {
    await repo.cleanup();
  }
});

Deno.test("exportSet() takes staged files and configuration, never submodules", () => {
  const index = [
    { mode: "100644", path: "a.py" },
    { mode: "100644", path: "b.py" },
    { mode: "100644", path: "poly.toml" },
    { mode: "100644", path: "sub/poly.local.toml" },
    { mode: "100644", path: ".gitignore" },
    { mode: "100644", path: ".poly/rules/no-print.yml" },
    { mode: "100644", path: "poly-config.lock" },
    { mode: "160000", path: "vendor/lib" },
    { mode: "100644", path: "README.md" },
  ];
  deepEqual(exportSet(index, ["a.py", "vendor/lib"], false), [
    ".gitignore",
    ".poly/rules/no-print.yml",
    "a.py",
    "poly-config.lock",
    "poly.toml",
    "sub/poly.local.toml",
  ]);
  equal(exportSet(index, ["a.py"], true).length, 8);
});

function report(kind: "lint" | "fmt", parts: Partial<Report>): Report {
  return {
    kind,
    mode: "check",
    results: [],
    errors: [],
    skipped: [],
    summary: { checked: 1, skipped: 0, errored: 0 },
    configs: [],
    poly: { version: "0", build_id: "dev", channel: "dev", executable: "x", pid: 1, engines_digest: "", engines: {} },
    ...parts,
  };
}

Deno.test("gate() blocks on errors, error findings and drift; not on warnings or skips", () => {
  const clean = report("fmt", {});
  equal(gate(report("lint", {}), clean).code, 0);
  const warning = { engine: "ruff", severity: "warning" as const, title: "w" };
  equal(gate(report("lint", { results: [{ path: "a.py", diagnostics: [warning] }] }), clean).code, 0);
  const skippedOnly = report("lint", {
    summary: { checked: 0, skipped: 1, errored: 0 },
    skipped: [{ path: "a.zig", reason: "no engine" }],
  });
  equal(gate(skippedOnly, clean).code, 0);
  const error = { engine: "ruff", severity: "error" as const, title: "e" };
  equal(gate(report("lint", { results: [{ path: "a.py", diagnostics: [error] }] }), clean).code, 1);
  equal(gate(report("lint", {}), report("fmt", { results: [{ path: "a.py", changed: true }] })).code, 1);
  const errored = report("lint", {
    errors: [{ path: "a.py", message: "crash" }],
    results: [{ path: "a.py", error: "crash" }],
  });
  deepEqual(gate(errored, clean), { code: 2, reason: "1 file(s) could not be checked" });
});
