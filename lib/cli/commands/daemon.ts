/**
 * `poly daemon start [DIR]`, `poly daemon run [DIR]`, `poly daemon stop [DIR]`,
 * `poly daemon status [--format human|json]`: a resident poly that watches a
 * repository, so `poly lint` and `poly fmt` there reuse what earlier runs found
 * for every file that has not changed since (lib/daemon/).
 *
 * @module
 */
import { argument, command, constant, message, object, optional, or } from "../_optique.ts";
import { pathValue } from "../_path.ts";
import { resolve } from "node:path";
import { defineCommand } from "../command.ts";
import type { CommandIO } from "../command.ts";
import { ExitCode, PolyError } from "../../errors/mod.ts";
import type { DaemonStatus } from "../../daemon/server.ts";
import type { DaemonEntry } from "../../daemon/registry.ts";
import { formatOption, writeDocument } from "../output.ts";

const dir = optional(
  argument(pathValue("DIR", "directory"), {
    description: message`The repository to watch (default: the one holding the current directory)`,
  }),
);
const FORMATS = ["human", "json"] as const;

type DaemonValue =
  | { action: "start" | "run" | "stop"; dir?: string }
  | { action: "status"; format: typeof FORMATS[number] };

const parser = command(
  "daemon",
  or(
    command("start", object({ action: constant("start" as const), dir }), {
      brief: message`Start a daemon watching a repository, in the background.`,
    }),
    command("run", object({ action: constant("run" as const), dir }), {
      brief: message`Run a daemon in the foreground (until Ctrl-C).`,
    }),
    command("stop", object({ action: constant("stop" as const), dir }), {
      brief: message`Stop the daemon watching a repository.`,
    }),
    command(
      "status",
      object({
        action: constant("status" as const),
        format: formatOption(FORMATS),
      }),
      { brief: message`List running daemons: root, pid, runs, files remembered.` },
    ),
  ),
  {
    brief: message`Keep poly resident: lint and fmt reuse results of files unchanged since.`,
    description:
      message`A daemon watches one repository; poly lint and poly fmt run anywhere inside it are sent to it, and every file unchanged since its last run is answered from memory.`,
  },
);

/** `poly daemon`. */
export const daemonCommand = defineCommand<DaemonValue>({
  parser,
  async run(value, io) {
    const { daemonDir, listEntries, entriesFor } = await import("../../daemon/registry.ts");
    if (value.action === "status") return await status(io, value.format, daemonDir(), listEntries);
    const root = await rootOf(io, value.dir);
    const { daemonStatus, runDaemon } = await import("../../daemon/server.ts");
    const real = await Deno.realPath(root);
    if (value.action === "run") {
      for (const entry of listEntries().filter((e) => e.root === real)) {
        if (await daemonStatus(entry.socket)) {
          await io.stderr(`error: a poly daemon is already watching ${real} (pid ${entry.pid})\n`);
          return 2;
        }
      }
      // The daemon runs each client's command line through this one (it imports no command line itself).
      const { fastPath, main } = await import("../main.ts");
      await runDaemon(root, io.stderr, { run: main, parse: fastPath });
      return 0;
    }
    const mine = value.dir === undefined && value.action === "stop"
      ? entriesFor(await Deno.realPath(io.cwd), listEntries()).slice(0, 1)
      : listEntries().filter((e) => e.root === real);
    if (value.action === "stop") {
      if (mine.length === 0) {
        await io.stderr(`no poly daemon is watching ${real}\n`);
        return 0;
      }
      for (const entry of mine) {
        await daemonStatus(entry.socket, true);
        await gone(entry, daemonDir());
        await io.stderr(`stopped the poly daemon for ${entry.root} (pid ${entry.pid})\n`);
      }
      return 0;
    }
    for (const entry of mine) {
      if (await daemonStatus(entry.socket)) {
        await io.stderr(`a poly daemon is already watching ${entry.root} (pid ${entry.pid})\n`);
        return 0;
      }
    }
    return await start(io, real, daemonDir(), listEntries);
  },
});

async function rootOf(io: CommandIO, given?: string): Promise<string> {
  if (given !== undefined) {
    const path = resolve(io.cwd, given);
    const info = await Deno.stat(path).catch(() => undefined);
    if (!info?.isDirectory) throw new PolyError(`${given}: not a directory`, { exitCode: ExitCode.Incomplete });
    return path;
  }
  const { openConfig } = await import("../../config/mod.ts");
  return (await openConfig({ cwd: io.cwd })).anchor;
}

