/**
 * The regex checks `_split.ts` moves out of ast-grep: a linear-time engine that
 * reads the moved regexes as Rust's `regex` crate does.
 */
import { equal, ok } from "node:assert/strict";
import { linearRegex } from "../../../lib/engines/ast_grep/_split.ts";

Deno.test("linearRegex() matches in linear time: `(a+)+b` on 100,000 `a`s", () => {
  const re = linearRegex("(a+)+b");
  ok(re);
  const started = performance.now();
  equal(re.test("a".repeat(100_000)), false);
  equal(re.test("a".repeat(100_000) + "b"), true);
  // A backtracking engine takes longer than the universe has on this; a linear one milliseconds.
  ok(performance.now() - started < 5_000);
});

Deno.test("linearRegex() reads `\\s` and `\\S` as Rust does (Unicode White_Space), in and out of classes", () => {
  const s = linearRegex("^a\\sb$")!;
  for (const space of [" ", "\t", "\u000b", "\u0085", "\u00a0", "\u2028", "\u3000"]) ok(s.test(`a${space}b`), space);
  equal(s.test("a\u200bb"), false); // zero-width space is not White_Space
  const notSpace = linearRegex("^\\S+$")!;
  equal(notSpace.test("ab\u00a0c"), false);
  equal(notSpace.test("abc"), true);
  const cls = linearRegex("^[^@\\s]+@")!;
  equal(cls.test("actions/checkout@v4"), true);
  equal(cls.test("actions\u3000checkout@v4"), false);
});

Deno.test("linearRegex() keeps Rust's `.`, anchors, `(?i)` and a leading `]` in a class", () => {
  equal(linearRegex("^a.b$")!.test("a\nb"), false);
  equal(linearRegex("^a.b$")!.test("a\rb"), true);
  equal(linearRegex("^a$")!.test("a\n"), false);
  equal(linearRegex("(?i)^select")!.test("SELECT 1"), true);
  equal(linearRegex("^[]a]+$")!.test("]a]"), true);
  equal(linearRegex("^[^]a]$")!.test("b"), true);
});

Deno.test("linearRegex() leaves to ast-grep what RE2 reads otherwise", () => {
  for (
    const source of [
      "\\w+",
      "\\bx\\b",
      "\\d",
      "\\pL",
      "(?s).",
      "a(?i)b",
      "[[:alpha:]]",
      "[a[b]]",
      "[a-z&&[^aeiou]]",
      "[a-z--b]",
      "[a~~b]",
      "[\\S]",
      "\\1",
      "(",
    ]
  ) equal(linearRegex(source), undefined, source);
});
