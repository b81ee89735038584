/**
 * The keyboard, as a pure function: (state, key, context) → (state, effects).
 * The dashboard component feeds it ink's key events and carries out the
 * effects (quit, refresh, run a confirmed action), so every binding can be
 * tested with plain values.
 *
 * | key | does |
 * |---|---|
 * | 1–9, ←/→, h/l, tab/shift-tab | switch tabs |
 * | j/k, ↓/↑, pgdn/pgup, g/G, home/end | move the selection (or scroll) |
 * | / | filter the pane (typing filters live; enter keeps, esc restores) |
 * | enter | details of the selected row; esc goes back |
 * | r | refresh now (and look the host tools up again) |
 * | ? | the keys |
 * | q, ctrl-c | quit |
 * | pane keys (c on Cache) | an action, after a y/N confirmation |
 *
 * @module
 */
import type { PreparedAction } from "./panes/types.ts";

/** What the keys currently act on. */
export type Mode = "list" | "detail" | "filter" | "help" | "confirm";

/** The dashboard's interface state. */
export interface UiState {
  tab: number;
  /** Selected row (or first line) per pane. */
  cursors: number[];
  /** `/` filter per pane. */
  filters: string[];
  mode: Mode;
  /** The filter before `/` was pressed (restored by esc). */
  filterBefore: string;
  /** First line of the detail view or help screen. */
  scroll: number;
  /** A one-line message for the status bar (cleared by the next key). */
  message?: string;
  /** The action awaiting y/N. */
  pending?: PreparedAction;
}

/** The parts of ink's `Key` the reducer reads. */
export interface KeyInfo {
  upArrow?: boolean;
  downArrow?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  home?: boolean;
  end?: boolean;
  return?: boolean;
  escape?: boolean;
  tab?: boolean;
  shift?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  meta?: boolean;
}

/** What the reducer needs to know about the screen. */
export interface KeyContext {
  /** Number of panes. */
  panes: number;
  /** Cursor positions of what is shown (rows, or scroll positions in detail and help). */
  positions: number;
  /** Rows a page moves. */
  page: number;
  /** The current pane has a detail view for its selection. */
  canDetail: boolean;
  /** The current pane has a filter. */
  canFilter: boolean;
  /** The current pane's action for `key`: prepared, a message why not, or undefined when `key` is not one. */
  action(key: string): PreparedAction | string | undefined;
}

/** What the component does after a key. */
export type Effect =
  | { kind: "quit" }
  | { kind: "refresh" }
  | { kind: "run"; action: PreparedAction };

/** A fresh state for `panes` panes. */
export function initialUi(panes: number, tab = 0): UiState {
  return {
    tab,
    cursors: Array(panes).fill(0),
    filters: Array(panes).fill(""),
    mode: "list",
    filterBefore: "",
    scroll: 0,
  };
}

function clamp(n: number, positions: number): number {
  return Math.max(0, Math.min(n, positions - 1));
}

/** Movement keys: the new position, or undefined when `input`/`key` is not one. */
function moved(current: number, input: string, key: KeyInfo, ctx: KeyContext): number | undefined {
  if (key.downArrow || input === "j") return clamp(current + 1, ctx.positions);
  if (key.upArrow || input === "k") return clamp(current - 1, ctx.positions);
  if (key.pageDown || input === " ") return clamp(current + Math.max(1, ctx.page), ctx.positions);
  if (key.pageUp) return clamp(current - Math.max(1, ctx.page), ctx.positions);
  if (key.home || input === "g") return 0;
  if (key.end || input === "G") return clamp(ctx.positions - 1, ctx.positions);
  return undefined;
}

/** Tab keys: the new tab, or undefined. */
function tabbed(tab: number, input: string, key: KeyInfo, panes: number): number | undefined {
  if (/^[1-9]$/.test(input) && Number(input) <= panes) return Number(input) - 1;
  if (key.rightArrow || input === "l" || (key.tab && !key.shift)) return (tab + 1) % panes;
  if (key.leftArrow || input === "h" || (key.tab && key.shift)) return (tab + panes - 1) % panes;
  return undefined;
}

function withCursor(s: UiState, value: number): UiState {
  const cursors = [...s.cursors];
  cursors[s.tab] = value;
  return { ...s, cursors };
}

function withFilter(s: UiState, value: string): UiState {
  const filters = [...s.filters];
  filters[s.tab] = value;
  return withCursor({ ...s, filters }, 0);
}

