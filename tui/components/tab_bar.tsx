/**
 * The first row: the program's name and a tab per pane (number and title), the
 * current one highlighted and bracketed (visible without colour). When the row is too narrow the name goes first, then
 * the other tabs' titles shorten to three letters, then to their numbers.
 *
 * @module
 */
import { Text } from "ink";
import { width as cells } from "../format.ts";
import { colorOf, type Theme } from "../theme.ts";

/** Props of {@link TabBar}. */
export interface TabBarProps {
  titles: readonly string[];
  active: number;
  width: number;
  theme: Theme;
}

/** The labels of the tabs and whether the name fits, for `width` cells. */
export function tabLabels(
  titles: readonly string[],
  active: number,
  width: number,
): { brand: boolean; labels: string[] } {
  const full = titles.map((t, i) => ` ${i + 1} ${t} `);
  const size = (labels: string[], brand: boolean) => labels.reduce((a, l) => a + cells(l), 0) + (brand ? 11 : 0);
  if (size(full, true) <= width) return { brand: true, labels: full };
  if (size(full, false) <= width) return { brand: false, labels: full };
  const short = titles.map((t, i) => (i === active ? full[i] : ` ${i + 1} ${t.slice(0, 3)} `));
  if (size(short, false) <= width) return { brand: false, labels: short };
  return { brand: false, labels: titles.map((_t, i) => (i === active ? full[i] : ` ${i + 1} `)) };
}

/** The tab row. */
export function TabBar({ titles, active, width, theme }: TabBarProps) {
  const { brand, labels } = tabLabels(titles, active, width);
  return (
    <Text wrap="truncate">
      {brand
        ? (
          <Text color={colorOf(theme, "title")} bold={theme.styles}>
            {" poly dash "}
          </Text>
        )
        : null}
      {labels.map((l, i) =>
        i === active
          ? (
            <Text key={i} inverse={theme.styles} bold={theme.styles} color={colorOf(theme, "accent")}>
              {`[${l.slice(1, -1)}]`}
            </Text>
          )
          : <Text key={i} color={colorOf(theme, "dim")}>{l}</Text>
      )}
    </Text>
  );
}
