/**
 * The resident half of `poly daemon`: one process per watched root that keeps
 * poly's modules loaded, watches the tree ({@link LiveWorkspace}), and runs the
 * `poly lint` / `poly fmt` command lines its clients send over a Unix socket,
 * one at a time, with the memo of its earlier runs.
 *
 * A request is refused (and the client runs the command itself) when it comes
 * from another build of poly, with other values of the variables a run reads
 * ({@link RELEVANT_ENV}), from outside the root, or names a path or config file
 * outside it.
 *
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import type { CommandIO } from "../io/mod.ts";
import { codePaths, codeStamp, freshCodeStamp } from "../identity/code.ts";
import { programId } from "../identity/program.ts";
import { ENGINES, loadEngine } from "../engines/registry.ts";
import { VERSION } from "../identity/build.ts";
import { writeFileAtomic } from "../fs/atomic.ts";
import { type LiveStats, LiveWorkspace } from "./live.ts";
import { daemonDir, type DaemonEntry, entryPath, markersPath, removeEntry, within } from "./registry.ts";
import { closeQuietly, type DaemonRequest, frame, frames, RELEVANT_ENV, relevantEnv, writeAll } from "./wire.ts";
import { mark, resetTiming, span, TIMING, timingTable } from "../debug/timing.ts";
import { onEndingSignal } from "../process/ending.ts";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** What `poly daemon status` shows for one daemon. */
export interface DaemonStatus extends DaemonEntry {
  /** Runs served, and the last one's command and wall time. */
  runs: number;
  last?: { argv: string[]; ms: number; code: number; at: string };
  /** Requests refused (run by the client itself), and the last reason. */
  refused: number;
  /** poly's own files changed since it started: it serves no run (restart it). */
  stale?: boolean;
  lastRefusal?: string;
  live: LiveStats;
}

/**
 * How the daemon runs a command line. `poly daemon` passes the command line's own
 * (lib/cli/main.ts), so the daemon runs exactly what `poly` would without
 * importing the command line.
 */
export interface CommandRunner {
  /** Runs `argv` as `poly` would, writing to `io`; returns the exit code. */
  run(argv: string[], io: CommandIO): Promise<number>;
  /** The value `argv` parses to on the command line's fast path, or undefined (--help, a usage error). */
  parse(argv: string[]): Promise<{ value: unknown } | undefined>;
}

/** Options for {@link runDaemon}. */
export interface DaemonOptions {
  /** Directory of entries and sockets (default `<state home>/daemon`). */
  dir?: string;
  /** Called once the socket listens (tests, `poly daemon start`). */
  onReady?: (entry: DaemonEntry) => void;
  /** Stops the daemon when aborted. */
  signal?: AbortSignal;
}

/** Longest socket path a Unix socket address holds on Linux and macOS, with room to spare. */
const MAX_SOCKET_PATH = 100;

/**
 * Watches `root` and serves runs until stopped (a `k` frame, SIGINT, SIGTERM or
 * `options.signal`). Writes its entry and socket under `options.dir` and removes
 * them when it stops. Messages for a person go to `log`; each request's command
 * line runs through `commands`.
 */
