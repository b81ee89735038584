/**
 * A cancelled run stops the engine processes it started (lib/process/run_signal.ts, lib/engines/host.ts): an MCP
 * client's cancelled `lint` call left shellcheck (or biome's, ast-grep's, go vet's process) running to the end of its
 * batch. Here `runLint` — what the MCP tool and `poly daemon` call — with a `shellcheck` that never ends, cancelled
 * once it runs: the run ends within seconds, the process is gone and the file is errored, not reported clean.
 */
import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { inProcessWith } from "../_helpers/isolated.ts";
import { tempDir } from "../_helpers/temp.ts";
import { alive, killHard, until } from "../_helpers/process.ts";

Deno.test({
  name: "a cancelled run stops the engine process it started, and errors its files",
  ignore: Deno.build.os === "windows", // `sh` and `kill -0`
  async fn() {
    const dir = await Deno.realPath(await tempDir({ prefix: "poly-run-signal-" }));
    await Deno.mkdir(join(dir, "bin"));
    await Deno.mkdir(join(dir, "tree", ".git"), { recursive: true });
    await Deno.writeTextFile(join(dir, "tree", "a.sh"), "#!/bin/sh\necho $1\n");
    const pidFile = join(dir, "bin", "shellcheck.pid");
    // Answers `--version` as the real one does, and otherwise never ends.
    const script = `#!/bin/sh\ncase " $* " in *" --version "*) echo "ShellCheck - shell script analysis tool"; ` +
      `echo "version: 0.10.0"; exit 0;; esac\necho $$ > "${pidFile}"\nexec sleep 60\n`;
    await Deno.writeTextFile(join(dir, "bin", "shellcheck"), script, { mode: 0o755 });
    const out = await inProcessWith(
      {
        PATH: `${join(dir, "bin")}:${Deno.env.get("PATH") ?? ""}`,
        HOME: dir,
        POLY_CACHE_HOME: join(dir, "cache"),
        POLY_STATE_HOME: join(dir, "state"),
      },
      `
      const { runLint } = await import(REPO + "/lib/run/mod.ts");
      const controller = new AbortController();
      const pidFile = ${JSON.stringify(pidFile)};
      const running = runLint({ cwd: ${
        JSON.stringify(join(dir, "tree"))
      }, paths: [], noCache: true, signal: controller.signal });
      while (!(await Deno.readTextFile(pidFile).catch(() => "")).endsWith("\\n")) await new Promise((r) => setTimeout(r, 20));
      const cancelled = performance.now();
      controller.abort();
      const report = await running;
      const a = report.results.find((r) => r.path === "a.sh");
      console.log(JSON.stringify({ ms: performance.now() - cancelled, pid: Number((await Deno.readTextFile(pidFile)).trim()), a }));
    `,
    ) as { ms: number; pid: number; a?: { error?: string; diagnostics?: unknown[] } };
    try {
      ok(out.ms < 10_000, `the run ended ${out.ms} ms after it was cancelled`);
      await until(async () => !(await alive(out.pid)), `shellcheck (${out.pid}) to end`, 5_000);
      ok(out.a?.error?.includes("cancelled"), JSON.stringify(out.a));
      deepEqual(out.a?.diagnostics, undefined, "no findings, and not clean");
    } finally {
      killHard(out.pid);
      await Deno.remove(dir, { recursive: true });
    }
  },
});
