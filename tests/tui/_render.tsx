/**
 * Renders the dashboard with ink-testing-library at a chosen terminal size.
 *
 * ink-testing-library's stdout reports 100 columns and no rows; ink sizes its
 * root from `stdout.columns`/`rows` on every render. Its stdout class is
 * reached once and given `columns`/`rows` getters that read a per-instance size
 * (set before the first frame), so frames come out at exactly the size asked
 * for, and changing the size then emitting "resize" re-lays the app out as a
 * real terminal resize does.
 *
 * @module
 */
import { render } from "ink-testing-library";
import { Text } from "ink";
import type { ReactElement } from "react";

/** A terminal size. */
export interface Size {
  columns: number;
  rows: number;
}

let next: Size = { columns: 80, rows: 24 };
let patched = false;

type SizedStdout = { size?: Size };

function patchStdout(): void {
  if (patched) return;
  // One throwaway render reaches the class; COLUMNS/LINES keep terminal-size from probing the machine for it.
  const had = { c: Deno.env.get("COLUMNS"), l: Deno.env.get("LINES") };
  Deno.env.set("COLUMNS", "80");
  Deno.env.set("LINES", "24");
  const probe = render(<Text>probe</Text>);
  probe.unmount();
  had.c === undefined ? Deno.env.delete("COLUMNS") : Deno.env.set("COLUMNS", had.c);
  had.l === undefined ? Deno.env.delete("LINES") : Deno.env.set("LINES", had.l);
  const proto = Object.getPrototypeOf(probe.stdout);
  Object.defineProperty(proto, "columns", {
    configurable: true,
    get(this: SizedStdout) {
      return (this.size ?? next).columns;
    },
  });
  Object.defineProperty(proto, "rows", {
    configurable: true,
    get(this: SizedStdout) {
      return (this.size ?? next).rows;
    },
  });
  patched = true;
}

/** What {@link renderAt} returns. */
export interface Rendered {
  /** The latest frame, without trailing spaces on its lines. */
  frame(): string;
  /** Types keys (strings as the terminal sends them). */
  press(...keys: string[]): Promise<void>;
  /** Changes the terminal size and tells the app. */
  resize(size: Size): Promise<void>;
  /** Waits until `predicate(frame)` holds (fails after `ms`). */
  waitFor(predicate: (frame: string) => boolean, ms?: number): Promise<string>;
  unmount(): void;
}

/** Keys as a terminal sends them. */
export const KEY = {
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  enter: "\r",
  escape: "\x1b",
  tab: "\t",
  backspace: "\x7f",
  pageDown: "\x1b[6~",
} as const;

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** A frame as text: escape sequences removed, trailing spaces trimmed. */
export function clean(frame: string | undefined): string {
  return (frame ?? "").replace(ANSI, "").split("\n").map((l) => l.trimEnd()).join("\n");
}

const tick = () => new Promise((r) => setTimeout(r, 5));

/** Renders `node` in a terminal of `size`. */
export async function renderAt(node: ReactElement, size: Size): Promise<Rendered> {
  patchStdout();
  next = size;
  const r = render(node);
  (r.stdout as unknown as SizedStdout).size = { ...size };
  await tick();
  const frame = () => clean(r.lastFrame());
  const settle = async () => {
    // Let ink parse the input and React commit the update.
    for (let i = 0; i < 4; i++) await tick();
  };
  return {
    frame,
    async press(...keys) {
      for (const k of keys) {
        r.stdin.write(k);
        await settle();
      }
    },
    async resize(s) {
      (r.stdout as unknown as SizedStdout).size = { ...s };
      r.stdout.emit("resize");
      await settle();
    },
    async waitFor(predicate, ms = 5000) {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        const f = frame();
        if (predicate(f)) return f;
        await tick();
      }
      throw new Error(`the frame never matched; the last one was:\n${frame()}`);
    },
    unmount() {
      r.unmount();
      r.cleanup();
    },
  };
}
