/**
 * The processes poly starts end with it, and its private temporary folders go
 * with them. A signal that ends poly (SIGINT, SIGTERM, SIGHUP) would otherwise
 * end poly alone: a terminal's Ctrl-C reaches the processes of poly's own
 * process group, but a whole-project job, an agent CLI or an engine's process
 * runs in a group of its own (lib/workspace/_spawn.ts, lib/process/group.ts),
 * and a SIGTERM sent to poly's pid (`timeout`, an MCP host or a CI runner
 * stopping it, `kill`) reaches no child at all — biome, ast-grep, shellcheck or
 * `go vet` went on with their batch after poly had gone, and the folders they
 * worked in stayed.
 *
 * While any such process runs or such a folder is there (lib/fs/temp.ts), poly
 * listens to those signals: it calls every registered stop, latest first (a
 * process is stopped before the folder it works in is removed); then a server
 * that ends gracefully (`poly daemon`, `poly mcp`: {@link onEndingSignal}) is
 * told, or else poly exits at once as the signal would have ended it (130, 143,
 * 129). When nothing is registered, poly listens to nothing.
 *
 * @module
 */

/** The signals that end a poly process, and so call the stops first (Windows delivers only SIGINT of these). */
const ENDING: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM", "SIGHUP"];

/** The registered stops (a running child's, a temporary folder's), in the order registered. */
const running = new Set<() => void>();

/** Whether this module listens to {@link ENDING} (while a stop or a graceful end is registered). */
let listening = false;

/** Listens while a stop or a graceful end is registered. */
function relisten(): void {
  listen(running.size > 0 || [...graceful.values()].some((ends) => ends.size > 0));
}

function listen(on: boolean): void {
  if (on === listening) return;
  listening = on;
  for (const s of ENDING) {
    try {
      if (on) Deno.addSignalListener(s, listeners[s]);
      else Deno.removeSignalListener(s, listeners[s]);
    } catch {
      // a signal this platform does not let a program listen to
    }
  }
}

/** The exit codes of the {@link ENDING} signals, as a shell reports a process they end. */
const SIGNAL_EXIT: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/** What a server does on each signal to end gracefully ({@link onEndingSignal}). */
const graceful = new Map<Deno.Signal, Set<() => void>>();

/**
 * Calls every stop, latest first; then the graceful ends registered for `signal`, or, with none, exits as the signal
 * would have ended poly. It exits here rather than sending itself the signal again: that signal reached the process
 * from another of Deno's threads, while a run whose process was just stopped could fail and exit 2 first, and a server
 * that had just ended gracefully (its listener gone) died of it with 143.
 */
function stopAllThenEnd(signal: Deno.Signal): void {
  for (const stop of [...running].reverse()) stop();
  running.clear();
  const ends = graceful.get(signal);
  if (ends && ends.size > 0) {
    for (const end of [...ends]) end();
    return;
  }
  Deno.exit(SIGNAL_EXIT[signal] ?? 1);
}

const listeners = Object.fromEntries(ENDING.map((s) => [s, () => stopAllThenEnd(s)])) as Record<string, () => void>;

/**
 * Keeps `stop` (how to stop one running child process, or remove a temporary
 * folder) among those a signal ending poly calls, latest first, until the
 * returned function is called (when the child has ended, the folder is gone).
 */
export function stopWithPoly(stop: () => void): () => void {
  running.add(stop);
  listen(true);
  return () => {
    running.delete(stop);
    relisten();
  };
}

/** The signals a server ends gracefully on (Windows delivers only SIGINT of these); SIGHUP ends it at once. */
const SERVER_SIGNALS: readonly Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];

/**
 * How a server ends gracefully on `signals` (it drains its calls, closes its socket, then returns from its command):
 * called after the registered stops, instead of poly exiting at once. Registered until the returned function is called.
 */
export function onEndingSignal(end: () => void, signals: readonly Deno.Signal[] = SERVER_SIGNALS): () => void {
  for (const signal of signals) {
    if (!graceful.has(signal)) graceful.set(signal, new Set());
    graceful.get(signal)!.add(end);
  }
  listen(true);
  return () => {
    for (const signal of signals) graceful.get(signal)?.delete(end);
    relisten();
  };
}

/** {@link stopWithPoly} for a child process that a SIGTERM stops. */
export function killWithPoly(child: Deno.ChildProcess): () => void {
  return stopWithPoly(() => {
    try {
      child.kill("SIGTERM");
    } catch {
      // ended already
    }
  });
}

/** {@link stopWithPoly} for a private folder or file: removed (with everything in it). */
export function removeWithPoly(path: string): () => void {
  return stopWithPoly(() => {
    try {
      Deno.removeSync(path, { recursive: true });
    } catch {
      // gone already
    }
  });
}
