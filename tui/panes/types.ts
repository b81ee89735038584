/**
 * What a pane is: a title, and a function from a snapshot to a {@link Layout}
 * of lines; optionally a detail view, a filter and actions. A new pane is one
 * file exporting a {@link Pane} and one entry in `panes/mod.ts`.
 *
 * @module
 */
import type { Clock } from "../clock.ts";
import type { Snapshot } from "../data/types.ts";
import type { Line } from "../lines.ts";

/** What a pane is drawn from. */
export interface PaneProps {
  snapshot: Snapshot;
  /** Cells available. */
  width: number;
  /** Lines available (Infinity: everything, as `--once` prints it). */
  height: number;
  /** The selected row (select panes) or the first line shown (scroll panes). */
  cursor: number;
  /** The pane's `/` filter ("" for none). */
  filter: string;
  clock: Clock;
  /** Whether keys work (the live dashboard; false for `--once`): panes name keys only when they do. */
  interactive?: boolean;
}

/**
 * A pane's lines: `head` always shown, then `rows` in the remaining height —
 * a window around the selected row (`select`) or from the cursor on (`scroll`).
 */
export interface Layout {
  head: Line[];
  rows: Line[];
  mode: "select" | "scroll";
  /** Shown instead of the rows when there are none. */
  empty?: Line[];
}

/** An action awaiting confirmation. */
export interface PreparedAction {
  /** The question the person answers with y. */
  question: string;
  /** Does it; resolves to the message shown afterwards. */
  run(): Promise<string>;
}

/** A key a pane handles itself (after a confirmation). */
export interface PaneAction {
  key: string;
  /** Two or three words for the status row ("clean"). */
  hint: string;
  /** A sentence for the help screen. */
  description: string;
  /** The action for the selected row, or a message saying why there is none. */
  prepare(props: PaneProps): PreparedAction | string;
}

/** One tab of the dashboard. */
export interface Pane {
  id: string;
  title: string;
  layout(props: PaneProps): Layout;
  /** A stable key per row of a select layout, in row order (the selection follows its row across refreshes). */
  keys?(props: PaneProps): string[];
  /** The detail view of the selected row (enter); undefined when nothing is selected. */
  detail?(props: PaneProps): Layout | undefined;
  /** What `/` filters by, for the help screen; absent when the pane has no filter. */
  filterHelp?: string;
  actions?: readonly PaneAction[];
}

/** Lines the rows get in `height`, and whether they overflow (one line then says which are shown). */
export function rowSpace(layout: Layout, height: number): { visible: number; overflow: boolean } {
  const room = Math.max(1, height - layout.head.length);
  if (layout.rows.length <= room) return { visible: room, overflow: false };
  return { visible: Math.max(1, room - 1), overflow: true };
}

/** How many cursor positions a layout has in `height` (rows to select, or first lines to scroll to). */
export function positions(layout: Layout, height: number): number {
  if (layout.mode === "select") return layout.rows.length;
  const { visible } = rowSpace(layout, height);
  return Math.max(1, layout.rows.length - visible + 1);
}

/** The first row shown and how many, for `cursor` in `height`. */
export function windowOf(
  layout: Layout,
  height: number,
  cursor: number,
): { top: number; count: number; overflow: boolean } {
  const { visible, overflow } = rowSpace(layout, height);
  const n = layout.rows.length;
  const maxTop = Math.max(0, n - visible);
  const top = layout.mode === "select"
    ? Math.min(maxTop, Math.max(0, cursor - Math.floor(visible / 2)))
    : Math.min(maxTop, Math.max(0, cursor));
  return { top, count: Math.min(visible, n - top), overflow };
}
