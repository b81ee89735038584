/**
 * Host tools' processes (lib/engines/host.ts): none outlives its time limit. A hung engine is stopped and its run
 * rejects with an EngineError naming it and the limit, so its files are errored rather than the run hanging.
 */
import { equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { EXECUTABLE_DATA_KIB, HOST_TIMEOUT_MS, runExecutable, runHost } from "../../lib/engines/host.ts";
import { EngineError } from "../../lib/engines/types.ts";
import { alive, until } from "../_helpers/process.ts";
import { tempDir } from "../_helpers/temp.ts";

Deno.test("runHost() stops a tool that runs past its time limit, and says which and after how long", async () => {
  const dir = await tempDir({ prefix: "poly-host-timeout-" });
  const pidFile = join(dir, "pid");
  const started = performance.now();
  await rejects(
    runHost("sh", ["-c", `echo $$ > "${pidFile}"; exec sleep 30`], { timeoutMs: 300 }),
    (e: unknown) => e instanceof EngineError && /^sh did not finish within 0\.3 s and was stopped$/.test(e.message),
  );
  ok(performance.now() - started < 10_000, "it did not wait for the tool");
  const pid = Number((await Deno.readTextFile(pidFile)).trim());
  await until(async () => !(await alive(pid)), `process ${pid} to end`, 5_000);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("runHost() stops what the tool started too, and does not wait for it to close the tool's output", async () => {
  // `go vet` runs `vet` and `compile` as processes of its own: stopping `go` alone left them running, and they held
  // its output open, so the call waited for them however late that was.
  const dir = await tempDir({ prefix: "poly-host-tree-" });
  const pidFile = join(dir, "pid");
  const started = performance.now();
  await rejects(
    runHost("sh", ["-c", `sleep 30 & echo $! > "${pidFile}"; wait`], { timeoutMs: 300 }),
    (e: unknown) => e instanceof EngineError && /^sh did not finish within 0\.3 s and was stopped$/.test(e.message),
  );
  ok(performance.now() - started < 10_000, "it did not wait for the tool's child");
  const pid = Number((await Deno.readTextFile(pidFile)).trim());
  await until(async () => !(await alive(pid)), `the tool's child ${pid} to end`, 5_000);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("runExecutable() names the executable, not the shell that starts it, when it is stopped", async () => {
  if (Deno.build.os === "windows") return; // started through node there
  await rejects(
    runExecutable({ path: "/bin/sleep", launcher: "" }, ["30"], { timeoutMs: 300 }),
    (e: unknown) => e instanceof EngineError && e.message.startsWith("sleep did not finish within 0.3 s"),
  );
});

Deno.test("runExecutable() caps the memory a shipped executable may write to, so a runaway ends in an allocation failure", async () => {
  if (Deno.build.os === "windows") return; // started through node there, without a shell to set the limit
  equal(
    (await runExecutable({ path: "/bin/sh", launcher: "" }, ["-c", "ulimit -d"])).stdout.trim(),
    String(EXECUTABLE_DATA_KIB),
  );
  // A tool run with runHost (a host tool, which may be a JavaScript runtime reserving memory of its own) is not capped.
  const host = (await runHost("sh", ["-c", "ulimit -d"])).stdout.trim();
  ok(host !== String(EXECUTABLE_DATA_KIB), host);
});

Deno.test({
  name: "runExecutable() starts a freshly copied executable again while something still holds it open for writing",
  ignore: Deno.build.os !== "linux", // ETXTBSY is Linux's; the message is the shell's
  fn: async () => {
    // What a compiled poly meets once: its biome copied into the cache, then started while a process forked by
    // another thread still holds the copy's descriptor (ETXTBSY; the shell exits 126).
    const dir = await tempDir({ prefix: "poly-host-busy-" });
    const copy = join(dir, "true");
    await Deno.copyFile("/bin/true", copy);
    await Deno.chmod(copy, 0o755);
    const writer = await Deno.open(copy, { write: true });
    const closed = new Promise<void>((resolve) => setTimeout(() => (writer.close(), resolve()), 60));
    const started = performance.now();
    const run = await runExecutable({ path: copy, launcher: "" }, []);
    await closed;
    equal(run.code, 0, run.stderr);
    ok(performance.now() - started >= 25, "it was refused at first");
    // Busy for good, the shell's answer comes back as it is.
    const held = await Deno.open(copy, { write: true });
    try {
      const refused = await runExecutable({ path: copy, launcher: "" }, []);
      equal(refused.code, 126);
      ok(/Text file busy/.test(refused.stderr), refused.stderr);
    } finally {
      held.close();
    }
    await Deno.remove(dir, { recursive: true });
  },
});

/** A script printing its process id, its process group and its parent's (poly's) group (Linux: `/proc/<pid>/stat`). */
const PRINT_GROUPS =
  `group() { s=$(cat /proc/$1/stat); set -- \${s##*) }; echo "$3"; }; echo "$$ $(group $$) $(group $PPID)"`;

Deno.test({
  name: "runHost() starts a tool in a process group of its own; the executables poly ships start in poly's",
  ignore: Deno.build.os !== "linux", // process groups are read from /proc
  fn: async () => {
    // A group of its own is what lets a timeout stop what the tool started; biome and ast-grep start nothing, and a
    // child in poly's group starts without copying poly's page tables (`vfork`, not `fork`).
    const [pid, group, polys] = (await runHost("sh", ["-c", PRINT_GROUPS])).stdout.trim().split(" ");
    equal(group, pid, "its own group");
    ok(polys !== pid);
    const shipped = (await runExecutable({ path: "/bin/sh", launcher: "" }, ["-c", PRINT_GROUPS])).stdout.trim();
    const [, own, parent] = shipped.split(" ");
    equal(own, parent, `poly's group (${shipped})`);
    // Alone in poly's group, it is still stopped at its limit.
    await rejects(
      runExecutable({ path: "/bin/sleep", launcher: "" }, ["30"], { timeoutMs: 300 }),
      (e: unknown) => e instanceof EngineError && e.message.startsWith("sleep did not finish"),
    );
  },
});

Deno.test("runHost() leaves a tool that finishes in time alone: its output, and the default limit is minutes", async () => {
  const run = await runHost("sh", ["-c", "echo out; echo err >&2; exit 3"]);
  equal(run.code, 3);
  equal(run.stdout, "out\n");
  equal(run.stderr, "err\n");
  ok(HOST_TIMEOUT_MS >= 60_000, "a batch of thousands of files is never cut short");
});
