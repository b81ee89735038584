import { assertEquals } from "./_assert.ts";
import { deepMerge } from "../../lib/config/mod.ts";
import { mergeLayers } from "../../lib/config/merge.ts";

Deno.test("deepMerge() merges tables and replaces everything else", () => {
  const under = { a: { b: 1, c: [1, 2] }, d: "x", e: { f: 1 } };
  const over = { a: { c: [3] }, d: "y", e: 5 };
  assertEquals(deepMerge(under, over), { a: { b: 1, c: [3] }, d: "y", e: 5 });
  assertEquals(under, { a: { b: 1, c: [1, 2] }, d: "x", e: { f: 1 } }, "inputs are not mutated");
});

Deno.test("mergeLayers() keeps a nearer per-file-ignore for the same glob and base", () => {
  const merged = mergeLayers([
    { raw: { "per-file-ignores": { "*.py": ["A"] } }, base: "/r" },
    { raw: { "per-file-ignores": { "*.py": ["B"] } }, base: "/r" },
    { raw: { "per-file-ignores": { "*.py": ["C"] } }, base: "/r/sub" },
  ]);
  assertEquals(merged.perFileIgnores, [
    { pattern: "*.py", base: "/r", codes: ["B"] },
    { pattern: "*.py", base: "/r/sub", codes: ["C"] },
  ]);
});

Deno.test("mergeLayers() drops extends and the per-file exclude_mode directive", () => {
  const merged = mergeLayers([
    { raw: { extends: ["x"], discovery: { exclude: ["a"], exclude_mode: "replace" } }, base: "/r" },
  ]);
  assertEquals(merged.raw, { discovery: { exclude: ["a"] }, "per-file-ignores": {} });
});
