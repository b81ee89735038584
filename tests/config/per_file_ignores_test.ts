/**
 * `[per-file-ignores]` compiled into one matcher: the same codes as testing each
 * glob with picomatch, path by path (what poly did before), and a large table
 * in linear time.
 */
import { deepEqual, ok } from "node:assert/strict";
import { relative } from "node:path";
import picomatch from "picomatch";
import { perFileIgnoredCodes, PerFileIgnoreMatcher } from "../../lib/config/per_file_ignores.ts";
import { mergeLayers } from "../../lib/config/merge.ts";
import type { PerFileIgnore } from "../../lib/config/types.ts";

/** What poly computed before the compiled matcher: every entry's glob tested with picomatch. */
function reference(entries: readonly PerFileIgnore[], path: string): string[] {
  const codes = new Set<string>();
  for (const entry of entries) {
    const rel = relative(entry.base, path).split("\\").join("/");
    if (rel.startsWith("..") || rel === "") continue;
    const glob = entry.pattern.replace(/^\//, "");
    if (picomatch.isMatch(rel, glob, { dot: true, matchBase: !entry.pattern.includes("/") })) {
      for (const code of entry.codes) codes.add(code);
    }
  }
  return [...codes].sort();
}

const PATTERNS = [
  "tests/**",
  "tests/**/*.py",
  "/tests/*.py",
  "*.py",
  "*.pyi",
  "conftest.py",
  "src/conftest.py",
  "src/pkg/**",
  "src/pkg/*/gen_*.py",
  "src/{a,b}/*.py",
  "src/[ab]/x.py",
  "**/migrations/*.py",
  "docs/**/*.md",
  ".github/**",
  ".hidden.py",
  "src/**/.cache/*",
  "!src/**",
  "lib/?.ts",
  "lib/*.{ts,js}",
  "a/b/c/d.py",
  "./tools/*.sh",
  "tools/",
  "weird name.py",
  "x+(y|z).py",
  "deep/**/leaf",
  "src",
];

const PATHS = [
  "tests/test_a.py",
  "tests/sub/test_b.py",
  "tests/data.json",
  "setup.py",
  "stubs/x.pyi",
  "conftest.py",
  "src/conftest.py",
  "src/deep/conftest.py",
  "src/pkg/mod.py",
  "src/pkg/sub/gen_x.py",
  "src/pkg",
  "src/a/x.py",
  "src/b/y.py",
  "src/c/x.py",
  "app/migrations/0001.py",
  "docs/guide/intro.md",
  ".github/workflows/ci.yml",
  ".hidden.py",
  "src/x/.cache/blob",
  "other/file.txt",
  "lib/a.ts",
  "lib/ab.ts",
  "lib/c.js",
  "a/b/c/d.py",
  "tools/run.sh",
  "weird name.py",
  "xy.py",
  "x+(y|z).py",
  "deep/1/2/leaf",
  "deep/leaf",
  "src",
];

Deno.test("PerFileIgnoreMatcher gives the codes testing each glob with picomatch gave, path by path", () => {
  // Two bases (a root and a nested config), each glob with its own code and some sharing codes.
  const entries: PerFileIgnore[] = [];
  PATTERNS.forEach((pattern, i) => {
    entries.push({ pattern, base: "/repo", codes: [`R${i}`] });
    entries.push({ pattern, base: "/repo/sub", codes: i % 3 ? ["SHARED", `S${i}`] : ["SHARED"] });
  });
  const matcher = new PerFileIgnoreMatcher(entries);
  for (const rel of PATHS) {
    for (const path of [`/repo/${rel}`, `/repo/sub/${rel}`, `/elsewhere/${rel}`]) {
      deepEqual(matcher.codes(path).sort(), reference(entries, path), path);
    }
  }
  deepEqual(matcher.codes("/repo"), []);
});

Deno.test("perFileIgnoredCodes() applies docs/config.md's example, a name glob at any depth, and nothing outside the base", () => {
  const entries: PerFileIgnore[] = [
    { pattern: "tests/**", base: "/r", codes: ["S101"] },
    { pattern: "__init__.py", base: "/r", codes: ["F401"] },
    { pattern: "/gen/*.py", base: "/r/pkg", codes: ["E501", "F"] },
  ];
  deepEqual(perFileIgnoredCodes(entries, "/r/tests/unit/test_x.py"), ["S101"]);
  deepEqual(perFileIgnoredCodes(entries, "/r/src/a/__init__.py"), ["F401"]);
  deepEqual(perFileIgnoredCodes(entries, "/r/pkg/gen/m.py").sort(), ["E501", "F"]);
  deepEqual(perFileIgnoredCodes(entries, "/r/pkg/gen/sub/m.py"), []);
  deepEqual(perFileIgnoredCodes(entries, "/r/gen/m.py"), []);
  deepEqual(perFileIgnoredCodes(entries, "/other/tests/x.py"), []);
  deepEqual(perFileIgnoredCodes([], "/r/tests/x.py"), []);
});

Deno.test("mergeLayers() and the matcher take 100,000 per-file-ignores in linear time", () => {
  const table: Record<string, string[]> = {};
  for (let i = 0; i < 100_000; i++) {
    table[i % 2 ? `src/pkg${i}/**/*.py` : `file_${i}.py`] = [`E${i % 1000}`];
  }
  const started = performance.now();
  // A nearer layer repeating every glob replaces each one.
  const merged = mergeLayers([
    { raw: { "per-file-ignores": table }, base: "/r" },
    { raw: { "per-file-ignores": table }, base: "/r" },
  ]);
  const matcher = new PerFileIgnoreMatcher(merged.perFileIgnores);
  deepEqual(matcher.codes("/r/src/pkg99/a/b.py"), ["E99"]);
  deepEqual(matcher.codes("/r/deep/file_1000.py"), ["E0"]);
  deepEqual(matcher.codes("/r/src/pkg98/a.py"), []);
  ok(merged.perFileIgnores.length === 100_000);
  // Quadratic merging took minutes here; linear work takes well under a second. A hang guard, not a benchmark.
  ok(performance.now() - started < 30_000, `${performance.now() - started} ms`);
});
