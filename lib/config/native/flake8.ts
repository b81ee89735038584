/**
 * flake8's configuration, where a repository lints its Python with flake8: the `[flake8]` section of the first of
 * `setup.cfg`, `tox.ini` and `.flake8` that has one (or a `[flake8:local-plugins]` section), in a file's directory or
 * the nearest folder above it up to the repository root, as flake8 finds its file from the folder it runs in; a
 * `pyproject.toml` with a `[tool.flake8]` table in that folder first (the flake8-pyproject plug-in's file, which then
 * replaces the others). A candidate configparser cannot read is passed over, as flake8 passes over it; one with a section
 * or key given twice, which stops flake8, is a configuration poly cannot honour. There flake8 itself lints the Python
 * files (lib/engines/flake8/, from PATH), given the section's keys as written (lib/run/plan.ts: unless the repository
 * configures ruff's linting).
 *
 * What flake8's walk decides and poly's discovery must do in its place ({@link flake8Excluded}): `exclude` (default
 * flake8's list of tool folders), `extend-exclude` and `filename` (default `*.py`), shell patterns (Python's `fnmatch`:
 * `*` matches `/` too) a folder or file matches by its name or its absolute path (a pattern holding a `/` made absolute
 * against the configuration's folder first), as `flake8` run in that folder walks it. `[flake8:local-plugins]` runs
 * the repository's own code in flake8's process: a configuration poly does not honour.
 *
 * @module
 */
import { basename, dirname, join, relative, sep } from "node:path";
import { ConfigError } from "../../errors/mod.ts";
import type { NativeFiles } from "./_files.ts";
import { IniError, parseIni } from "./_ini.ts";
import { nearestUp, pyprojectTool } from "./_reading.ts";
import type { NativeEngineConfig } from "./types.ts";

/** The files flake8 looks for its section in, in its order. */
export const FLAKE8_FILES = ["setup.cfg", "tox.ini", ".flake8"] as const;

/** flake8's default `exclude` (flake8/defaults.py). */
export const FLAKE8_DEFAULT_EXCLUDE = [
  ".svn",
  "CVS",
  ".bzr",
  ".hg",
  ".git",
  "__pycache__",
  ".tox",
  ".nox",
  ".eggs",
  "*.egg",
];

/** What poly keeps of a flake8 configuration (`NativeEngineConfig.options`). */
export interface Flake8Options {
  /** The `[flake8]` keys as configparser gives them to flake8 (lower-cased), values as strings. */
  section: Record<string, string>;
  /** Where they were written, for messages: `[flake8]` or `[tool.flake8]`. */
  table: string;
}

/**
 * A `[tool.flake8]` value as the flake8-pyproject plug-in gives it to flake8: a list one item per line (flake8 splits
 * its lists on commas and white space, and its `per-file-ignores` on lines), a boolean or number as Python prints it.
 */
function iniValue(v: unknown, key: string, shown: string): string {
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "number") return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x === "string")) return v.join("\n");
  throw new ConfigError(
    { file: shown },
    `flake8 key "${key}" in [tool.flake8] must be a string, number, boolean or list of strings`,
  );
}

/** The `[tool.flake8]` table of a pyproject.toml's text as a section, or undefined; throws a ConfigError. */
function pyprojectSection(text: string, shown: string): Record<string, string> | undefined {
  const table = pyprojectTool(text, shown, "flake8");
  return table && Object.fromEntries(Object.entries(table).map(([k, v]) => [k.toLowerCase(), iniValue(v, k, shown)]));
}

/**
 * The `[flake8]` section of an INI candidate, undefined where flake8 would pass over the file (configparser cannot read
 * it, or it has no flake8 section); throws a ConfigError where flake8 itself stops (a duplicate) or poly will not run
 * what it asks for (local plug-ins).
 */
function iniSection(text: string, shown: string): Record<string, string> | undefined {
  let sections;
  try {
    sections = parseIni(text);
  } catch (e) {
    if (!(e instanceof IniError)) throw e;
    if (e.kind === "parsing") return undefined;
    throw new ConfigError({ file: shown, line: e.line }, `flake8 cannot read this file: ${e.message}`);
  }
  if (sections.has("flake8:local-plugins")) {
    throw new ConfigError(
      { file: shown },
      "[flake8:local-plugins] runs the repository's own code inside flake8; poly does not run it " +
        "(remove the section, or set [tools.flake8] enabled = false in poly.toml to lint with ruff)",
    );
  }
  const section = sections.get("flake8");
  return section ? Object.fromEntries(section) : undefined;
}

/** The reader of flake8's configuration for a run. */
export class Flake8Reader {
  readonly #found = new Map<string, Promise<NativeEngineConfig | undefined>>();

  constructor(private readonly files: NativeFiles, private readonly display: (path: string) => string) {}

  /** flake8's configuration governing `dir` (searching up to `top`), or undefined. */
  forDir(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    return nearestUp(this.#found, dir, top, async (at) => {
      const names = await this.files.namesIn(at);
      const candidates: [string, (text: string, shown: string) => Record<string, string> | undefined, string][] = [
        ["pyproject.toml", pyprojectSection, "[tool.flake8]"],
        ...FLAKE8_FILES.map((name) => [name, iniSection, "[flake8]"] as [string, typeof iniSection, string]),
      ];
      for (const [name, read, table] of candidates) {
        if (!names.has(name)) continue;
        const path = join(at, name);
        const file = await this.files.read(path);
        const shown = this.display(path);
        const section = read(file.text, shown);
        if (!section) continue;
        const options: Flake8Options = { section, table };
        const origins = Object.fromEntries(Object.keys(section).map((k) => [k, shown]));
        return { files: [{ path: file.path, hash: file.hash }], options: { ...options }, root: at, origins };
      }
      return undefined;
    });
  }
}

