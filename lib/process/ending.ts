/**
 * The processes poly starts end with it, and its private temporary folders go. A signal that ends poly (SIGINT,
 * SIGTERM, SIGHUP) would otherwise end poly alone: a terminal's Ctrl-C reaches
 * the processes of poly's own process group, but a whole-project job runs in a
 * group of its own (lib/workspace/_spawn.ts), and a SIGTERM sent to poly's pid
 * (`timeout`, an MCP host or a CI runner stopping it, `kill`) reaches no child
 * at all — biome, ast-grep, shellcheck or `go vet` went on with their batch
 * after poly had gone.
 *
 * While any such process runs (or a temporary folder of poly's is there:
 * lib/fs/temp.ts), poly listens to those signals: it stops every one of them,
 * latest first (each as its owner says: a process before the folder it works
 * in, which is removed), stops listening and sends itself the signal again,
 * which then takes its usual course — the process ends (130, 143), or a
 * listener of its own (`poly daemon`'s) handles it. When nothing is registered,
 * poly listens to nothing.
 *
 * @module
 */

/** The signals that end a poly process and so stop its children first (Windows delivers only SIGINT of these). */
const ENDING: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM", "SIGHUP"];

/** The running children's stops. */
const running = new Set<() => void>();

/** Whether this module listens to {@link ENDING} (while a child runs). */
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

/** Stops every running child, then lets `signal` take its usual course (see the module doc). */
function stopAllThenEnd(signal: Deno.Signal): void {
  for (const stop of [...running].reverse()) stop();
  listen(false);
  try {
    Deno.kill(Deno.pid, signal); // no listener of ours left: the default (the process ends), or another's
  } catch {
    // not allowed to signal itself: the children are stopped, the process goes on
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
