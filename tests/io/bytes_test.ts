import { deepEqual } from "node:assert/strict";
import { concatBytes } from "../../lib/io/bytes.ts";

Deno.test("concatBytes() joins its chunks in order, empty ones and none included", () => {
  deepEqual(concatBytes([]), new Uint8Array(0));
  const parts = [
    Uint8Array.of(1, 2),
    new Uint8Array(0),
    Uint8Array.of(3).subarray(0),
    Uint8Array.of(9, 8, 7).subarray(1),
  ];
  deepEqual(concatBytes(parts), Uint8Array.of(1, 2, 3, 8, 7));
});
