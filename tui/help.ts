/**
 * The `?` screen: every key, and what the current pane adds (its filter fields
 * and actions).
 *
 * @module
 */
import { BLANK, type Line, line, pairs } from "./lines.ts";
import type { Layout, Pane } from "./panes/types.ts";

/** The help screen for `pane` among `panes`. */
export function helpLayout(panes: readonly Pane[], pane: Pane): Layout {
  const global = pairs([
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
  ], "accent");
  const own: Line[] = [];
  if (pane.filterHelp) own.push(...pairs([["/ fields", pane.filterHelp]], "accent"));
  for (const a of pane.actions ?? []) {
    own.push(...pairs([[a.key, `${a.description} — y confirms, any other key cancels`]], "accent"));
  }
  return {
    head: [line("Keys", "title", true), BLANK],
    rows: [...global, ...(own.length ? [BLANK, line(`${pane.title} pane`, "title", true), ...own] : [])],
    mode: "scroll",
  };
}
