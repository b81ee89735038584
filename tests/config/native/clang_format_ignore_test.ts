import { deepEqual, equal } from "node:assert/strict";
import { clangFormatIgnores, ignorePatterns, matchFilePath } from "../../../lib/config/native/clang_format_ignore.ts";

const FILES = [
  "a.c",
  "third_party/x.c",
  "third_party/deep/y.c",
  "src/gen_a.c",
  "src/gen_b.c",
  "src/main.c",
  "src/sub/deep.c",
  "src/sub/more/deep.c",
];

/**
 * Each `.clang-format-ignore` text with the files clang-format's command line (23.1, `--dry-run --Werror` on each file,
 * the ignore file at /r) leaves alone: a folder's name alone ignores nothing below it, `*` stays in one folder, `**`
 * crosses them, and a negated pattern ignores every file it does not match.
 */
const NATIVE: [string, string[]][] = [
  ["third_party", []],
  ["third_party/*", ["third_party/x.c"]],
  ["third_party/**", ["third_party/x.c", "third_party/deep/y.c"]],
  ["*.c", ["a.c"]],
  ["**/*.c", FILES],
  ["src/**", FILES.filter((f) => f.startsWith("src/"))],
  ["!src/main.c", FILES.filter((f) => f !== "src/main.c")],
  ["src/[gm]*.c", ["src/gen_a.c", "src/gen_b.c", "src/main.c"]],
  ["src/?ain.c", ["src/main.c"]],
  ["src/gen_[!a].c", ["src/gen_b.c"]],
  ["src/**/deep.c", ["src/sub/deep.c", "src/sub/more/deep.c"]],
  ["**/deep/*.c", ["third_party/deep/y.c"]],
  ["src/", []],
  ["src/*/", ["src/gen_a.c", "src/gen_b.c", "src/main.c"]],
  ["*", ["a.c"]],
  ["**", FILES],
  ["# vendored\n\n  src/gen_a.c  \n!src/main.c", FILES.filter((f) => f !== "src/main.c")],
  ["/r/a.c", ["a.c"]],
  ["src/sub/**/*.c", ["src/sub/deep.c", "src/sub/more/deep.c"]],
  ["third_party/*/y.c", ["third_party/deep/y.c"]],
  ["./src/../a.c", ["a.c"]],
];

Deno.test(".clang-format-ignore: the files each pattern keeps from clang-format, as its command line decides", () => {
  for (const [text, ignored] of NATIVE) {
    const ignore = { file: "/r/.clang-format-ignore", patterns: ignorePatterns(text) };
    deepEqual(FILES.filter((f) => clangFormatIgnores(ignore, `/r/${f}`)), ignored, text);
  }
});

Deno.test("matchFilePath(): escapes, brackets matched as text, and a path's last character", () => {
  equal(matchFilePath("/r/a\\*.c", "/r/a*.c"), true);
  equal(matchFilePath("/r/a\\*.c", "/r/ab.c"), false);
  equal(matchFilePath("/r/[]x.c", "/r/[]x.c"), true); // `[]` opens no bracket
  equal(matchFilePath("/r/[a/b].c", "/r/[a/b].c"), true); // a bracket holding a `/` is text
  equal(matchFilePath("/r/[a-c].h", "/r/b.h"), true);
  equal(matchFilePath("/r/[a-c].h", "/r/d.h"), false);
  equal(matchFilePath("/r/*.c", "/r/a.h"), false);
  equal(matchFilePath("/r/a?c", "/r/a/c"), false);
});