/** Applies one key. */
export function reduce(
  state: UiState,
  input: string,
  key: KeyInfo,
  ctx: KeyContext,
): { state: UiState; effects: Effect[] } {
  const s: UiState = { ...state, message: undefined };
  const none = (next: UiState) => ({ state: next, effects: [] as Effect[] });
  if (key.ctrl && input === "c") return { state: s, effects: [{ kind: "quit" }] };

  switch (s.mode) {
    case "confirm": {
      const pending = s.pending;
      const back: UiState = { ...s, mode: "list", pending: undefined };
      if (pending && (input === "y" || input === "Y")) {
        return { state: { ...back, message: "Working…" }, effects: [{ kind: "run", action: pending }] };
      }
      return none({ ...back, message: "Cancelled: nothing was changed." });
    }
    case "filter": {
      if (key.escape) return none({ ...withFilter(s, s.filterBefore), mode: "list" });
      if (key.return) return none({ ...withFilter(s, s.filters[s.tab].trim()), mode: "list" });
      if (key.backspace || key.delete) return none(withFilter(s, s.filters[s.tab].slice(0, -1)));
      if (key.ctrl || key.meta || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.tab) {
        return none(s);
      }
      // deno-lint-ignore no-control-regex
      const typed = input.replace(/[\u0000-\u001f\u007f]/g, "");
      return none(typed ? withFilter(s, s.filters[s.tab] + typed) : s);
    }
    case "help": {
      if (input === "q") return { state: s, effects: [{ kind: "quit" }] };
      if (key.escape || input === "?" || key.return) return none({ ...s, mode: "list", scroll: 0 });
      const m = moved(s.scroll, input, key, ctx);
      return none(m === undefined ? s : { ...s, scroll: m });
    }
    case "detail": {
      if (input === "q") return { state: s, effects: [{ kind: "quit" }] };
      if (key.escape || key.backspace || key.delete || key.return) return none({ ...s, mode: "list", scroll: 0 });
      if (input === "?") return none({ ...s, mode: "help", scroll: 0 });
      if (input === "r") return { state: s, effects: [{ kind: "refresh" }] };
      const t = tabbed(s.tab, input, key, ctx.panes);
      if (t !== undefined) return none({ ...s, tab: t, mode: "list", scroll: 0 });
      const m = moved(s.scroll, input, key, ctx);
      return none(m === undefined ? s : { ...s, scroll: m });
    }
    case "list": {
      if (input === "q") return { state: s, effects: [{ kind: "quit" }] };
      if (input === "?") return none({ ...s, mode: "help", scroll: 0 });
      if (input === "r") return { state: { ...s, message: "Refreshing…" }, effects: [{ kind: "refresh" }] };
      const t = tabbed(s.tab, input, key, ctx.panes);
      if (t !== undefined) return none({ ...s, tab: t });
      const m = moved(s.cursors[s.tab], input, key, ctx);
      if (m !== undefined) return none(withCursor(s, m));
      if (input === "/") {
        if (!ctx.canFilter) return none({ ...s, message: "This pane has no filter." });
        return none({ ...s, mode: "filter", filterBefore: s.filters[s.tab] });
      }
      if (key.return) {
        if (!ctx.canDetail) return none({ ...s, message: "Nothing to show in detail here." });
        return none({ ...s, mode: "detail", scroll: 0 });
      }
      if (key.escape) return none(s.filters[s.tab] ? withFilter(s, "") : s);
      if (input && !key.ctrl && !key.meta) {
        const action = ctx.action(input);
        if (typeof action === "string") return none({ ...s, message: action });
        if (action) return none({ ...s, mode: "confirm", pending: action });
      }
      return none(s);
    }
  }
}

const SPECIAL: Record<string, KeyInfo> = {
  "\r": { return: true },
  "\n": { return: true },
  "\t": { tab: true },
  "\x7f": { backspace: true },
  "\b": { backspace: true },
  "\x1b": { escape: true },
};

/**
 * One key per event. A terminal (or tmux, or fast typing) can deliver several
 * keys in one read — `j` then enter arrives as `"j\r"` — and ink hands such a
 * chunk over as one input; the dashboard has no text field where that matters,
 * so it is taken a character at a time (enter, tab, backspace and escape as keys).
 */
export function splitKeys(input: string, key: KeyInfo): [string, KeyInfo][] {
  const flagged = Object.entries(key).some(([k, v]) => v === true && k !== "shift");
  if ([...input].length <= 1 || flagged) return [[input, key]];
  return [...input].map((ch): [string, KeyInfo] => (SPECIAL[ch] ? ["", SPECIAL[ch]] : [ch, {}]));
}
