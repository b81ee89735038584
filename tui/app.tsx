/**
 * The dashboard: a tab row, the current pane, a status row. It polls the
 * snapshot source, sizes itself to the terminal (and follows resizes), and
 * feeds keys to the pure reducer in `keys.ts`, carrying out its effects.
 *
 * @module
 */
import { Box, Text, useApp, useInput, useWindowSize } from "ink";
import { useEffect, useRef, useState } from "react";
import { type Clock, localStamp } from "./clock.ts";
import { helpLayout } from "./help.ts";
import { type SnapshotSource, useSnapshot } from "./hooks/use-snapshot.ts";
import { type Effect, initialUi, type KeyContext, reduce, splitKeys, type UiState } from "./keys.ts";
import { type Line, line, lineWidth, seg } from "./lines.ts";
import { PANES } from "./panes/mod.ts";
import { type Layout, type Pane, type PaneProps, positions } from "./panes/types.ts";
import type { Snapshot } from "./data/types.ts";
import type { Theme } from "./theme.ts";
import { PaneView } from "./components/pane_view.tsx";
import { StatusBar, statusRightWidth } from "./components/status_bar.tsx";
import { TabBar } from "./components/tab_bar.tsx";

/** The smallest terminal the dashboard draws in. */
export const MIN_SIZE = { columns: 40, rows: 8 } as const;

/** Props of {@link Dashboard}. */
export interface DashboardProps {
  source: SnapshotSource;
  clock: Clock;
  theme: Theme;
  /** Milliseconds between refreshes (0: only on `r`). */
  intervalMs: number;
  /** A snapshot to show before the first load finishes. */
  initial?: Snapshot;
  panes?: readonly Pane[];
  initialTab?: number;
}

/** As many of `parts` as fit in `room` cells, joined by ` · ` (the first always, cut if it must be). */
export function fitHints(parts: readonly string[], room: number): string {
  let out = "";
  for (const part of parts) {
    const next = out ? `${out} · ${part}` : part;
    if (out && lineWidth(line(next)) > room) break;
    out = next;
  }
  return out;
}

function hints(pane: Pane, ui: UiState, panes: number): string[] {
  // Most useful first: what does not fit is left out, whole (? lists every key).
  const parts = ["q quit", "? keys"];
  if (pane.filterHelp) parts.push(ui.filters[ui.tab] ? "esc clears filter" : "/ filter");
  if (pane.detail) parts.push("enter details");
  for (const a of pane.actions ?? []) parts.push(`${a.key} ${a.hint}`);
  parts.push(`1-${panes} ←→ tabs`, "↑↓ move");
  return parts;
}

function statusLeft(pane: Pane, ui: UiState, panes: number, room: number): Line {
  if (ui.mode === "filter") {
    const typed: Line = [seg("/", "accent", true), seg(ui.filters[ui.tab]), seg("▏", "accent")];
    const rest = room - lineWidth(typed) - 2;
    const more = rest > 0 ? fitHints(["enter keeps", "esc restores"], rest) : "";
    return more && lineWidth(line(more)) <= rest ? [...typed, seg(`  ${more}`, "dim")] : typed;
  }
  if (ui.mode === "confirm" && ui.pending) {
    return [seg(ui.pending.question, "warn", true), seg(" y/N", undefined, true)];
  }
  if (ui.message) return line(ui.message, "accent");
  if (ui.mode === "detail") return line(fitHints(["esc back", "q quit", "↑↓ scroll", "r refresh"], room), "dim");
  if (ui.mode === "help") return line(fitHints(["esc back", "q quit", "↑↓ scroll"], room), "dim");
  return line(fitHints(hints(pane, ui, panes), room), "dim");
}

function statusRight(snapshot: Snapshot | undefined, error: string | undefined, clock: Clock): Line {
  if (error) return line(`refresh failed: ${error}`, "bad");
  if (!snapshot) return line("loading…", "dim");
  const stale = [snapshot.fleet, snapshot.gateway, snapshot.cache].find((s) => s.error);
  if (stale) return line(`not refreshed: ${stale.error!.message}`, "warn");
  return line(`updated ${localStamp(clock, snapshot.takenAt).slice(11)}`, "dim");
}