/** The command line that runs this same poly (compiled, or from source with its permission set). */
async function selfCommand(): Promise<string[]> {
  if (Deno.build.standalone) return [Deno.execPath()];
  // Only from source (a compiled binary is its own command): this checkout.
  const { sourceCommand, sourceRoot } = await import("../../identity/code.ts");
  return sourceCommand(sourceRoot());
}

/** Starts `poly daemon run ROOT` detached (its messages appended to `<dir>/daemon.log`) and waits until it answers. */
async function start(
  io: CommandIO,
  root: string,
  dir: string,
  listEntries: (dir?: string) => DaemonEntry[],
): Promise<number> {
  const { daemonStatus } = await import("../../daemon/server.ts");
  await Deno.mkdir(dir, { recursive: true });
  const log = `${dir}/daemon.log`;
  // sh redirects and replaces itself (exec): the child is the daemon, in its own process group.
  const child = new Deno.Command("sh", {
    args: [
      "-c",
      'log="$1"; shift; exec "$@" </dev/null >>"$log" 2>&1',
      "sh",
      log,
      ...await selfCommand(),
      "daemon",
      "run",
      root,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  child.unref();
  let exited: number | undefined;
  child.status.then((s) => exited = s.code, () => exited = -1);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && exited === undefined) {
    const entry = listEntries(dir).find((e) => e.pid === child.pid && e.root === root);
    if (entry && await daemonStatus(entry.socket)) {
      await io.stderr(`poly daemon watching ${root} (pid ${entry.pid}); stop it with: poly daemon stop\n`);
      return 0;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const tail = await Deno.readTextFile(log).then((t) => t.split("\n").slice(-10).join("\n"), () => "");
  await io.stderr(
    `error: the poly daemon did not start${
      exited !== undefined ? ` (exit ${exited})` : " within 30 s"
    }; its log (${log}):\n${tail}\n`,
  );
  if (exited === undefined) {
    try {
      child.kill("SIGTERM");
    } catch {
      // gone meanwhile
    }
  }
  return 2;
}

/** Waits (up to 5 s) until a stopped daemon has removed its entry. */
async function gone(entry: DaemonEntry, dir: string): Promise<void> {
  const path = (await import("../../daemon/registry.ts")).entryPath(dir, entry.pid);
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    if (!(await Deno.stat(path).then(() => true, () => false))) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function status(
  io: CommandIO,
  format: "human" | "json",
  dir: string,
  listEntries: (dir?: string) => DaemonEntry[],
): Promise<number> {
  const { daemonStatus } = await import("../../daemon/server.ts");
  const { removeEntry } = await import("../../daemon/registry.ts");
  const daemons: (DaemonStatus | (DaemonEntry & { responding: false }))[] = [];
  for (const entry of listEntries(dir)) {
    const answer = await daemonStatus(entry.socket);
    if (answer) daemons.push(answer);
    else {
      // Gone without cleaning up (killed): its entry and socket are removed now.
      await removeEntry(dir, entry);
      daemons.push({ ...entry, responding: false });
    }
  }
  if (format === "json") {
    await writeDocument(io, { daemons }, "json");
    return 0;
  }
  if (daemons.length === 0) {
    await io.stdout("no poly daemon is running (start one with: poly daemon start)\n");
    return 0;
  }
  const lines: string[] = [];
  for (const d of daemons) {
    if ("responding" in d) {
      lines.push(`${d.root}  pid ${d.pid}  not responding (entry removed)`);
      continue;
    }
    const watching = d.stale
      ? "STALE: poly's code changed since it started; it runs nothing (restart it)"
      : d.live.watching
      ? "watching"
      : "NOT watching (every run is a full run)";
    lines.push(`${d.root}  pid ${d.pid}  ${watching}  since ${d.started}`);
    lines.push(
      `  runs ${d.runs}, files remembered ${d.live.files}, events ${d.live.events}, resets ${d.live.resets}` +
        (d.live.lastReset ? ` (last: ${d.live.lastReset})` : ""),
    );
    if (d.last) lines.push(`  last run: poly ${d.last.argv.join(" ")}: exit ${d.last.code} in ${d.last.ms} ms`);
    if (d.refused > 0) lines.push(`  refused ${d.refused} (last: ${d.lastRefusal})`);
  }
  await io.stdout(lines.join("\n") + "\n");
  return 0;
}
