/**
 * The dashboard draws text lines: a pane turns a snapshot into {@link Line}s
 * (segments of text with a tone), and one ink component draws them. Lines are
 * plain values, so a pane's layout can be checked without a terminal and
 * `poly dash --once` prints the very same lines as plain text.
 *
 * @module
 */
import { fit, truncate, truncateStart, width } from "./format.ts";
import type { Tone } from "./theme.ts";

/** A run of text in one style. */
export interface Seg {
  text: string;
  tone?: Tone;
  bold?: boolean;
}

/** One terminal line. */
export type Line = Seg[];

/** A segment. */
export function seg(text: string, tone?: Tone, bold?: boolean): Seg {
  return { text, ...(tone ? { tone } : {}), ...(bold ? { bold } : {}) };
}

/** A line of one segment. */
export function line(text: string, tone?: Tone, bold?: boolean): Line {
  return [seg(text, tone, bold)];
}

/** An empty line. */
export const BLANK: Line = [];

/** The text of a line. */
export function plain(l: Line): string {
  return l.map((s) => s.text).join("");
}

/** Cells a line takes. */
export function lineWidth(l: Line): number {
  return l.reduce((a, s) => a + width(s.text), 0);
}

/** `l` cut to `cells` cells (ending in `…` when cut), optionally padded to exactly `cells`. */
export function clip(l: Line, cells: number, pad = false): Line {
  const total = lineWidth(l);
  if (total <= cells) return pad && total < cells ? [...l, seg(" ".repeat(cells - total))] : [...l];
  const out: Line = [];
  let used = 0;
  for (const s of l) {
    const w = width(s.text);
    if (used + w <= cells - 1) {
      out.push(s);
      used += w;
      continue;
    }
    // Room for part of this segment and the ellipsis.
    const room = cells - used;
    if (room > 0) out.push({ ...s, text: truncate(s.text + " ".repeat(room + 1), room) });
    break;
  }
  return out;
}

/** One column of a {@link table}. */
export interface Column {
  title: string;
  /** Cells; the flexible column takes what the others leave. */
  width: number;
  align?: "left" | "right";
  /** Takes the remaining width (at least `width`). */
  flex?: boolean;
  /** Where a long value is cut: at the end (default) or at the start (paths). */
  cut?: "end" | "start";
}

/** One cell: text, styled text, or a function of the column's width (bars). */
export type Cell = string | Seg | ((cells: number) => string | Seg);

/** One row: a cell per column. */
export type Row = Cell[];

/**
 * The widths of `columns` in `total` cells (one space between columns); columns that do not fit, even narrowed to
 * their values, are dropped from the end. `needs` (cells each column's header and values take, undefined when unknown) decides who gets the spare width:
 * first the columns whose values would be cut, evenly up to what each needs — taking the slack of columns wider than
 * their values when that is not enough — then the flexible column.
 */
export function columnWidths(
  columns: readonly Column[],
  total: number,
  needs: readonly (number | undefined)[] = [],
): number[] {
  let widths = columns.map((c) => c.width);
  const sum = () => widths.reduce((a, w) => a + w, 0) + Math.max(0, widths.length - 1);
  const need = (i: number) => needs[i];
  // Too narrow: columns wider than their values give up the difference, then trailing columns go until it fits.
  if (sum() > total) widths = widths.map((w, i) => Math.min(w, need(i) ?? w));
  while (sum() > total && widths.length > 1) widths.pop();
  const short = (i: number) => need(i) !== undefined && need(i)! > widths[i];
  if (widths.some((_w, i) => short(i))) {
    // Columns wider than their values give the difference to the ones that are cut.
    for (let i = 0; i < widths.length; i++) {
      if (need(i) !== undefined && need(i)! < widths[i]) widths[i] = need(i)!;
    }
  }
  let spare = total - sum();
  while (spare > 0) {
    const cut = widths.map((_w, i) => i).filter(short);
    if (cut.length === 0) break;
    const share = Math.max(1, Math.floor(spare / cut.length));
    for (const i of cut) {
      const give = Math.min(share, need(i)! - widths[i], spare);
      widths[i] += give;
      spare -= give;
      if (spare === 0) break;
    }
  }
  const flex = columns.findIndex((c) => c.flex);
  if (spare > 0 && flex >= 0 && flex < widths.length) widths[flex] += spare;
  return widths;
}

/** Cells each column's header and values take (undefined for a column drawn by a function). */
export function columnNeeds(columns: readonly Column[], rows: readonly Row[]): (number | undefined)[] {
  return columns.map((c, i) => {
    let most = width(c.title);
    for (const r of rows) {
      const cell = r[i];
      if (typeof cell === "function") return undefined;
      if (cell !== undefined) most = Math.max(most, width(typeof cell === "string" ? cell : cell.text));
    }
    return most;
  });
}

/** A header line and a line per row, fitted to `total` cells, and the widths of the columns shown. */
export function table(
  columns: readonly Column[],
  rows: readonly Row[],
  total: number,
): { header: Line; rows: Line[]; widths: number[] } {
  const widths = columnWidths(columns, total, columnNeeds(columns, rows));
  const render = (cells: readonly Cell[], header: boolean): Line => {
    const out: Line = [];
    widths.forEach((w, i) => {
      const given = cells[i] ?? "";
      const c = typeof given === "function" ? given(w) : given;
      const s = typeof c === "string" ? seg(c) : c;
      const value = columns[i].cut === "start" && !header ? truncateStart(s.text, w) : s.text;
      const text = fit(value, w, columns[i].align ?? "left");
      out.push(header ? seg(text, "dim", true) : { ...s, text });
      if (i < widths.length - 1) out.push(seg(" "));
    });
    return out;
  };
  return { header: render(columns.map((c) => c.title), true), rows: rows.map((r) => render(r, false)), widths };
}

/** Two columns of lines side by side: `left` padded to `leftWidth`, then `gap` spaces. */
export function sideBySide(left: readonly Line[], right: readonly Line[], leftWidth: number, gap = 2): Line[] {
  const n = Math.max(left.length, right.length);
  const out: Line[] = [];
  for (let i = 0; i < n; i++) {
    out.push([...clip(left[i] ?? BLANK, leftWidth, true), seg(" ".repeat(gap)), ...(right[i] ?? BLANK)]);
  }
  return out;
}

/** Label–value pairs as lines: labels padded to the longest. */
export function pairs(items: readonly [string, string | Line][], tone: Tone = "dim"): Line[] {
  const w = Math.max(0, ...items.map(([k]) => width(k)));
  return items.map(([k, v]) => [seg(k.padEnd(w + 2), tone), ...(typeof v === "string" ? [seg(v)] : v)]);
}
