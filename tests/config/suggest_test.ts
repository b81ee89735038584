import { assertEquals } from "./_assert.ts";
import { editDistance, suggest } from "../../lib/config/_suggest.ts";

Deno.test("editDistance() counts insertions, deletions, substitutions and transpositions", () => {
  assertEquals(editDistance("pyton", "python"), 1);
  assertEquals(editDistance("defualts", "defaults"), 1);
  assertEquals(editDistance("ruff", "ruff"), 0);
  assertEquals(editDistance("", "abc"), 3);
  assertEquals(editDistance("kitten", "sitting"), 3);
});

Deno.test("suggest() picks the closest allowed name, or none when nothing is close", () => {
  assertEquals(suggest("pyton", ["python", "go", "rust"]), "python");
  assertEquals(suggest("Python", ["python"]), "python");
  assertEquals(suggest("klingon", ["python", "go", "rust"]), undefined);
  assertEquals(suggest("xy", ["go"]), undefined);
});

Deno.test("suggest() falls back to a prefix match", () => {
  assertEquals(suggest("warn", ["off", "hint", "info", "warning", "error"]), "warning");
  assertEquals(suggest("ty", ["typescript"]), undefined);
});
