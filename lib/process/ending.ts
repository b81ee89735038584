/**
 * The processes poly starts end with it, and its private temporary folders go
 * with them. A signal that ends poly (SIGINT, SIGTERM, SIGHUP) would otherwise
 * end poly alone: a terminal's Ctrl-C reaches the processes of poly's own
 * process group, but a whole-project job or an agent CLI runs in a group of its
 * own (lib/workspace/_spawn.ts, lib/fleet/process.ts), and a SIGTERM sent to
 * poly's pid (`timeout`, an MCP host or a CI runner stopping it, `kill`) reaches
 * no child at all — biome, ast-grep, shellcheck or `go vet` went on with their
 * batch after poly had gone, and the folders they worked in stayed.
 *
 * While any such process runs or such a folder is there (lib/fs/temp.ts), poly
 * listens to those signals: it calls every registered stop, latest first (a
 * process is stopped before the folder it works in is removed), stops listening
 * and sends itself the signal again, which then takes its usual course — the
 * process ends (130, 143), or a listener of its own (`poly daemon`'s, `poly
 * mcp`'s) handles it. When nothing is registered, poly listens to nothing.
 *
 * @module
 */

/** The signals that end a poly process, and so call the stops first (Windows delivers only SIGINT of these). */
const ENDING: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM", "SIGHUP"];

/** The registered stops (a running child's, a temporary folder's), in the order registered. */
const running = new Set<() => void>();

/** Whether this module listens to {@link ENDING} (while a stop is registered). */
let listening = false;

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

/** The signal that stopped everything (see {@link signalExitCode}). */
let ended: Deno.Signal | undefined;

/** The exit codes of the {@link ENDING} signals, as a shell reports a process they end. */
const SIGNAL_EXIT: Partial<Record<Deno.Signal, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/**
 * The exit code of the signal that stopped poly's processes, if one did. Sending itself the signal again ends the
 * process from another thread of Deno's, while a run whose engine was just stopped may fail and reach its own exit
 * first (exit 2 for `poly config update` whose `git` was stopped): main.ts exits with this code instead of a failure's.
 */
export function signalExitCode(): number | undefined {
  return ended === undefined ? undefined : SIGNAL_EXIT[ended];
}

/** Calls every stop, latest first, then lets `signal` take its usual course (see the module doc). */
function stopAllThenEnd(signal: Deno.Signal): void {
  ended ??= signal;
  for (const stop of [...running].reverse()) stop();
  listen(false);
  try {
    Deno.kill(Deno.pid, signal); // no listener of ours left: the default (the process ends), or another's
  } catch {
    // not allowed to signal itself: everything is stopped, the process goes on
  }
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
    if (running.size === 0) listen(false);
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
