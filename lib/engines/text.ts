/**
 * Position arithmetic shared by engines: UTF-16 indices (JavaScript strings),
 * 1-based line/column pairs (reports) and UTF-8 byte offsets (fix edits).
 *
 * @module
 */

/** Index of the first character of every line. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line and column (UTF-16 units) of a string index. */
export function indexToPosition(starts: number[], index: number): { line: number; col: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= index) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, col: index - starts[lo] + 1 };
}

/** String index of a 1-based line and column (UTF-16 units); clamps to the text. */
export function positionToIndex(starts: number[], line: number, col: number, textLength: number): number {
  const lineIndex = Math.min(Math.max(line - 1, 0), starts.length - 1);
  return Math.min(starts[lineIndex] + Math.max(col - 1, 0), textLength);
}

/** Converts UTF-16 string indices to UTF-8 byte offsets (sorted input not required). */
export function utf16ToBytes(text: string, indices: number[]): number[] {
  return convertOffsets(text, indices, "utf16");
}

/** Converts UTF-8 byte offsets into UTF-16 string indices (sorted input not required). */
export function bytesToUtf16(text: string, offsets: number[]): number[] {
  return convertOffsets(text, offsets, "bytes");
}

/** One walk over `text` that turns offsets counted in `from` units into the other unit. */
function convertOffsets(text: string, values: number[], from: "utf16" | "bytes"): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length);
  let bytes = 0;
  let pos = 0;
  for (const [target, slot] of order) {
    while ((from === "bytes" ? bytes : pos) < target && pos < text.length) {
      const code = text.codePointAt(pos)!;
      bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
      pos += code >= 0x10000 ? 2 : 1;
    }
    out[slot] = from === "bytes" ? pos : bytes;
  }
  return out;
}

/** A replacement of `text.slice(start, end)` (UTF-16 indices). */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * Applies non-overlapping edits. Edits that overlap an earlier-starting edit are
 * dropped and counted, so a caller can re-run the engine to pick them up.
 */
export function applyEdits(text: string, edits: TextEdit[]): { text: string; applied: number; dropped: number } {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = "";
  let cursor = 0;
  let applied = 0;
  let dropped = 0;
  for (const edit of sorted) {
    if (edit.start < cursor) {
      dropped++;
      continue;
    }
    out += text.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
    applied++;
  }
  return { text: out + text.slice(cursor), applied, dropped };
}
