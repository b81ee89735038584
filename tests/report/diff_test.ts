import assert from "node:assert/strict";
import { applyPatch, FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff";
import {
  boundDiff,
  boundReportDiffs,
  diffsFit,
  editsExceed,
  formatDiff,
  oneHunk,
  unifiedPatch,
} from "../../lib/report/diff.ts";

Deno.test("formatDiff() is a unified diff with a/ and b/ headers and three lines of context", () => {
  const before = "a\nb\nc\nd\ne\nf\ng\nh\n";
  const after = "a\nb\nc\nd\nE\nf\ng\nh\n";
  assert.equal(
    formatDiff("src/x.txt", before, after),
    "--- a/src/x.txt\n+++ b/src/x.txt\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n",
  );
});

Deno.test("formatDiff() cuts a long diff at a line boundary and says how much it left out", () => {
  const before = Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n") + "\n";
  const after = before.replaceAll("line", "LINE");
  const cut = formatDiff("x.txt", before, after, { maxLines: 10 });
  const lines = cut.trimEnd().split("\n");
  assert.equal(lines.length, 11);
  assert.match(lines.at(-1)!, /^\\ poly: diff cut here, 93 more lines left out \(limit 10 lines/);
  assert.ok(cut.endsWith("\n"));
});

Deno.test("boundDiff() keeps a diff within the byte limit and leaves a short one alone", () => {
  const text = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-" + "x".repeat(100) + "\n+y\n";
  assert.equal(boundDiff(text), text);
  const cut = boundDiff(text, { maxBytes: 40 });
  assert.ok(cut.length < 40 + 120);
  assert.match(cut, /^--- a\/x\n\+\+\+ b\/x\n@@ -1 \+1 @@\n\\ poly: diff cut here, 2 more lines left out/);
});

Deno.test("boundReportDiffs() keeps a report's diffs within its budget, in order, and names the command for the rest", () => {
  const results: { path: string; diff?: string }[] = [
    { path: "a.py", diff: "x".repeat(60) + "\n" },
    { path: "b.py" },
    { path: "c.py", diff: "y".repeat(60) + "\n" },
    { path: "d.py", diff: "z".repeat(10) + "\n" },
  ];
  const third = results[2];
  boundReportDiffs(results, 80);
  assert.equal(third.diff, "y".repeat(60) + "\n", "the record itself is left alone");
  assert.equal(results[0].diff, "x".repeat(60) + "\n");
  assert.equal(results[1].diff, undefined);
  assert.equal(
    results[2].diff,
    "\\ poly: diff left out, this report's diffs reached 80 bytes: run poly fmt --diff c.py\n",
  );
  assert.equal(results[3].diff, "z".repeat(10) + "\n", "a later small diff still fits");
});

Deno.test("diffsFit() says whether boundReportDiffs() would leave every diff whole, from objects or a writer's JSON", () => {
  const decoder = new TextDecoder();
  const json = (result: object) => new TextEncoder().encode(JSON.stringify(result, null, 2));
  const a = { path: "a.py", diff: "x".repeat(30) + "\n" };
  const small = [
    a,
    json({ path: "b.py", changed: false }),
    json({ path: "c.py", changed: true, diff: "y".repeat(30) + "\n" }),
    json({ path: "d.py", diagnostics: [{ message: 'a "diff" in a message' }] }),
  ];
  assert.equal(diffsFit(small, decoder, 80), true);
  const copy = small.map((r) => r instanceof Uint8Array ? JSON.parse(decoder.decode(r)) : { ...r });
  boundReportDiffs(copy, 80);
  assert.deepEqual(copy.map((r) => r.diff), [a.diff, undefined, "y".repeat(30) + "\n", undefined], "nothing left out");
  // Together past the budget: a whole run would leave one out.
  assert.equal(diffsFit([...small, { path: "e.py", diff: "z".repeat(30) + "\n" }], decoder, 80), false);
  // A diff a kept report left out already (its note) is not the file's diff.
  const left: { path: string; diff?: string }[] = [{ path: "f.py", diff: "w".repeat(90) + "\n" }];
  boundReportDiffs(left, 80);
  assert.equal(diffsFit([json(left[0])], decoder), false);
  assert.equal(diffsFit([], decoder), true);
});

Deno.test("oneHunk() is a patch that turns before into after, whatever the two share", () => {
  const cases: [string, string][] = [
    ["a\nb\nc\nd\ne\nf\ng\nh\ni\n", "a\nb\nc\nd\nX\nY\nf\ng\nh\ni\n"],
    ["a\nb\n", "c\nd\n"],
    ["", "new\n"],
    ["old\n", ""],
    ["a\nb", "a\nc"],
    ["same\nlast", "same\nlast\n"],
  ];
  for (const [before, after] of cases) {
    assert.equal(applyPatch(before, oneHunk("a/x", "b/x", before, after)), after, JSON.stringify([before, after]));
  }
});

Deno.test("formatDiff() of a file changed more than its line limit is one hunk, not a minimal diff (bounded cost)", () => {
  // Every other line changed: a minimal diff interleaves - and + lines; past the edit-length limit (the line
  // limit: the diff would be cut anyway) Myers' algorithm is not run, and the hunk covers the differing middle.
  const before = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join("\n") + "\n";
  const after = before.split("\n").map((l, i) => i % 2 ? l.toUpperCase() : l).join("\n");
  const diff = formatDiff("lock.yaml", before, after, { maxLines: 50 });
  const whole = oneHunk("a/lock.yaml", "b/lock.yaml", before, after);
  assert.equal(diff.split("\n").slice(0, 50).join("\n"), whole.split("\n").slice(0, 50).join("\n"));
  assert.match(diff, /\\ poly: diff cut here/);
  // Within the limit, the minimal diff.
  assert.equal(
    formatDiff("x", "a\nb\nc\n", "a\nB\nc\n"),
    "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
  );
});

Deno.test("unifiedPatch() with its linear bound gives what Myers' algorithm gives alone, at every edit limit", () => {
  // Small alphabets of lines (some ending in \r\n, some not ending at all) make many near and far pairs.
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)];
  const text = () => {
    const lines = Array.from({ length: Math.floor(next() * 12) }, () => pick(["a", "b", "c", "", "a b"]));
    return lines.map((l) => l + pick(["\n", "\n", "\r\n"])).join("") + pick(["", "", "tail"]);
  };
  let bounded = 0;
  for (let i = 0; i < 400; i++) {
    const before = text();
    const after = next() < 0.5 ? text() : before.replace(/b/, "B").replace(/\r\n/, "\n");
    for (const max of [0, 1, 2, 4, 8, 40]) {
      const myers = structuredPatch("a/x", "b/x", before, after, undefined, undefined, {
        context: 3,
        maxEditLength: max,
      });
      const expected = myers ? formatPatch(myers, FILE_HEADERS_ONLY) : oneHunk("a/x", "b/x", before, after);
      assert.equal(unifiedPatch("a/x", "b/x", before, after, max), expected, JSON.stringify([before, after, max]));
      if (editsExceed(before, after, max)) bounded++;
    }
  }
  assert.ok(bounded > 100, `the bound decided ${bounded} pairs`);
});
