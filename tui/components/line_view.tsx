/**
 * Draws one {@link Line} in exactly one terminal row: cut to the width, styled by
 * the theme, and shown inverse when selected.
 *
 * @module
 */
import { Text } from "ink";
import { clip, type Line, seg } from "../lines.ts";
import { colorOf, type Theme } from "../theme.ts";

/** Props of {@link LineView}. */
export interface LineViewProps {
  line: Line;
  width: number;
  theme: Theme;
  selected?: boolean;
}

/** One line of the dashboard. */
export function LineView({ line, width, theme, selected = false }: LineViewProps) {
  // A selected line is padded so the highlight spans the pane; an empty line still takes its row.
  const parts = clip(line, width, selected);
  if (parts.length === 0) parts.push(seg(" "));
  return (
    <Text wrap="truncate" inverse={selected && theme.styles}>
      {parts.map((s, i) => (
        <Text key={i} color={colorOf(theme, s.tone)} bold={theme.styles && s.bold}>
          {s.text}
        </Text>
      ))}
    </Text>
  );
}
