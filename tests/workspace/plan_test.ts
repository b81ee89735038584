/**
 * Planning the whole-project phase: which projects exist, which jobs run, which
 * are skipped and why, and what each runs in check and fix mode.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { PolyConfigSchema } from "../../lib/config/schema.ts";
import type { ResolvedConfig } from "../../lib/config/types.ts";
import { findProjects } from "../../lib/workspace/projects.ts";
import { commandArgv, planJobs } from "../../lib/workspace/plan.ts";
import { tempDir } from "../_helpers/temp.ts";

async function tree(files: Record<string, string>): Promise<string> {
  const root = await tempDir({ prefix: "poly-ws-plan-" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
  return root;
}

function config(dir: string, data: unknown = {}): ResolvedConfig {
  return {
    hash: "1/0000000000000000",
    sources: [],
    dir,
    data: PolyConfigSchema.parse(data),
    excludes: [],
    perFileIgnores: [],
    rulesDirs: [],
  };
}

const everything = () => "/usr/bin/x";

Deno.test("findProjects() finds Cargo workspaces, lone packages and Go modules, skipping members and build dirs", async () => {
  const root = await tree({
    "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\n',
    "crates/a/Cargo.toml": '[package]\nname = "a"\n',
    "tools/gen/Cargo.toml": '[package]\nname = "gen"\n',
    "svc/go.mod": "module x\n",
    "node_modules/dep/go.mod": "module y\n",
    "target/debug/Cargo.toml": "[package]\n",
    ".hidden/go.mod": "module z\n",
    "vendored/thing/go.mod": "module v\n",
  });
  const projects = await findProjects(root, [{ pattern: "vendored/", base: root }]);
  assert.deepEqual(projects.map((p) => [p.kind, p.rel]), [["cargo", "."], ["go", "svc"]]);
  const lone = await tree({ "a/Cargo.toml": '[package]\nname = "a"\n', "a/b/Cargo.toml": '[package]\nname = "b"\n' });
  assert.deepEqual(
    (await findProjects(lone)).map((p) => p.rel),
    ["a", "a/b"],
    "a package does not swallow nested packages",
  );
});

Deno.test("planJobs() plans the built-in jobs per project and skips missing tools with a reason", () => {
  const root = "/work/repo";
  const jobs = planJobs({
    cwd: root,
    fix: false,
    projects: [{ kind: "cargo", dir: root, rel: "." }, { kind: "go", dir: join(root, "svc"), rel: "svc" }],
    config: config(root),
    which: (name) => (name === "cargo-deny" ? undefined : "/usr/bin/" + name),
  });
  assert.deepEqual(jobs.map((j) => [j.name, j.skip ?? "runs"]), [
    ["clippy", "runs"],
    ["cargo-sort", "runs"],
    ["cargo-machete", "runs"],
    ["cargo-deny", "cargo-deny not found on PATH"],
    ["go-vet:svc", "runs"],
  ]);
  assert.deepEqual(jobs[0].argv, ["cargo", "clippy", "--workspace", "--all-targets", "--message-format=json"]);
  assert.deepEqual(jobs[1].argv, ["cargo", "sort", "--workspace", "--check"]);
  assert.deepEqual(jobs[4].argv, ["go", "vet", "-json", "./..."]);
  assert.equal(jobs[4].dir, join(root, "svc"));
  assert.ok(jobs[0].cacheable && !jobs[3].cacheable, "cargo-deny (network advisories) is never cached");
});

Deno.test("planJobs() in fix mode runs the fixing variants and caches nothing", () => {
  const root = "/work/repo";
  const jobs = planJobs({
    cwd: root,
    fix: true,
    projects: [{ kind: "cargo", dir: root, rel: "." }],
    config: config(root),
    which: everything,
  });
  assert.deepEqual(jobs[0].argv, [
    "cargo",
    "clippy",
    "--fix",
    "--allow-dirty",
    "--allow-staged",
    "--workspace",
    "--all-targets",
    "--message-format=json",
  ]);
  assert.deepEqual(jobs[1].argv, ["cargo", "sort", "--workspace"]);
  assert.deepEqual(jobs[2].argv, ["cargo", "machete", "--fix"]);
  assert.ok(jobs.every((j) => !j.cacheable));
});

Deno.test("planJobs() honours [tools.<name>] enabled = false", () => {
  const root = "/work/repo";
  const jobs = planJobs({
    cwd: root,
    fix: false,
    projects: [{ kind: "cargo", dir: root, rel: "." }],
    config: config(root, { tools: { clippy: { enabled: false } } }),
    which: everything,
  });
  assert.equal(jobs[0].skip, "switched off by [tools.clippy] enabled = false");
});

Deno.test("planJobs() adds the inline [workspace.jobs] by name, with cwd, fix command and timeout", () => {
  const root = "/work/repo";
  const data = {
    workspace: {
      jobs: {
        typecheck: { command: "npx tsc --noEmit", cwd: "web", timeout: 30 },
        sort: { command: ["isort", "--check", "."], fix: ["isort", "."] },
        old: { command: "true", enabled: false },
      },
    },
  };
  const check = planJobs({ cwd: root, fix: false, projects: [], config: config(root, data), which: everything });
  assert.deepEqual(check.map((j) => [j.name, j.argv, j.rel, j.timeoutMs, j.skip]), [
    ["old", ["sh", "-c", "true"], ".", 600_000, "switched off by [workspace.jobs.old] enabled = false"],
    ["sort", ["isort", "--check", "."], ".", 600_000, undefined],
    ["typecheck", ["sh", "-c", "npx tsc --noEmit"], "web", 30_000, undefined],
  ]);
  const fix = planJobs({ cwd: root, fix: true, projects: [], config: config(root, data), which: everything });
  assert.deepEqual(fix.find((j) => j.name === "sort")?.argv, ["isort", "."]);
  assert.deepEqual(
    fix.find((j) => j.name === "typecheck")?.argv,
    ["sh", "-c", "npx tsc --noEmit"],
    "no fix: runs command",
  );
});

Deno.test("commandArgv() runs a string through sh -c and an argv list as is", () => {
  assert.deepEqual(commandArgv("make lint"), ["sh", "-c", "make lint"]);
  assert.deepEqual(commandArgv(["make", "lint"]), ["make", "lint"]);
});

Deno.test("[workspace.jobs] tables are validated strictly", () => {
  const ok = PolyConfigSchema.safeParse({ workspace: { jobs: { a: { command: ["x"], timeout: 5 } } } });
  assert.ok(ok.success);
  for (
    const bad of [
      { a: { command: "x", timeot: 5 } },
      { a: { command: "" } },
      { a: { command: [] } },
      { a: { cwd: "x" } },
      { "bad name": { command: "x" } },
      { a: { command: "x", timeout: -1 } },
    ]
  ) {
    assert.equal(PolyConfigSchema.safeParse({ workspace: { jobs: bad } }).success, false, JSON.stringify(bad));
  }
});
