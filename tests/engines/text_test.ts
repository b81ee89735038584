import assert from "node:assert/strict";
import { bytesToUtf16, indexToPosition, lineStarts, utf16ToBytes } from "../../lib/engines/text.ts";

// "a" 1 byte, "é" 2 bytes, "€" 3 bytes, "😀" 4 bytes (2 UTF-16 units), "z" 1 byte.
const TEXT = "aé€😀z";

Deno.test("utf16ToBytes() counts each character's UTF-8 length, in the order the indices were given", () => {
  assert.deepEqual(utf16ToBytes(TEXT, [0, 1, 2, 3, 5, 6]), [0, 1, 3, 6, 10, 11]);
  assert.deepEqual(utf16ToBytes(TEXT, [5, 0, 3]), [10, 0, 6]);
  assert.deepEqual(utf16ToBytes(TEXT, [99]), [11], "past the end: the text's length in bytes");
});

Deno.test("bytesToUtf16() is its inverse on character boundaries", () => {
  const indices = [6, 0, 3, 1, 5, 2];
  assert.deepEqual(bytesToUtf16(TEXT, utf16ToBytes(TEXT, indices)), indices);
  assert.deepEqual(bytesToUtf16(TEXT, [99]), [6], "past the end: the text's length in UTF-16 units");
  assert.deepEqual(bytesToUtf16(TEXT, [2]), [2], "inside a character: the index after it");
});

Deno.test("lineStarts() starts a line after each LF (a CR stays on its line), and indexToPosition() places indices by them", () => {
  assert.deepEqual(lineStarts(""), [0]);
  assert.deepEqual(lineStarts("a"), [0]);
  assert.deepEqual(lineStarts("a\n"), [0, 2]);
  const text = "a\nb\r\nc\n\n\rd";
  assert.deepEqual(lineStarts(text), [0, 2, 5, 7, 8]);
  assert.deepEqual(indexToPosition(lineStarts(text), 3), { line: 2, col: 2 }, "the CR before an LF");
  assert.deepEqual(indexToPosition(lineStarts(text), 9), { line: 5, col: 2 }, "after a lone CR: the same line");
});
