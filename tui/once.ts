/**
 * `poly dash --once`: one plain-text snapshot of every pane, for pipes, CI and
 * agents — the same lines the panes draw, without colour, every row included.
 *
 * @module
 */
import { type Clock, localStamp } from "./clock.ts";
import type { Snapshot } from "./data/types.ts";
import { type Line, plain } from "./lines.ts";
import { PANES } from "./panes/mod.ts";
import type { Pane } from "./panes/types.ts";

/** Options of {@link renderOnce}. */
export interface OnceOptions {
  /** Cells per line. */
  width: number;
  clock: Clock;
  panes?: readonly Pane[];
}

function text(lines: Line[]): string[] {
  return lines.map((l) => plain(l).trimEnd());
}

/** Every pane of `snapshot` as plain text. */
export function renderOnce(snapshot: Snapshot, o: OnceOptions): string {
  const panes = o.panes ?? PANES;
  const out = [`poly dash snapshot, ${localStamp(o.clock, snapshot.takenAt)}`];
  panes.forEach((pane, i) => {
    const layout = pane.layout({ snapshot, width: o.width, height: Infinity, cursor: -1, filter: "", clock: o.clock });
    const title = `── ${i + 1} ${pane.title} `;
    out.push("", title + "─".repeat(Math.max(0, o.width - title.length)));
    out.push(...text(layout.head));
    out.push(...text(layout.rows.length === 0 && layout.empty ? layout.empty : layout.rows));
  });
  return out.join("\n") + "\n";
}
