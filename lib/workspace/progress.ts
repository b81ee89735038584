/**
 * The whole-project phase's status line on a terminal: which jobs run, for how
 * long, and how many are done, redrawn once a second while the phase runs after
 * the per-file run has finished (cargo clippy may take a minute, and a silent
 * terminal looks hung). Never on a pipe: the CLI only starts it on a terminal.
 *
 * @example
 * ```ts
 * const status = new WorkspaceStatus();
 * const phase = runWorkspacePhase({ cwd, onJob: status.onJob });
 * const stop = status.show((text) => io.stderr(text));
 * await phase;
 * await stop();
 * ```
 *
 * @module
 */
import type { JobEvent } from "./mod.ts";

/** What the phase is doing now, from its {@link JobEvent}s. */
export class WorkspaceStatus {
  readonly #running = new Map<string, number>();
  #done = 0;
  #total = 0;
  readonly #now: () => number;

  constructor(now: () => number = () => Date.now()) {
    this.#now = now;
  }

  /** Hand this to the phase's `onJob`. */
  readonly onJob = (event: JobEvent): void => {
    this.#done = event.done;
    this.#total = event.total;
    if (event.state === "started") this.#running.set(event.name, this.#now());
    else this.#running.delete(event.name);
  };

  /**
   * The status line, e.g. `workspace: clippy running (12 s); 1 of 4 jobs done`,
   * or "" before any job started.
   */
  line(): string {
    if (this.#total === 0) return "";
    const now = this.#now();
    const running = [...this.#running].map(([name, at]) => `${name} (${Math.floor((now - at) / 1000)} s)`);
    const what = running.length > 0 ? `${running.join(", ")} running; ` : "";
    return `workspace: ${what}${this.#done} of ${this.#total} job${this.#total === 1 ? "" : "s"} done`;
  }

  /**
   * Draws {@link line} through `write` now and once a second (each time over the
   * last, `\r` and erase-line), until the returned function is called, which
   * erases it.
   */
  show(write: (text: string) => unknown, everyMs = 1000): () => Promise<void> {
    let drawn = false;
    const draw = () => {
      const text = this.line();
      if (!text) return;
      drawn = true;
      write(`\r\x1b[2K${text}`);
    };
    draw();
    const timer = setInterval(draw, everyMs);
    return async () => {
      clearInterval(timer);
      if (drawn) await write("\r\x1b[2K");
    };
  }
}
