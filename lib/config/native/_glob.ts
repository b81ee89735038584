/**
 * Globs as the native tools match them, compiled once per pattern.
 *
 * - ruff (Rust `globset` with default options): `*` and `**` match any run of
 *   characters including `/` (`**` as a whole path component also matches no
 *   folder at all), `?` one character, `[...]` a class, `{a,b}` alternatives.
 *   A pattern matches a path when it matches the file's base name or, joined to
 *   its config's directory, the absolute path.
 * - mago (`globset` under its `[source.glob]` settings): with `literal-separator`, `*` and `?` stay within one
 *   path component and `**` as a whole component crosses folders; `case-insensitive` as its name says.
 * - biome and editorconfig globs go through picomatch (see their readers).
 *
 * @module
 */
import { basename, isAbsolute, join } from "node:path";
import type { NativePattern } from "./types.ts";

const compiled = new Map<string, RegExp>();

/** globset's options that change what a pattern matches (both off by default). */
export interface GlobsetOptions {
  /** `*` and `?` do not match `/` (a `**` component still crosses folders). */
  literalSeparator?: boolean;
  caseInsensitive?: boolean;
}

/** A globset pattern as an anchored regular expression (default options: `*` crosses `/`, case matters). */
export function globsetRegex(pattern: string, options: GlobsetOptions = {}): RegExp {
  const literal = options.literalSeparator === true;
  const key = `${literal ? "l" : "-"}${options.caseInsensitive ? "i" : "-"}${pattern}`;
  let re = compiled.get(key);
  if (re) return re;
  const any = literal ? "[^/]*" : ".*";
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*") {
      const start = i;
      while (pattern[i + 1] === "*") i++;
      // `**` as a whole component is any number of folders, none included: `tests/**/*.py` matches `tests/a.py`.
      const component = i > start && (start === 0 || pattern[start - 1] === "/");
      if (component && pattern[i + 1] === "/") {
        out += "(?:.*/)?";
        i++;
      } else if (component && i === pattern.length - 1) out += ".*";
      else out += any;
    } else if (c === "?") out += literal ? "[^/]" : ".";
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        let body = pattern.slice(i + 1, end);
        if (body.startsWith("!")) body = "^" + body.slice(1);
        out += `[${body.replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else if (c === "{") {
      const end = pattern.indexOf("}", i);
      if (end < 0) out += "\\{";
      else {
        const alts = pattern.slice(i + 1, end).split(",").map((alt) => globsetRegex(alt, options).source.slice(1, -1));
        out += "(?:" + alts.join("|") + ")";
        i = end;
      }
    } else if (c === "\\" && i + 1 < pattern.length) {
      out += pattern[++i].replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  re = new RegExp(`^${out}$`, options.caseInsensitive ? "i" : "");
  compiled.set(key, re);
  return re;
}

/**
 * Whether a ruff-style pattern matches `absPath`, as ruff's `FilePattern` does: by base name when the pattern has no
 * `/`, and by absolute path, the pattern joined to its base and normalised as a path (`docs/` is the folder `docs`:
 * requests' `exclude = ["docs/", "ext/"]` keeps `ruff check` out of both).
 */
export function ruffMatches(p: NativePattern, absPath: string): boolean {
  const pattern = p.pattern;
  if (!pattern.includes("/") && globsetRegex(pattern).test(basename(absPath))) return true;
  const joined = isAbsolute(pattern) ? pattern : join(p.base, pattern);
  const absolute = joined.length > 1 ? joined.replace(/\/+$/, "") : joined;
  return globsetRegex(absolute).test(absPath);
}