/** The dashboard. */
export function Dashboard(
  { source, clock, theme, intervalMs, initial, panes = PANES, initialTab = 0 }: DashboardProps,
) {
  const { columns, rows } = useWindowSize();
  const { exit: leave } = useApp();
  // Quitting draws an empty frame first, so the screen is clear when ink leaves the alternate screen: a terminal
  // resized while it was shown (tmux) otherwise brings rows of the last frame back onto the normal screen.
  const [quitting, setQuitting] = useState(false);
  useEffect(() => {
    if (quitting) leave();
  }, [quitting]);
  const exit = () => setQuitting(true);
  const live = useSnapshot(source, intervalMs, initial);
  const [ui, setUi] = useState<UiState>(() => initialUi(panes.length, initialTab));
  const uiRef = useRef(ui);
  const ctxRef = useRef<KeyContext | undefined>(undefined);
  const detailShownRef = useRef(false);
  // The selected row of each tab by its key, so rows arriving or leaving on a refresh do not move the selection.
  const selectedKeys = useRef<(string | undefined)[]>([]);
  const shownKeys = useRef<string[] | undefined>(undefined);

  const update = (next: UiState | ((prev: UiState) => UiState)) => {
    uiRef.current = typeof next === "function" ? next(uiRef.current) : next;
    setUi(uiRef.current);
  };

  const perform = (effect: Effect) => {
    if (effect.kind === "quit") exit();
    else if (effect.kind === "refresh") {
      void live.refresh({ force: true }).then(() =>
        update((s) => (s.message === "Refreshing…" ? { ...s, message: undefined } : s))
      );
    } else {
      void Promise.resolve().then(() => effect.action.run()).then(
        (message) => update((s) => ({ ...s, message })),
        (e) => update((s) => ({ ...s, message: `Failed: ${e instanceof Error ? e.message : String(e)}` })),
      ).then(() => live.refresh({ fresh: true }));
    }
  };

  useInput((input, key) => {
    const ctx = ctxRef.current;
    if (!ctx) {
      if (input === "q" || (key.ctrl && input === "c")) exit();
      return;
    }
    for (const [one, info] of splitKeys(input, key)) {
      // A detail whose row went away is a list again.
      const current = uiRef.current.mode === "detail" && !detailShownRef.current
        ? { ...uiRef.current, mode: "list" as const }
        : uiRef.current;
      const { state, effects } = reduce(current, one, info, ctx);
      const tab = state.tab;
      if (state.filters[tab] !== current.filters[tab]) selectedKeys.current[tab] = undefined;
      else if (tab === current.tab && state.cursors[tab] !== current.cursors[tab]) {
        selectedKeys.current[tab] = shownKeys.current?.[state.cursors[tab]];
      }
      update(state);
      for (const e of effects) perform(e);
      if (effects.some((e) => e.kind === "quit")) break;
    }
  });

  if (quitting) return null;

  if (columns < MIN_SIZE.columns || rows < MIN_SIZE.rows) {
    ctxRef.current = undefined;
    return (
      <Text>{`poly dash needs at least ${MIN_SIZE.columns}×${MIN_SIZE.rows} (now ${columns}×${rows}); q quits`}</Text>
    );
  }

  const pane = panes[ui.tab];
  const bodyHeight = rows - 2;
  const snapshot = live.snapshot;
  let view: Layout;
  let cursor: number;
  let highlight = true;
  let detailShown = false;
  if (!snapshot) {
    view = { head: [], rows: [line("Reading the state database and the caches…", "dim")], mode: "scroll" };
    cursor = 0;
  } else {
    const base: PaneProps = {
      snapshot,
      // The gutter takes one cell.
      width: columns - 1,
      height: bodyHeight,
      cursor: 0,
      filter: ui.filters[ui.tab],
      clock,
    };
    const list = pane.layout(base);
    const keys = pane.keys?.(base);
    const kept = selectedKeys.current[ui.tab];
    const found = keys && kept !== undefined ? keys.indexOf(kept) : -1;
    const listCursor = found >= 0 ? found : Math.max(0, Math.min(ui.cursors[ui.tab], positions(list, bodyHeight) - 1));
    if (listCursor !== uiRef.current.cursors[ui.tab]) {
      const cursors = [...uiRef.current.cursors];
      cursors[ui.tab] = listCursor;
      uiRef.current = { ...uiRef.current, cursors };
    }
    shownKeys.current = keys;
    if (keys) selectedKeys.current[ui.tab] = keys[listCursor];
    const props = { ...base, cursor: listCursor };
    const detail = ui.mode === "detail" ? pane.detail?.(props) : undefined;
    if (ui.mode === "help") {
      view = helpLayout(panes, pane, columns - 1);
      cursor = ui.scroll;
      highlight = false;
    } else if (detail) {
      view = detail;
      cursor = ui.scroll;
      detailShown = true;
    } else {
      view = list;
      cursor = listCursor;
    }
    const canDetail = pane.detail !== undefined && list.mode === "select" && list.rows.length > 0 &&
      pane.detail(props) !== undefined;
    ctxRef.current = {
      panes: panes.length,
      positions: positions(view, bodyHeight),
      page: Math.max(1, bodyHeight - view.head.length - 1),
      canDetail,
      canFilter: pane.filterHelp !== undefined,
      action: (k) => pane.actions?.find((a) => a.key === k)?.prepare(props),
    };
  }
  if (!snapshot) {
    ctxRef.current = {
      panes: panes.length,
      positions: 1,
      page: 1,
      canDetail: false,
      canFilter: false,
      action: () => undefined,
    };
  }
  // A detail whose row went away (filtered out, deleted) falls back to the list.
  detailShownRef.current = detailShown;
  const shownUi = ui.mode === "detail" && !detailShown ? { ...ui, mode: "list" as const } : ui;
  const right = shownUi.mode === "confirm" ? [] : statusRight(snapshot, live.error, clock);

  return (
    <Box flexDirection="column" width={columns} height={rows}>
      <TabBar titles={panes.map((p) => p.title)} active={ui.tab} width={columns} theme={theme} />
      <PaneView layout={view} width={columns} height={bodyHeight} cursor={cursor} theme={theme} highlight={highlight} />
      <StatusBar
        left={statusLeft(
          pane,
          shownUi,
          panes.length,
          columns - (right.length ? statusRightWidth(right, columns) + 1 : 0),
        )}
        right={right}
        width={columns}
        theme={theme}
      />
    </Box>
  );
}
