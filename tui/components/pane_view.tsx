/**
 * Draws a pane's {@link Layout} in a fixed number of rows: the head, then the
 * window of rows around the cursor, and a last line saying which rows are shown
 * when they do not all fit. A one-cell gutter on the left marks the selected row
 * with `›` (visible without colour), so panes lay out in `width - 1` cells.
 *
 * @module
 */
import { Box, Text } from "ink";
import { type Line, line } from "../lines.ts";
import { type Layout, windowOf } from "../panes/types.ts";
import { colorOf, type Theme } from "../theme.ts";
import { LineView } from "./line_view.tsx";

/** Props of {@link PaneView}. */
export interface PaneViewProps {
  layout: Layout;
  width: number;
  height: number;
  cursor: number;
  theme: Theme;
  /** Highlight the selected row (select layouts). */
  highlight?: boolean;
}

/** A pane's body. */
export function PaneView({ layout, width, height, cursor, theme, highlight = true }: PaneViewProps) {
  const rows = layout.rows.length === 0 && layout.empty
    ? { ...layout, rows: layout.empty, mode: "scroll" as const }
    : layout;
  const { top, count, overflow } = windowOf(rows, height, cursor);
  const shown = rows.rows.slice(top, top + count);
  const selectable = rows.mode === "select" && highlight;
  const more = overflow
    ? line(
      `  ${top + 1}–${top + count} of ${rows.rows.length}${top + count < rows.rows.length ? " · more below" : ""}${
        top > 0 ? " · more above" : ""
      }`,
      "dim",
    )
    : undefined;
  const inner = Math.max(1, width - 1);
  const row = (key: string, l: Line, selected = false) => (
    <Box key={key} width={width} height={1}>
      <Text color={selected ? colorOf(theme, "accent") : undefined} bold={selected && theme.styles}>
        {selected ? "›" : " "}
      </Text>
      <LineView line={l} width={inner} theme={theme} selected={selected} />
    </Box>
  );
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      {rows.head.slice(0, height).map((l, i) => row(`h${i}`, l))}
      {shown.map((l, i) => row(`r${top + i}`, l, selectable && top + i === cursor))}
      {more ? row("more", more) : null}
    </Box>
  );
}
