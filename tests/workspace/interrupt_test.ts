/**
 * A workspace job runs in a process group of its own (lib/workspace/_spawn.ts), so neither a terminal's Ctrl-C (sent
 * to poly's group) nor a signal sent to poly alone reaches it: the real `poly lint`, stopped either way while a job
 * runs, stops the job too, and ends as the signal says.
 */
import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { isolatedHomes, polyCommand } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";
import { alive, killHard, until } from "../_helpers/process.ts";

const posix = Deno.build.os !== "windows"; // process groups and the signals a terminal sends

/** A tree whose one job writes its shell's pid to `job.pid`, then sleeps a minute. */
async function slowJobTree(): Promise<string> {
  const dir = await Deno.realPath(await tempDir({ prefix: "poly-interrupt-" }));
  await Deno.mkdir(join(dir, ".git"));
  await Deno.writeTextFile(join(dir, "a.toml"), "x = 1\n");
  await Deno.writeTextFile(
    join(dir, "poly.toml"),
    '[workspace.jobs.slow]\ncommand = "echo $$ > job.pid; exec sleep 60"\n',
  );
  return dir;
}

const cases = [
  { how: "Ctrl-C to its process group", signal: "SIGINT", code: 130 },
  { how: "SIGTERM to poly alone", signal: "SIGTERM", code: 143 },
] as const;

for (const { how, signal, code } of cases) {
  Deno.test({
    name: `poly lint stopped by ${how} while a workspace job runs stops the job and exits ${code}`,
    ignore: !posix,
    async fn() {
      const dir = await slowJobTree();
      const [exe, ...args] = polyCommand();
      const child = new Deno.Command(exe, {
        args: [...args, "lint", "--no-cache"],
        cwd: dir,
        env: { NO_COLOR: "1", ...(await isolatedHomes()) },
        stdout: "null",
        stderr: "null",
        detached: true, // a process group of its own, as a terminal's foreground job
      }).spawn();
      let job: number | undefined;
      try {
        const pidFile = join(dir, "job.pid");
        const written = async () => (await Deno.readTextFile(pidFile).catch(() => "")).endsWith("\n");
        await until(written, "the job to start", 30_000);
        job = Number((await Deno.readTextFile(pidFile)).trim());
        ok(await alive(job), "the job runs");
        if (signal === "SIGINT") Deno.kill(-child.pid, "SIGINT");
        else child.kill("SIGTERM");
        equal((await child.status).code, code);
        await until(async () => !(await alive(job!)), "the job to end", 5_000);
      } finally {
        // Whatever happened above, nothing the test started goes on.
        killHard(child.pid);
        if (job !== undefined) killHard(job);
        await child.status;
      }
    },
  });
}
