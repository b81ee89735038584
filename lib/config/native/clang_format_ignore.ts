/**
 * `.clang-format-ignore`, as clang-format's command line (18 and later) reads it: the nearest file above a file (a lower
 * one voids those above it), one pattern a line (trimmed; blank lines and `#` comments skipped), each relative to the
 * file's folder unless it starts with `/`, `!` negating it. A file is ignored when a pattern matches it, or a negated
 * one does not (clang-format stops at the first such pattern). Patterns match the whole path as POSIX `fnmatch` with
 * `FNM_PATHNAME`: `*`, `?` and `[...]` never match a `/`, and `**` as a whole segment matches any number of folders.
 * Unlike a `.gitignore`, a folder's name alone ignores nothing below it: `third_party/*` or `third_party/**` does.
 *
 * @module
 */
import { dirname, join, normalize, relative } from "node:path";
import type { NativeEngineConfig } from "./types.ts";

/** clang-format's ignore file's name. */
export const CLANG_FORMAT_IGNORE = ".clang-format-ignore";

/** One `.clang-format-ignore`: its path (absolute) and its patterns as written, `!` kept. */
export interface ClangFormatIgnore {
  file: string;
  patterns: string[];
}

/** The patterns of a `.clang-format-ignore` text. */
export function ignorePatterns(text: string): string[] {
  return text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("#"));
}

/** Why the `.clang-format-ignore` of clang-format's configuration `native` keeps `absPath` from it, or undefined. */
export function clangFormatExcluded(native: NativeEngineConfig, absPath: string): string | undefined {
  const ignore = native.clangFormatIgnore;
  if (!ignore || !clangFormatIgnores(ignore, absPath)) return undefined;
  return `ignored by clang-format: matched by "${relative(dirname(absPath), ignore.file)}"`;
}

/** Whether the `.clang-format-ignore` at `ignore.file` keeps `absPath` (absolute, `/`-separated) from clang-format. */
export function clangFormatIgnores(ignore: ClangFormatIgnore, absPath: string): boolean {
  const dir = ignore.file.slice(0, ignore.file.lastIndexOf("/")) || "/";
  for (const written of ignore.patterns) {
    const negated = written.startsWith("!");
    const pattern = (negated ? written.slice(1) : written).trimStart();
    if (pattern === "") continue;
    // A relative pattern is joined to the folder and rebuilt from its parts, as LLVM's `remove_dots` does: `..` and
    // `.` resolved, and no `/` left at its end (`src/*/` is `src/*`).
    const full = pattern.startsWith("/") ? pattern : normalize(join(dir, pattern)).replace(/(?<=.)\/+$/, "");
    if (matchFilePath(full, absPath) === !negated) return true;
  }
  return false;
}

/**
 * Whether `path` matches `pattern` as clang-format's `matchFilePath` decides: POSIX 2.13.1, 2.13.2 and rule 1 of 2.13.3
 * (a `/` matched only by a `/`), a `\` escaping the next character, `[!...]` negating a bracket, a bracket holding a
 * `/` or left open matched as text, and a `**` between separators (or at either end) crossing folders.
 */
export function matchFilePath(pattern: string, path: string): boolean {
  if (pattern === "" || path === "") return false;
  const last = pattern[pattern.length - 1];
  // A pattern ending in a plain character matches only a path ending in it.
  if (!"?*]".includes(last) && last !== path[path.length - 1]) return false;
  let i = 0;
  for (let j = 0; j < path.length; j++) {
    if (i === pattern.length) return false;
    const c = path[j];
    const p = pattern[i];
    if (p === "\\") {
      if (++i === pattern.length || c !== pattern[i]) return false;
    } else if (p === "?") {
      if (c === "/") return false;
    } else if (p === "*") {
      let stars = 1;
      const atSegmentStart = i === 0 || pattern[i - 1] === "/";
      while (++i < pattern.length && pattern[i] === "*") stars++;
      let globstar = atSegmentStart && stars === 2;
      const nextSlash = path.indexOf("/", j);
      if (i === pattern.length) return globstar || nextSlash < 0;
      if (pattern[i] !== "/") {
        if (pattern[i] === "\\" && ++i === pattern.length) return false;
        globstar = false;
      }
      if (pattern[i] === "/") {
        if (!globstar) {
          if (nextSlash < 0) return false;
          j = nextSlash; // The star takes the rest of this segment; the pattern's `/` matches the path's.
          i++;
          continue;
        }
        if (++i === pattern.length) return path[path.length - 1] === "/";
      }
      const rest = pattern.slice(i);
      for (; j < path.length && (globstar || path[j] !== "/"); j++) {
        if (matchFilePath(rest, path.slice(j))) return true;
      }
      return false;
    } else if (p === "[" && bracketAt(pattern, i)) {
      const close = pattern.indexOf("]", i + 1);
      if (c === "/") return false;
      let k = i + 1;
      const negated = pattern[k] === "!";
      if (negated) k++;
      let matched = false;
      while (!matched && k < close) {
        if (k + 2 < close && pattern[k + 1] === "-") {
          matched = pattern[k] <= c && c <= pattern[k + 2];
          k += 3;
        } else matched = c === pattern[k++];
      }
      if (negated === matched) return false;
      i = close + 1;
      continue;
    } else if (c !== p) return false;
    i++;
  }
  while (i < pattern.length && pattern[i] === "*") i++;
  return i === pattern.length;
}

/**
 * Whether the `[` at `i` opens a bracket expression: one closed by a `]` before any `/`, with something inside (not
 * `[]`, nor a lone `[!]` at the pattern's end); otherwise it is matched as text.
 */
function bracketAt(pattern: string, i: number): boolean {
  const roomy = i + 3 < pattern.length || (i + 3 === pattern.length && pattern[i + 1] !== "!");
  if (!roomy) return false;
  const slash = pattern.indexOf("/", i + 1);
  const close = pattern.indexOf("]", i + 1);
  return close > i + 1 && (slash < 0 || close < slash);
}
