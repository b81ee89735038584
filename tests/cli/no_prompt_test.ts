/**
 * poly never prompts for a permission: every `deno` command its tasks, build and
 * tests run passes `--no-prompt`, and every environment variable its source reads
 * is in deno.json's `permissions.default.env` allow-list. A read outside it stops
 * `deno run` at a permission prompt on a terminal (9 of them in a Rust repository),
 * and under `--no-prompt` reads as unset.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyFixture, DENO_JSON, polyCommand, REPO, runPoly } from "../_helpers/cli.ts";
import { allowedBy, scanEnvReads } from "./_env_scan.ts";
import { compileArgs } from "../../scripts/compile.ts";
import { tempDir } from "../_helpers/temp.ts";

async function allowList(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(DENO_JSON));
  return config.permissions.default.env;
}

Deno.test("every environment variable poly's source reads is in deno.json's env allow-list", async () => {
  const [list, scan] = await Promise.all([allowList(), scanEnvReads(REPO)]);
  assert.deepEqual(
    scan.unreviewed.map((r) => `${r.file}:${r.line}`),
    [],
    "Deno.env.get(<expression>) in a file not reviewed: add it to DYNAMIC_READERS in tests/cli/_env_scan.ts",
  );
  const outside = scan.reads.filter((r) => !allowedBy(list, r.name)).map((r) => `${r.name} (${r.file}:${r.line})`);
  assert.deepEqual(outside, [], "read but not in permissions.default.env of deno.json");
});

Deno.test("scanEnvReads() finds each form of read: literal calls, reader calls, name lists and constants", async () => {
  const names = new Set((await scanEnvReads(REPO)).reads.map((r) => r.name));
  for (
    const name of [
      "NO_COLOR", // Deno.env.get("NO_COLOR")
      "CARGO_HOME", // env("CARGO_HOME")
      "RUSTFLAGS", // ENV_KEYS
      "POLY_CACHE_HOME", // RELEVANT_ENV and env("POLY_CACHE_HOME")
      "https_proxy", // PASSTHROUGH_ENV
      "OPENAI_API_KEY", // an adapter's authEnv
      "POLY_GATEWAY_PROFILE", // PROFILE_ENV
      "TEMP", // read("TEMP")
    ]
  ) assert.ok(names.has(name), `${name} not found`);
});

Deno.test("allowedBy() matches names exactly, and a trailing * as a prefix", () => {
  const list = ["POLY_*", "PATH"];
  assert.equal(allowedBy(list, "POLY_DEBUG"), true);
  assert.equal(allowedBy(list, "PATH"), true);
  assert.equal(allowedBy(list, "PATHEXT"), false);
  assert.equal(allowedBy(list, "POLY"), false);
  assert.equal(allowedBy(list, "RUSTFLAGS"), false);
});

Deno.test("poly lint in a Rust and Go repository, under --no-prompt, reads no variable outside the allow-list", async () => {
  assert.ok(polyCommand().includes("--no-prompt"), "the helpers start poly with --no-prompt");
  const dir = await copyFixture("workspace/mcp");
  const audit = join(await tempDir({ prefix: "poly-env-audit-" }), "audit.jsonl");
  // Deno's permission audit log: every permission check the process made, allowed or not.
  const run = await runPoly(["lint", "--no-cache"], { cwd: dir, env: { DENO_AUDIT_PERMISSIONS: audit } });
  assert.doesNotMatch(run.stderr, /NotCapable|Requires env access/);
  const asked = new Set(
    (await Deno.readTextFile(audit)).trim().split("\n").map((line) => JSON.parse(line))
      .filter((entry) => entry.permission === "env").map((entry) => String(entry.value)),
  );
  for (const name of ["PATH", "RUSTFLAGS", "GOFLAGS"]) {
    assert.ok(asked.has(name), `${name} was not read: ${[...asked]}`);
  }
  const list = await allowList();
  assert.deepEqual([...asked].filter((name) => !allowedBy(list, name)).sort(), [], "read outside the allow-list");
});

Deno.test("deno.json: every task that runs deno run, test or compile passes --no-prompt, as do the build and helpers", async () => {
  const config = JSON.parse(await Deno.readTextFile(DENO_JSON));
  const commands = Object.entries(config.tasks as Record<string, string | { command: string }>)
    .map(([name, task]) => [name, typeof task === "string" ? task : task.command] as const);
  const running = commands.filter(([, command]) => /\bdeno (run|test|compile)\b/.test(command));
  assert.ok(running.length >= 4, "the tasks that run deno were found");
  for (const [name, command] of running) {
    assert.match(command, /\s--no-prompt\b/, `task "${name}": ${command}`);
    // The script a task runs is in the checkout (a task naming a file that is not there fails for everyone).
    const script = /\s(\S+\.tsx?)\b/.exec(command)?.[1];
    if (script) assert.ok(isFile(join(REPO, script)), `task "${name}" runs ${script}, which is not in the checkout`);
  }
  assert.ok(compileArgs({ target: "x86_64-unknown-linux-gnu", output: "poly" }).includes("--no-prompt"));
  assert.ok(polyCommand().includes("--no-prompt"));
});

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}
