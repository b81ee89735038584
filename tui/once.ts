/**
 * `poly dash --once`: one plain-text snapshot of every pane, for pipes, CI and
 * agents — the same lines the panes draw, without colour, every row included.
 *
 * @module
 */
import { type Clock, localStamp } from "./clock.ts";
import type { Snapshot } from "./data/types.ts";
import { clip, type Line, line, plain } from "./lines.ts";
import { PANES } from "./panes/mod.ts";
import type { Pane } from "./panes/types.ts";

/** Options of {@link renderOnce}. */
export interface OnceOptions {
  /** Cells per line. */
  width: number;
  clock: Clock;
  panes?: readonly Pane[];
}

function text(lines: Line[], width: number): string[] {
  return lines.map((l) => plain(clip(l, width)).trimEnd());
}

/** Every pane of `snapshot` as plain text: no line wider than `width`, and no key named (none works here). */
export function renderOnce(snapshot: Snapshot, o: OnceOptions): string {
  const panes = o.panes ?? PANES;
  const out = text([line(`poly dash snapshot, ${localStamp(o.clock, snapshot.takenAt)}`)], o.width);
  panes.forEach((pane, i) => {
    const layout = pane.layout({
      snapshot,
      width: o.width,
      height: Infinity,
      cursor: -1,
      filter: "",
      clock: o.clock,
      interactive: false,
    });
    const title = `── ${i + 1} ${pane.title} `;
    out.push("", ...text([line(title + "─".repeat(Math.max(0, o.width - title.length)))], o.width));
    out.push(...text(layout.head, o.width));
    out.push(...text(layout.rows.length === 0 && layout.empty ? layout.empty : layout.rows, o.width));
  });
  return out.join("\n") + "\n";
}
