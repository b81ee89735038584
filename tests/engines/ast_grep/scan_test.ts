/**
 * Rule path filters (lib/engines/ast_grep/select.ts): `files` / `ignores` globs joined into
 * one regular expression decide exactly as picomatch does, glob by glob.
 */
import assert from "node:assert/strict";
import picomatch from "picomatch";
import { globsMatcher } from "../../../lib/engines/ast_grep/select.ts";

const GLOBS = [
  ["**/test/**", "**/tests/**", "**/__tests__/**", "**/*.test.*", "**/*.spec.*", "**/bench/**", "scripts/**"],
  ["src/**/*.ts", "!src/vendor/**"],
  ["*.py"],
  ["**/.github/workflows/*.{yml,yaml}"],
  ["lib/[ab]*.go", "cmd/?ain.go"],
];
const PATHS = [
  "src/a.ts",
  "src/test/a.ts",
  "test/a.ts",
  "a/b/tests/c.py",
  "pkg/__tests__/x.tsx",
  "a.test.ts",
  "deep/dir/a.spec.js",
  "bench/x.ts",
  "src/bench.ts",
  "scripts/run.sh",
  "sub/scripts/run.sh",
  ".hidden/test/a.ts",
  "src/vendor/v.ts",
  "x.py",
  "dir/x.py",
  ".github/workflows/ci.yml",
  "a/.github/workflows/ci.yaml",
  "lib/apple.go",
  "lib/cherry.go",
  "cmd/main.go",
  "cmd/mmain.go",
  "",
];

Deno.test("a rule's globs joined into one expression match what picomatch matches, glob by glob", () => {
  for (const globs of GLOBS) {
    const ours = globsMatcher(globs);
    const theirs = picomatch(globs, { dot: true });
    for (const path of PATHS) assert.equal(ours(path), theirs(path), `${JSON.stringify(globs)} on "${path}"`);
  }
});
