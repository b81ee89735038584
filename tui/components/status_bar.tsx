/**
 * The last row: on the left what the keys do now (or the filter being typed,
 * the question awaiting y/N, a message); on the right when the data was read,
 * or that it could not be refreshed.
 *
 * @module
 */
import { Text } from "ink";
import { clip, type Line, lineWidth, seg } from "../lines.ts";
import { colorOf, type Theme } from "../theme.ts";

/** Props of {@link StatusBar}. */
export interface StatusBarProps {
  left: Line;
  right: Line;
  width: number;
  theme: Theme;
}

/** Cells the right part takes in a row of `width` (it leaves the left part at least 20). */
export function statusRightWidth(right: Line, width: number): number {
  return Math.min(lineWidth(right), Math.max(0, width - 20));
}

/** The status row. */
export function StatusBar({ left, right, width, theme }: StatusBarProps) {
  const rightWidth = statusRightWidth(right, width);
  const r = clip(right, rightWidth);
  const l = clip(left, Math.max(0, width - rightWidth - 1), true);
  const parts = rightWidth > 0 ? [...l, seg(" "), ...r] : clip(left, width);
  return (
    <Text wrap="truncate">
      {parts.map((s, i) => (
        <Text key={i} color={colorOf(theme, s.tone)} bold={theme.styles && s.bold}>
          {s.text}
        </Text>
      ))}
    </Text>
  );
}