/** flake8's comma-separated list (`exclude`, `filename`): split on commas and white space. */
function commaList(value: string): string[] {
  return value.split(/[,\s]/).map((s) => s.trim()).filter((s) => s !== "");
}

/** A pattern as flake8 normalises a path option: one holding a `/` (or `.` alone) made absolute against `parent`. */
function normalizePath(pattern: string, parent: string): string {
  const path = pattern === "." || pattern.includes("/") ? join(parent, pattern) : pattern;
  return path.replace(/\/+$/, "");
}

/**
 * Python's `fnmatch.translate` as a JavaScript regular expression: `*` any run of characters (`/` included), `?` one,
 * `[seq]` / `[!seq]` a set (a `[` without its `]` is itself), everything else itself, case kept (POSIX).
 */
export function fnmatchRegex(pattern: string): RegExp {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*") {
      if (!out.endsWith(".*")) out += ".*";
    } else if (c === "?") {
      out += ".";
    } else if (c === "[") {
      let j = i + 1;
      if (pattern[j] === "!") j++;
      if (pattern[j] === "]") j++;
      while (j < pattern.length && pattern[j] !== "]") j++;
      if (j >= pattern.length) {
        out += "\\[";
        continue;
      }
      let stuff = pattern.slice(i + 1, j);
      i = j;
      if (stuff === "") {
        out += "(?!)";
        continue;
      }
      if (stuff === "!") {
        out += ".";
        continue;
      }
      const negated = stuff.startsWith("!");
      if (negated) stuff = stuff.slice(1);
      const body = [...stuff].map((ch, k) => ch === "\\" || ch === "]" || (ch === "^" && k === 0) ? `\\${ch}` : ch);
      out += `[${negated ? "^" : ""}${body.join("")}]`;
    } else {
      out += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    }
  }
  try {
    return new RegExp(`^(?:${out})$`, "s");
  } catch {
    return /(?!)/; // a set with a range backwards, which Python's fnmatch drops: it matches nothing
  }
}

const compiled = new Map<string, RegExp>();

function fnmatch(name: string, pattern: string): boolean {
  let r = compiled.get(pattern);
  if (!r) compiled.set(pattern, r = fnmatchRegex(pattern));
  return r.test(name);
}

/** The exclude patterns of a configuration, each with the key it comes from, normalised against its folder. */
const patternsOf = new WeakMap<NativeEngineConfig, { exclude: [string, string, string][]; filename: string[] }>();

function patterns(native: NativeEngineConfig): { exclude: [string, string, string][]; filename: string[] } {
  let found = patternsOf.get(native);
  if (!found) {
    const section = (native.options as unknown as Flake8Options).section;
    const exclude: [string, string, string][] = [];
    const own = section.exclude === undefined ? undefined : commaList(section.exclude);
    for (const p of own ?? FLAKE8_DEFAULT_EXCLUDE) {
      exclude.push([p, normalizePath(p, native.root), own ? "exclude" : ""]);
    }
    for (const key of ["extend-exclude", "extend_exclude"]) {
      if (section[key] === undefined) continue;
      for (const p of commaList(section[key])) exclude.push([p, normalizePath(p, native.root), "extend-exclude"]);
    }
    const filename = section.filename === undefined ? ["*.py"] : commaList(section.filename);
    found = { exclude, filename: filename.map((p) => normalizePath(p, native.root)) };
    patternsOf.set(native, found);
  }
  return found;
}

/**
 * Why flake8's configuration keeps `absPath` from flake8, as `flake8` run in the configuration's folder walks it: the
 * folder itself, a folder above the file or the file matched by `exclude` (flake8's default list when unset) or
 * `extend-exclude`, by name or absolute path; or the file not matched by `filename` (its path as the walk gives it,
 * `./a/b.py`). Undefined when flake8 would lint it.
 */
export function flake8Excluded(native: NativeEngineConfig, absPath: string): string | undefined {
  const rel = relative(native.root, absPath).split(sep).join("/");
  if (rel.startsWith("..") || native.unhonoured) return undefined;
  const { exclude, filename } = patterns(native);
  const where = relative(dirname(absPath), native.files[0]?.path ?? native.root);
  const parts = rel.split("/");
  // The folder flake8 starts in (by its absolute path only: its name is "."), each folder down, then the file.
  for (let i = 0; i <= parts.length; i++) {
    const path = i === 0 ? native.root : join(native.root, ...parts.slice(0, i));
    const name = i === 0 ? undefined : basename(path);
    for (const [written, pattern, key] of exclude) {
      if ((name !== undefined && fnmatch(name, pattern)) || fnmatch(path, pattern)) {
        const named = key === "" ? "flake8's default exclude" : `${key} of "${where}"`;
        return `excluded by flake8: "${written}" matches ${named}`;
      }
    }
  }
  if (!filename.some((p) => fnmatch(`./${rel}`, p))) {
    return `not linted by flake8: not matched by filename of "${where}"`;
  }
  return undefined;
}
