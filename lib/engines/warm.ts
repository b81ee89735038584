/**
 * ruff's WebAssembly warmed on another thread while the main thread brings a kept run up to date.
 *
 * V8 compiles a WebAssembly function when it is first called, and the code stays with the compiled module, which
 * every thread of the process that compiles the same bytes shares while one of them holds it. A `poly lint` after an
 * edit of a Python file (a kept run brought up to date: lib/cli/commands/_check_run.ts) checks that one file, and
 * ruff's start is most of that run: its module loaded (~140 ms), then each function it calls compiled on the main
 * thread as the check first calls it (~0.2 s for one file). As soon as the replay lookup knows which files changed,
 * a warmer on the second core loads ruff and checks (or formats) a sample (`ruff/_warm.ts`), while the main thread
 * loads the run's modules, its configuration and its plan; the run's own instance then finds most of its code
 * compiled. docs/performance.md has what it buys (~9% of such a run) and why it is started nowhere else (a busy
 * second thread slows the main thread's own start on two cores: where ruff is not certain to run, it costs more than
 * it saves).
 *
 * Only the process's own run starts one (lib/cli/program.ts), never a resident `poly daemon` or `poly mcp` (their
 * engines stay loaded). A warmer stops once the run's own instance holds the module and its sample is done, or once
 * the plan shows ruff does not run. It never reaches a result: if it fails, the run compiles as it would have.
 *
 * @module
 */
import { sourcePath } from "../identity/code.ts";
import { pathToFileURL } from "../paths/path.ts";
import { mark, span } from "../debug/timing.ts";
import { detectLanguage } from "../discover/language.ts";

/** A warmer's thread and where it stands. */
interface Warmer {
  worker: Worker;
  /** The sample is done. */
  warm: boolean;
  /** This thread's own instance holds the module. */
  loaded: boolean;
  timed: () => void;
}

/** The running warmers, by engine id. */
const warmers = new Map<string, Warmer>();

/**
 * Starts ruff's warmer for a kept run of `mode` (`lint` or `fmt`) brought up to date, when a Python file (by its
 * name, as discovery tells) is among the files it checks again (`changed`, the only ones it runs).
 */
export function warmForChanged(mode: string, changed: readonly string[]): void {
  if (
    (mode === "lint" || mode === "fmt") && changed.some((path) => detectLanguage(path) === "python") &&
    !warmers.has("ruff")
  ) {
    // From the program's source even when the program runs from a bundle (lib/identity/launch.ts).
    start("ruff", sourcePath("lib/engines/ruff/_warm.ts"), mode);
  }
}

function start(id: string, path: string, mode: "lint" | "fmt"): void {
  let worker: Worker;
  try {
    worker = new Worker(pathToFileURL(path).href, { type: "module", name: mode });
  } catch {
    return;
  }
  mark(`warm ${id}`);
  const warmer: Warmer = { worker, warm: false, loaded: false, timed: span(`warm ${id}: sample done`) };
  warmers.set(id, warmer);
  worker.onmessage = () => {
    warmer.warm = true;
    warmer.timed();
    if (warmer.loaded) stop(id);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    stop(id);
  };
}

function stop(id: string): void {
  warmers.get(id)?.worker.terminate();
  warmers.delete(id);
}

/** Where engine `id`'s warmer stands: `"warming"`, `"warm"` (its sample done), or undefined (none runs). */
export function warmerState(id: string): "warming" | "warm" | undefined {
  const warmer = warmers.get(id);
  return warmer && (warmer.warm ? "warm" : "warming");
}

/** This thread's own instance of engine `id` is loaded: its warmer stops once its sample is done. */
export function engineLoaded(id: string): void {
  const warmer = warmers.get(id);
  if (!warmer) return;
  warmer.loaded = true;
  if (warmer.warm) stop(id);
}

/** A run's plan is known (`ids`: the engines it runs): the warmers of the others stop. */
export function enginesPlanned(ids: () => ReadonlySet<string>): void {
  if (warmers.size === 0) return;
  const planned = ids();
  for (const id of [...warmers.keys()]) if (!planned.has(id)) stop(id);
}