export async function runDaemon(
  root: string,
  log: (line: string) => Promise<void>,
  commands: CommandRunner,
  options: DaemonOptions = {},
): Promise<void> {
  const dir = options.dir ?? daemonDir();
  // Only this user may reach a daemon: it runs commands (and [workspace.jobs]) as them.
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  if (Deno.build.os !== "windows") await Deno.chmod(dir, 0o700);
  // The program's own files are watched too: once one changes, this daemon runs outdated code.
  const live = await LiveWorkspace.open(root, markersPath(dir, Deno.pid), codePaths());
  const socket = `${dir}/${Deno.pid}.sock`;
  if (socket.length > MAX_SOCKET_PATH) {
    live.close();
    throw new Error(
      `the daemon's socket path is ${socket.length} characters, more than a Unix socket holds (${MAX_SOCKET_PATH}): ${socket}; set POLY_STATE_HOME to a shorter directory`,
    );
  }
  await Deno.remove(socket).catch(() => {});
  const listener = Deno.listen({ transport: "unix", path: socket });
  if (Deno.build.os !== "windows") await Deno.chmod(socket, 0o600);
  const entry: DaemonEntry = {
    pid: Deno.pid,
    root: live.root,
    socket,
    started: new Date().toISOString(),
    version: VERSION,
  };
  const status: DaemonStatus = { ...entry, runs: 0, refused: 0, live: live.stats() };
  const code = codeStamp().join("\n");
  const program = programId();
  /** Whether this daemon still runs the code a client would (watched; else the files stat-ed again). */
  const current = () => live.stats().watching && !live.ownChanged ? true : freshCodeStamp().join("\n") === code;
  const env = relevantEnv();

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    try {
      listener.close();
    } catch {
      // already closed
    }
  };
  const release = onEndingSignal(stop);
  options.signal?.addEventListener("abort", stop, { once: true });

  await writeFileAtomic(entryPath(dir, Deno.pid), JSON.stringify(entry, null, 2) + "\n");
  await log(`poly daemon: watching ${live.root} (pid ${Deno.pid}, socket ${socket})\n`);
  options.onReady?.(entry);

  /** Runs go one at a time: each starts from the memo the previous one left. */
  let queue: Promise<void> = Promise.resolve();
  const refuse = async (conn: Deno.Conn, reason: string) => {
    status.refused++;
    status.lastRefusal = reason;
    await writeAll(conn, frame("r", JSON.stringify({ reason })));
  };

  const serve = async (conn: Deno.Conn) => {
    const reader = frames(conn);
    const first = await reader.next();
    if (first.done) return;
    const { type, body } = first.value;
    if (type === "p" || type === "k") {
      status.live = live.stats();
      await writeAll(conn, frame("s", JSON.stringify(status)));
      if (type === "k") stop();
      return;
    }
    if (type !== "q") return;
    const request = JSON.parse(decoder.decode(body)) as DaemonRequest;
    const problem = await refusal(request, live.root, program, env, commands);
    if (problem) return await refuse(conn, problem);
    // A client sends nothing after its request: the end of its stream is the client gone (Ctrl-C, a closed
    // terminal, a killed hook), and its run is cancelled — or never started, while it waits for an earlier one.
    const gone = new AbortController();
    (async () => {
      try {
        while (!(await reader.next()).done) {
          // nothing else is sent
        }
      } catch {
        // closed under the read: the same
      }
      gone.abort();
    })();
    const one = () => gone.signal.aborted ? undefined : runOne(conn, request, gone.signal);
    await (queue = queue.then(one, one));
  };

  const runOne = async (conn: Deno.Conn, request: DaemonRequest, signal: AbortSignal) => {
    const started = performance.now();
    resetTiming();
    mark("daemon request");
    const send = (type: "o" | "e") => async (text: string) => {
      await writeAll(conn, frame(type, encoder.encode(text)));
    };
    const io: CommandIO = {
      stdout: send("o"),
      stderr: send("e"),
      writeBytes: (stream, bytes) => writeAll(conn, frame(stream === "stdout" ? "o" : "e", bytes)),
      stdoutIsTerminal: request.stdoutIsTerminal,
      stderrIsTerminal: request.stderrIsTerminal,
      cwd: request.cwd,
      memo: live,
      signal,
    };
    const synced = span("daemon sync");
    await live.sync();
    synced();
    if (!current()) {
      // Checked after the sync: every change to poly's files made before the request has been seen.
      status.stale = true;
      return await refuse(
        conn,
        "poly's code changed since the daemon started (restart it: poly daemon stop && poly daemon start)",
      );
    }
    let exit: number;
    try {
      exit = await commands.run(request.argv, io);
    } catch (error) {
      await io.stderr(`error: poly daemon: ${error instanceof Error ? error.message : String(error)}\n`).catch(
        () => {},
      );
      exit = 2;
    }
    // Under POLY_DEBUG=timing (the client's value is the daemon's), the run's spans follow its output.
    if (TIMING) await io.stderr(timingTable("poly daemon timing")).catch(() => {});
    status.runs++;
    status.last = {
      argv: request.argv,
      ms: Math.round(performance.now() - started),
      code: exit,
      at: new Date().toISOString(),
    };
    await writeAll(conn, frame("x", JSON.stringify({ code: exit }))).catch(() => {});
    prewarm();
  };

  /**
   * After a run, the batch engines of the languages it saw load their
   * in-process paths (biome's WebAssembly module, ast-grep's parsers) before the
   * next run: the few files a later run finds changed then lint here, sooner
   * than a new native process would start (lib/run/prepass.ts).
   */
  const warmed = new Set<string>();
  const prewarm = () => {
    const languages = live.languages();
    for (const spec of ENGINES) {
      if (!spec.batch?.lint || warmed.has(spec.id)) continue;
      if (!spec.lintLanguages.some((language) => languages.has(language))) continue;
      warmed.add(spec.id);
      queue = queue.then(async () => await (await loadEngine(spec)).prewarm?.()).catch(() => {});
    }
  };

  try {
    for await (const conn of listener) {
      (async () => {
        try {
          await serve(conn);
        } catch {
          // the client went away; its run (if any) finished for nobody
        } finally {
          closeQuietly(conn);
        }
      })();
    }
  } catch (error) {
    if (!stopping) throw error;
  } finally {
    release();
    await queue.catch(() => {});
    live.close();
    await removeEntry(dir, entry);
    await log(`poly daemon: stopped watching ${live.root}\n`);
  }
}

/** Why a request is not served here, or undefined when it is. */
async function refusal(
  request: DaemonRequest,
  root: string,
  program: string,
  env: Record<string, string>,
  commands: CommandRunner,
): Promise<string | undefined> {
  if (request.v !== 1) return `wire version ${request.v} is not 1`;
  if (request.program !== program) return `the client is another poly (${request.program}; the daemon runs ${program})`;
  for (const name of RELEVANT_ENV) {
    if (request.env[name] !== env[name]) return `${name} differs from the daemon's`;
  }
  if (!within(root, request.cwd)) return `${request.cwd} is outside the daemon's root`;
  const command = request.argv[0];
  if (command !== "lint" && command !== "fmt") return `only poly lint and poly fmt run in the daemon`;
  const parsed = await commands.parse(request.argv);
  if (!parsed) return undefined; // --help or a usage error: the daemon prints what the CLI would
  const value = parsed.value as { paths: readonly string[]; config?: string };
  for (const path of [...value.paths, ...(value.config ? [value.config] : [])]) {
    const abs = isAbsolute(path) ? path : resolve(request.cwd, path);
    if (!within(root, abs)) return `${path} is outside the daemon's root`;
  }
  return undefined;
}

/** Asks the daemon at `socket` for its status (undefined when it does not answer). */
export async function daemonStatus(socket: string, stop = false): Promise<DaemonStatus | undefined> {
  let conn: Deno.Conn;
  try {
    conn = await Deno.connect({ transport: "unix", path: socket });
  } catch {
    return undefined;
  }
  try {
    await writeAll(conn, frame(stop ? "k" : "p"));
    for await (const { type, body } of frames(conn)) {
      if (type === "s") return JSON.parse(decoder.decode(body)) as DaemonStatus;
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    closeQuietly(conn);
  }
}
