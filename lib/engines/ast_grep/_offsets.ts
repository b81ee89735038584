/**
 * UTF-16 indexes (what @ast-grep/napi reports for a JavaScript string) to UTF-8
 * byte offsets (what a report's fix edits use).
 *
 * @module
 */

/** Converts UTF-16 indexes of one text to UTF-8 byte offsets. */
export function utf8Offsets(text: string): (index: number) => number {
  // deno-lint-ignore no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return (index) => index;
  const table = new Uint32Array(text.length + 1);
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    table[i] = bytes;
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        table[++i] = bytes - 2; // inside a pair: not a real boundary
        continue;
      }
      bytes += 3;
    } else bytes += 3;
  }
  table[text.length] = bytes;
  return (index) => table[Math.max(0, Math.min(index, text.length))];
}
