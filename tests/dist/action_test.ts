/**
 * action.yml's bash steps run as the runner would run them (bash, the step's
 * env, GITHUB_OUTPUT / GITHUB_PATH files): version choice, installing through
 * install.sh from a fake release, recording lint's exit code and SARIF without
 * failing the step, and the final exit-code contract. A fake `poly` stands in
 * for the program so each exit code can be produced.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { REPO } from "../_helpers/cli.ts";
import { startReleaseServer, versionLine } from "./_release_server.ts";
import { tempDir } from "../_helpers/temp.ts";

interface Step {
  id?: string;
  run?: string;
  env?: Record<string, string>;
}

const action = parse(await Deno.readTextFile(join(REPO, "action.yml"))) as { runs: { steps: Step[] } };

function step(id: string): Step {
  const s = action.runs.steps.find((x) => x.id === id);
  if (!s?.run) throw new Error(`no run step ${id}`);
  return s;
}

interface StepRun {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  path: string[];
}

/** Runs a step's script with `bash -e {0}` semantics (what `shell: bash` means) and the given env. */
async function runStep(id: string, env: Record<string, string>, extraPath: string[] = []): Promise<StepRun> {
  const dir = await tempDir({ prefix: "poly-action-step-" });
  try {
    const script = join(dir, "step.sh");
    await Deno.writeTextFile(script, step(id).run!);
    const outputs = join(dir, "output");
    const githubPath = join(dir, "path");
    await Deno.writeTextFile(outputs, "");
    await Deno.writeTextFile(githubPath, "");
    const out = await new Deno.Command("bash", {
      args: ["--noprofile", "--norc", "-eo", "pipefail", script],
      cwd: env.CWD ?? dir,
      env: {
        PATH: [...extraPath, Deno.env.get("PATH") ?? "/usr/bin:/bin"].join(":"),
        HOME: dir,
        GITHUB_OUTPUT: outputs,
        GITHUB_PATH: githubPath,
        GITHUB_ACTION_PATH: REPO,
        RUNNER_TEMP: dir,
        ...env,
      },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(30_000),
    }).output();
    const dec = new TextDecoder();
    const kv = Object.fromEntries(
      (await Deno.readTextFile(outputs)).split("\n").filter((l) => l.includes("=")).map((
        l,
      ) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
    return {
      code: out.code,
      stdout: dec.decode(out.stdout),
      stderr: dec.decode(out.stderr),
      outputs: kv,
      path: (await Deno.readTextFile(githubPath)).split("\n").filter((l) => l !== ""),
    };
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** A directory with a fake `poly` that prints SARIF, records its arguments and exits `code`. */
async function fakePolyDir(code: number): Promise<{ dir: string; argsFile: string }> {
  const dir = await tempDir({ prefix: "poly-action-bin-" });
  const argsFile = join(dir, "args");
  await Deno.writeTextFile(
    join(dir, "poly"),
    `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done >> '${argsFile}'\necho '{"version":"2.1.0","runs":[]}'\nexit ${code}\n`,
    { mode: 0o755 },
  );
  return { dir, argsFile };
}

Deno.test("action: the version is the input, else the action's release tag, else latest with a warning", async () => {
  equal((await runStep("version", { INPUT_VERSION: "0.3.1", ACTION_REF: "v9.9.9" })).outputs.version, "0.3.1");
  equal((await runStep("version", { INPUT_VERSION: "", ACTION_REF: "v1.2.3" })).outputs.version, "v1.2.3");
  const main = await runStep("version", { INPUT_VERSION: "", ACTION_REF: "main" });
  equal(main.code, 0);
  equal(main.outputs.version, "latest");
  match(main.stdout, /::warning title=poly::.*not a release tag/);
});

Deno.test("action: the install step installs the pinned poly with install.sh and puts it on PATH", async () => {
  const server = await startReleaseServer();
  try {
    const bin = join(await tempDir({ prefix: "poly-action-install-" }), "poly-bin");
    const run = await runStep("install", {
      POLY_VERSION: "v0.1.0",
      POLY_INSTALL_DIR: bin,
      POLY_DOWNLOAD_BASE: `${server.base}/good`,
    });
    equal(run.code, 0, run.stderr);
    equal(run.stdout.trim(), versionLine("0.1.0"));
    deepEqual(run.path, [bin]);
    ok(server.requests.includes(`/good/v0.1.0/${server.archive}`));

    const tampered = await runStep("install", {
      POLY_VERSION: "0.2.0",
      POLY_INSTALL_DIR: bin,
      POLY_DOWNLOAD_BASE: `${server.base}/tampered`,
    });
    ok(tampered.code !== 0, "a refused download fails the step");
    deepEqual(tampered.path, [], "nothing is put on PATH");
  } finally {
    await server.close();
  }
});

Deno.test("action: the lint step records exit code and SARIF without failing, whatever lint returns", async () => {
  for (const code of [0, 1, 2]) {
    const { dir, argsFile } = await fakePolyDir(code);
    const work = await tempDir({ prefix: "poly-action-work-" });
    const sarif = join(work, "poly.sarif");
    const run = await runStep("lint", { POLY_ARGS: "src  --exclude vendor/*", SARIF_FILE: sarif, CWD: work }, [dir]);
    equal(run.code, 0, `the step itself succeeds so the upload can run (lint exit ${code}): ${run.stderr}`);
    equal(run.outputs["exit-code"], String(code));
    equal(run.outputs["sarif-file"], sarif);
    equal(run.outputs["sarif-ok"], "true");
    ok((await Deno.readTextFile(sarif)).includes('"2.1.0"'));
    deepEqual(
      (await Deno.readTextFile(argsFile)).trim().split("\n"),
      ["lint", "--format", "sarif", "src", "--exclude", "vendor/*"],
      "args are split on whitespace and never globbed",
    );
  }
});

Deno.test("action: with a shard, lint and fmt run that shard and lint writes its JSON report", async () => {
  const { dir, argsFile } = await fakePolyDir(1);
  const work = await tempDir({ prefix: "poly-action-work-" });
  const report = join(work, "poly-lint.json");
  const env = { POLY_ARGS: "src", SARIF_FILE: join(work, "poly.sarif"), SHARD: "2/3", REPORT_FILE: report, CWD: work };
  const run = await runStep("lint", env, [dir]);
  equal(run.code, 0, run.stderr);
  equal(run.outputs["exit-code"], "1");
  equal(run.outputs["report-file"], report);
  equal(run.outputs["sarif-ok"], undefined, "shards upload no SARIF of their own");
  deepEqual((await Deno.readTextFile(argsFile)).trim().split("\n"), [
    "lint",
    "--shard",
    "2/3",
    "--format",
    "json",
    "src",
  ]);
  await Deno.remove(argsFile);
  const fmt = await runStep("fmt", { POLY_ARGS: "src", SHARD: "2/3" }, [dir]);
  equal(fmt.code, 0);
  deepEqual(
    (await Deno.readTextFile(argsFile)).trim().split("\n"),
    ["fmt", "--check", "--format", "github", "--shard", "2/3", "src"],
  );
});

Deno.test("action: no SARIF is uploaded when lint could not write one", async () => {
  const dir = await tempDir({ prefix: "poly-action-bin-" });
  await Deno.writeTextFile(join(dir, "poly"), "#!/bin/sh\necho crashed >&2\nexit 2\n", { mode: 0o755 });
  const work = await tempDir({ prefix: "poly-action-work-" });
  const run = await runStep("lint", { POLY_ARGS: "", SARIF_FILE: join(work, "poly.sarif"), CWD: work }, [dir]);
  equal(run.code, 0);
  equal(run.outputs["exit-code"], "2");
  equal(run.outputs["sarif-ok"], undefined);
});

Deno.test("action: the fmt step records poly fmt --check's exit code", async () => {
  const { dir, argsFile } = await fakePolyDir(1);
  const run = await runStep("fmt", { POLY_ARGS: "src" }, [dir]);
  equal(run.code, 0);
  equal(run.outputs["exit-code"], "1");
  deepEqual((await Deno.readTextFile(argsFile)).trim().split("\n"), ["fmt", "--check", "--format", "github", "src"]);
});

Deno.test("action: the last step fails per the exit-code contract (0 ok, 1 findings, 2 incomplete)", async () => {
  const last = action.runs.steps.at(-1)!;
  ok(last.run && !last.id);
  const contract = async (env: Record<string, string>) => {
    const dir = await tempDir({ prefix: "poly-action-contract-" });
    const script = join(dir, "step.sh");
    await Deno.writeTextFile(script, last.run!);
    const out = await new Deno.Command("bash", {
      args: ["--noprofile", "--norc", "-eo", "pipefail", script],
      env: { INSTALLED: "true", LINT_CODE: "0", FMT_CODE: "", FMT_ENABLED: "false", ...env },
      stdout: "piped",
    }).output();
    await Deno.remove(dir, { recursive: true });
    return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
  };
  equal((await contract({ LINT_CODE: "0" })).code, 0);
  const findings = await contract({ LINT_CODE: "1" });
  equal(findings.code, 1);
  match(findings.stdout, /::error title=poly::poly lint found error-severity findings/);
  const incomplete = await contract({ LINT_CODE: "2" });
  equal(incomplete.code, 2);
  match(incomplete.stdout, /verified less than it claims/);
  equal((await contract({ LINT_CODE: "1", FMT_ENABLED: "true", FMT_CODE: "2" })).code, 2, "the worse code wins");
  equal((await contract({ LINT_CODE: "0", FMT_ENABLED: "true", FMT_CODE: "1" })).code, 1, "fmt drift fails");
  equal((await contract({ LINT_CODE: "0", FMT_ENABLED: "false", FMT_CODE: "1" })).code, 0, "fmt off: ignored");
  equal((await contract({ LINT_CODE: "" })).code, 2, "lint did not run");
  equal((await contract({ INSTALLED: "false", LINT_CODE: "" })).code, 2, "poly was not installed");
  equal((await contract({ LINT_CODE: "101" })).code, 2, "a crash");
});

Deno.test("action: the cache is named by the OS, poly's build, the folder and the shard, and bounded in size", async () => {
  const dir = await tempDir({ prefix: "poly-action-bin-" });
  await Deno.writeTextFile(join(dir, "poly"), "#!/bin/sh\necho 'poly 0.1.0 (abc123, stable)'\n", { mode: 0o755 });
  const named = await runStep("cache-key", { RUNNER_OS: "Linux", SHARD: "2/3", WORKDIR: "packages/web" }, [dir]);
  equal(named.code, 0, named.stderr);
  equal(named.outputs.prefix, "poly-Linux-poly_0.1.0__abc123__stable_-packages_web-2_3-");
  const whole = await runStep("cache-key", { RUNNER_OS: "macOS", SHARD: "", WORKDIR: "." }, [dir]);
  equal(whole.outputs.prefix, "poly-macOS-poly_0.1.0__abc123__stable_-.-all-");
  // The restore step, and both poly steps, use the one folder.
  const steps = action.runs.steps as (Step & { uses?: string; with?: Record<string, string>; if?: string })[];
  const restore = steps.find((s) => s.uses?.startsWith("actions/cache@"))!;
  equal(restore.with!.path, "${{ runner.temp }}/poly-cache");
  equal(restore.with!["restore-keys"], "${{ steps.cache-key.outputs.prefix }}");
  ok(restore.with!.key.startsWith("${{ steps.cache-key.outputs.prefix }}"));
  for (const id of ["lint", "fmt", "cache-bound"]) equal(step(id).env!.POLY_CACHE_HOME, restore.with!.path, id);

  const home = join(await tempDir({ prefix: "poly-action-home-" }), "poly-cache");
  await Deno.mkdir(home);
  await Deno.writeFile(join(home, "cache.db"), new Uint8Array(3 << 20));
  const kept = await runStep("cache-bound", { POLY_CACHE_HOME: home, LIMIT_MB: "8" });
  equal(kept.code, 0, kept.stderr);
  ok(await Deno.stat(home).then(() => true, () => false), "a home under the limit is kept");
  const dropped = await runStep("cache-bound", { POLY_CACHE_HOME: home, LIMIT_MB: "1" });
  equal(dropped.code, 0, dropped.stderr);
  match(dropped.stdout, /::notice title=poly::the cache home had grown to [34] MB \(limit 1 MB\)/);
  ok(!(await Deno.stat(home).then(() => true, () => false)), "a home past the limit starts over");
  equal((await runStep("cache-bound", { POLY_CACHE_HOME: home, LIMIT_MB: "1" })).code, 0, "no home: nothing to do");
});
