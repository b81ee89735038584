/**
 * The `?` screen: every key, and what the current pane adds (its filter fields
 * and actions), wrapped to the width.
 *
 * @module
 */
import { wrap } from "./format.ts";
import { BLANK, type Line, line, seg } from "./lines.ts";
import type { Layout, Pane } from "./panes/types.ts";

function keyLines(items: readonly [string, string][], width: number): Line[] {
  const w = Math.max(...items.map(([k]) => k.length)) + 2;
  return items.flatMap(([k, text]) =>
    wrap(text, Math.max(10, width - w)).map((part, i) => [seg((i === 0 ? k : "").padEnd(w), "accent"), seg(part)])
  );
}

/** The help screen for `pane` among `panes`, `width` cells wide. */
export function helpLayout(panes: readonly Pane[], pane: Pane, width: number): Layout {
  const keys: [string, string][] = [
    [`1–${panes.length}`, `tabs: ${panes.map((p) => p.title).join(", ")}`],
    ["← → h l tab", "previous / next tab"],
    ["j k ↓ ↑", "move the selection, or scroll"],
    ["pgdn pgup space", "a page down / up"],
    ["g G home end", "first / last"],
    ["enter", "details of the selected row (esc goes back)"],
    ["/", "filter this pane: type to narrow, enter keeps, esc restores"],
    ["esc", "leave a view, or clear the filter"],
    ["r", "refresh now (it also refreshes every couple of seconds)"],
    ["?", "this screen"],
    ["q  ctrl-c", "quit"],
  ];
  const own: [string, string][] = [];
  if (pane.filterHelp) own.push(["/ fields", pane.filterHelp]);
  for (const a of pane.actions ?? []) own.push([a.key, `${a.description} — y confirms, any other key cancels`]);
  return {
    head: [line("Keys", "title", true), BLANK],
    rows: [
      ...keyLines(keys, width),
      ...(own.length ? [BLANK, line(`${pane.title} pane`, "title", true), ...keyLines(own, width)] : []),
    ],
    mode: "scroll",
  };
}
