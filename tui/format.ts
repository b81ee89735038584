/**
 * Plain-value formatting shared by every pane: sizes, counts, durations,
 * percentages, sparklines, and fitting text into a column of terminal cells.
 *
 * @module
 */

/** Bytes as `512 B`, `3.4 KiB`, `1.2 MiB`, `2.0 GiB` (as `poly cache stats` prints them). */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(1)} GiB`;
}

/** A count in at most 5 characters: `999`, `1.2k`, `34k`, `1.2M`. */
export function count(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${(n / 1000).toFixed(1)}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  if (n < 10_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  return `${Math.round(n / 1_000_000)}M`;
}

/** A duration: `850ms`, `12.3s`, `1m02s`, `1h05m`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

/** `part` of `whole` as a whole percentage, or `–` when `whole` is 0. */
export function percent(part: number, whole: number): string {
  return whole > 0 ? `${Math.round((100 * part) / whole)}%` : "–";
}

/** A mean rating as `4.25`, or `–`. */
export function mean(value: number | null | undefined): string {
  return value === null || value === undefined ? "–" : value.toFixed(2);
}

const BLOCKS = "▁▂▃▄▅▆▇█";

/** A sparkline: one cell per value, scaled to the largest; zero is a space-like dot. */
export function spark(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  return values.map((v) => {
    if (v <= 0 || max === 0) return "·";
    return BLOCKS[Math.min(BLOCKS.length - 1, Math.max(0, Math.ceil((v / max) * BLOCKS.length) - 1))];
  }).join("");
}

/** A horizontal bar of `width` cells for `value` out of `max`. */
export function bar(value: number, max: number, width: number): string {
  if (max <= 0 || width <= 0) return "";
  const cells = Math.round((value / max) * width);
  return "█".repeat(Math.max(value > 0 ? 1 : 0, Math.min(width, cells)));
}

// East Asian wide and fullwidth ranges, and emoji: two terminal cells each.
const WIDE: readonly [number, number][] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

function cellWidth(cp: number): number {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp >= 0x300 && cp <= 0x36f) return 0;
  if (cp === 0x200b || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  for (const [lo, hi] of WIDE) if (cp >= lo && cp <= hi) return 2;
  return 1;
}

/** Terminal cells `text` takes. */
export function width(text: string): number {
  let w = 0;
  for (const ch of text) w += cellWidth(ch.codePointAt(0)!);
  return w;
}

/** One line: control characters and runs of whitespace become single spaces. */
export function oneLine(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\s]+/g, " ").trim();
}

/** `text` cut to at most `cells` cells, ending in `…` when cut. */
export function truncate(text: string, cells: number): string {
  if (cells <= 0) return "";
  if (width(text) <= cells) return text;
  let out = "";
  let w = 0;
  for (const ch of text) {
    const cw = cellWidth(ch.codePointAt(0)!);
    if (w + cw > cells - 1) break;
    out += ch;
    w += cw;
  }
  return out + "…";
}

/** `text` cut or padded to exactly `cells` cells. */
export function fit(text: string, cells: number, align: "left" | "right" = "left"): string {
  const cut = truncate(text, cells);
  const pad = " ".repeat(Math.max(0, cells - width(cut)));
  return align === "right" ? pad + cut : cut + pad;
}

/** Words of `text` wrapped into lines of at most `cells` cells (long words are cut). */
export function wrap(text: string, cells: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (width(candidate) <= cells) line = candidate;
      else {
        if (line) out.push(line);
        line = width(word) <= cells ? word : truncate(word, cells);
      }
    }
    out.push(line);
  }
  while (out.length > 1 && out[out.length - 1] === "") out.pop();
  return out;
}

/** `text` cut from the start (`…` first) to at most `cells` cells: the end of a path stays visible. */
export function truncateStart(text: string, cells: number): string {
  if (width(text) <= cells) return text;
  if (cells <= 0) return "";
  const chars = [...text];
  let out = "";
  let w = 0;
  for (let i = chars.length - 1; i >= 0; i--) {
    const cw = width(chars[i]);
    if (w + cw > cells - 1) break;
    out = chars[i] + out;
    w += cw;
  }
  return "…" + out;
}
