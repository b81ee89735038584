import assert from "node:assert/strict";
import { join } from "node:path";
import { polyCommand, runPoly } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";

async function project(): Promise<string> {
  const dir = await tempDir({ prefix: "poly-timing-" });
  await Deno.mkdir(join(dir, ".git"));
  await Deno.writeTextFile(join(dir, "a.ts"), "export const a = 1;\n");
  return dir;
}

Deno.test("POLY_DEBUG=timing makes poly lint print where its wall time went on stderr", async () => {
  const dir = await project();
  const run = await runPoly(["lint", "--no-workspace", "--format", "json", "."], {
    cwd: dir,
    env: { POLY_DEBUG: "timing" },
  });
  assert.equal(run.code, 0, run.stderr);
  JSON.parse(run.stdout); // stdout stays one document
  assert.match(run.stderr, /^poly timing \(ms since the process's clock started\):$/m);
  for (const name of ["main", "command line", "config", "discovery", "plan", "files", "report", "exit"]) {
    assert.match(run.stderr, new RegExp(`^  ${name} +[\\d.]+`, "m"), `no "${name}" row in:\n${run.stderr}`);
  }
  // The last row: the CPU of poly's own process (its engines' processes apart), after the exit row.
  const cpu = /^ {2}exit +[\d.]+\n {2}cpu +([\d.]+) ms of this process \(user ([\d.]+), system ([\d.]+);/m.exec(
    run.stderr,
  );
  assert.ok(cpu, `no cpu row after the exit row in:\n${run.stderr}`);
  assert.ok(Number(cpu[1]) > 0, cpu[0]);
  assert.ok(Math.abs(Number(cpu[2]) + Number(cpu[3]) - Number(cpu[1])) < 0.2, cpu[0]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("poly lint prints no timing table without POLY_DEBUG=timing", async () => {
  const dir = await project();
  const run = await runPoly(["lint", "--no-workspace", "--format", "json", "."], { cwd: dir, env: { POLY_DEBUG: "" } });
  assert.equal(run.code, 0, run.stderr);
  assert.doesNotMatch(run.stderr, /poly timing/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a poly daemon under POLY_DEBUG=timing sends each run's own spans to its client", async () => {
  const base = await Deno.realPath(await tempDir({ prefix: "poly-timing-daemon-" }));
  const root = join(base, "repo");
  await Deno.mkdir(join(root, ".git"), { recursive: true });
  await Deno.writeTextFile(join(root, "a.ts"), "export const a = 1;\n");
  const env = {
    NO_COLOR: "1",
    POLY_CACHE_HOME: join(base, "cache"),
    POLY_STATE_HOME: join(base, "state"),
    POLY_DEBUG: "timing",
  };
  const [exe, ...rest] = polyCommand();
  const poly = async (args: string[]) => {
    const out = await new Deno.Command(exe, { args: [...rest, ...args], cwd: root, env }).output();
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  };
  const daemon = new Deno.Command(exe, {
    args: [...rest, "daemon", "run", root],
    cwd: base,
    env,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    for (let i = 0; i < 400; i++) {
      const status = await poly(["daemon", "status", "--format", "json"]);
      if (JSON.parse(status.stdout).daemons.length > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const label of ["first run", "second run"]) {
      const run = await poly(["lint", "--no-workspace", "--format", "json"]);
      assert.equal(run.code, 0, run.stderr);
      JSON.parse(run.stdout);
      const table = run.stderr.split(/^(?=poly )/m).find((t) => t.startsWith("poly daemon timing"));
      assert.ok(table, `${label}: no daemon table in:\n${run.stderr}`);
      for (const name of ["daemon request", "daemon sync", "main", "files", "report", "cpu"]) {
        assert.match(table, new RegExp(`^  ${name} +[\\d.]+`, "m"), `${label}: no "${name}" row in:\n${table}`);
      }
      // Each request's table is its own: one "main" row, counted once.
      assert.doesNotMatch(table, /^ {2}main .*×/m, table);
      assert.match(run.stderr, /^poly timing \(/m, "the client's own table follows");
    }
  } finally {
    daemon.kill("SIGTERM");
    await daemon.status;
    await Deno.remove(base, { recursive: true });
  }
});
