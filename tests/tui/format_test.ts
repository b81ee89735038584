import assert from "node:assert/strict";
import {
  bar,
  bytes,
  count,
  duration,
  fit,
  percent,
  spark,
  truncate,
  truncateStart,
  width,
  wrap,
} from "../../tui/format.ts";
import { clip, columnWidths, line, plain, seg, table } from "../../tui/lines.ts";

Deno.test("bytes() and count() print sizes and counts compactly", () => {
  assert.deepEqual([bytes(512), bytes(3482), bytes(5 * 1024 ** 2), bytes(3 * 1024 ** 3)], [
    "512 B",
    "3.4 KiB",
    "5.0 MiB",
    "3.0 GiB",
  ]);
  assert.deepEqual([count(999), count(1234), count(34_567), count(1_234_567), count(45_000_000)], [
    "999",
    "1.2k",
    "35k",
    "1.2M",
    "45M",
  ]);
});

Deno.test("duration() and percent() print times and ratios", () => {
  assert.deepEqual([duration(850), duration(12_345), duration(62_000), duration(3_900_000)], [
    "850ms",
    "12.3s",
    "1m02s",
    "1h05m",
  ]);
  assert.equal(percent(1, 3), "33%");
  assert.equal(percent(0, 0), "–");
});

Deno.test("width() counts wide characters as two cells", () => {
  assert.equal(width("abc"), 3);
  assert.equal(width("日本"), 4);
  assert.equal(width("a\u0301"), 1);
});

Deno.test("truncate(), truncateStart() and fit() keep text within its cells", () => {
  assert.equal(truncate("abcdef", 4), "abc…");
  assert.equal(truncate("abc", 4), "abc");
  assert.equal(truncate("日本語テキスト", 5), "日本…");
  assert.equal(truncateStart("/work/very/long/path", 10), "…long/path");
  assert.equal(fit("ab", 4, "right"), "  ab");
  assert.equal(fit("abcdef", 4), "abc…");
});

Deno.test("spark() and bar() scale to the largest value", () => {
  assert.equal(spark([0, 1, 2, 4, 8]), "·▁▂▄█");
  assert.equal(spark([0, 0]), "··");
  assert.equal(bar(5, 10, 10), "█████");
  assert.equal(bar(1, 1000, 10), "█");
});

Deno.test("wrap() breaks words into lines and keeps paragraphs", () => {
  assert.deepEqual(wrap("one two three four", 9), ["one two", "three", "four"]);
  assert.deepEqual(wrap("a\nb", 10), ["a", "b"]);
  assert.deepEqual(wrap("abcdefghijkl", 5), ["abcd…"]);
});

Deno.test("clip() cuts a styled line at a cell and pads when asked", () => {
  const l = [seg("abc", "good"), seg("defgh", "bad")];
  assert.equal(plain(clip(l, 5)), "abcd…");
  assert.equal(clip(l, 5)[1].tone, "bad");
  assert.equal(plain(clip(line("ab"), 5, true)), "ab   ");
  assert.equal(plain(clip(l, 8)), "abcdefgh");
});

Deno.test("table() gives the flexible column the spare width and drops columns that do not fit", () => {
  const cols = [{ title: "A", width: 4 }, { title: "B", width: 4, flex: true }, {
    title: "C",
    width: 3,
    align: "right" as const,
  }];
  assert.deepEqual(columnWidths(cols, 20), [4, 11, 3]);
  assert.deepEqual(columnWidths(cols, 8), [4]);
  const t = table(cols, [["x", "y", "12"]], 20);
  assert.equal(plain(t.header), "A    B             C");
  assert.equal(plain(t.rows[0]), "x    y            12");
});

Deno.test("table() gives spare width to the columns whose values are cut, by need, before the flexible column", () => {
  const cols = [
    { title: "NAME", width: 6 },
    { title: "VERSION", width: 10, flex: true },
    { title: "LANGUAGES", width: 10 },
    { title: "USED BY", width: 8 },
  ];
  const rows = [["ruff", "0.17", "css, javascript, json, typescript", "cargo-deny (whole-project)"]];
  // Wide: every value whole, the rest to the flexible column.
  const wide = table(cols, rows, 120);
  assert.match(plain(wide.rows[0]), /css, javascript, json, typescript +cargo-deny \(whole-project\)$/);
  assert.equal(wide.widths.reduce((a, w) => a + w, 0) + 3, 120);
  // Narrower: the cut columns share what the others do not use, evenly up to their need.
  assert.deepEqual(columnWidths(cols, 60, [4, 7, 33, 26]), [4, 7, 24, 22]);
  // Nothing cut: widths as declared, the spare width to the flexible column.
  assert.deepEqual(columnWidths(cols, 60, [4, 7, 9, 7]), [6, 33, 10, 8]);
});

Deno.test("table() narrows columns to their values before it drops one that does not fit", () => {
  const cols = [{ title: "ID", width: 17 }, { title: "BY", width: 10 }, { title: "WHAT", width: 20, flex: true }];
  // Declared, the columns need 49 cells; narrowed to their values the last one stays.
  assert.deepEqual(columnWidths(cols, 45, [12, 3, 30]), [12, 3, 28]);
  assert.deepEqual(columnWidths(cols, 45), [17, 10], "without the values' widths it must drop");
});
