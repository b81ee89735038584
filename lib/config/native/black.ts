/**
 * black's configuration, where a repository formats its Python with black: the nearest `pyproject.toml` holding a
 * `[tool.black]` table, from a file's directory up to the repository root (black's project root is the first folder
 * up with such a file, and it reads that file alone). There black itself formats the Python files (lib/engines/black/,
 * from PATH), given the file with `--config`, so it reads every key itself; unless the repository configures ruff's
 * formatter (a `format` table in the ruff configuration governing the file: lib/run/plan.ts).
 *
 * What black's walk decides and poly's discovery must do in its place: `exclude` (default black's list of tool
 * folders), `extend-exclude`, `force-exclude` and `include` (default `.py`, `.pyi`, `.ipynb`), Python regular
 * expressions black searches in the path below the table's folder (`/a/b/` for a folder, `/a/b/c.py` for a file;
 * verbose when they hold a newline), which poly evaluates the same way ({@link blackExcluded}). One it cannot compile is
 * a configuration poly cannot honour (the files black would format are errored records). Keys are read in either
 * spelling (`extend-exclude`, `extend_exclude`), as black does.
 *
 * @module
 */
import { dirname, join, relative, resolve, sep } from "node:path";
import { ConfigError } from "../../errors/mod.ts";
import type { NativeFiles } from "./_files.ts";
import { nearestUp, pyprojectTool } from "./_reading.ts";
import type { NativeEngineConfig } from "./types.ts";
import { blackHookArgs } from "./hook_args.ts";
import type { PreCommitHook } from "./pre_commit.ts";

type Table = Record<string, unknown>;

/** black's default `exclude` (black/const.py). */
export const BLACK_DEFAULT_EXCLUDE = String
  .raw`/(\.direnv|\.eggs|\.git|\.hg|\.ipynb_checkpoints|\.mypy_cache|\.nox|\.pytest_cache|\.ruff_cache|\.tox|\.svn|\.venv|\.vscode|__pypackages__|_build|buck-out|build|dist|venv)/`;
/** black's default `include`. */
export const BLACK_DEFAULT_INCLUDE = String.raw`(\.pyi?|\.ipynb)$`;

const REGEX_KEYS = ["exclude", "extend_exclude", "force_exclude", "include"] as const;

/**
 * A Python regular expression as JavaScript's (what black's patterns use): a pattern holding a newline, or opening
 * with `(?x)`, is verbose (whitespace and `#` comments outside character classes dropped); leading `(?i)`, `(?m)`,
 * `(?s)` become flags; `(?P<name>` and `(?P=name)` are named groups. Throws where JavaScript cannot compile it.
 */
export function pythonRegex(source: string): RegExp {
  let s = source;
  let verbose = s.includes("\n");
  let flags = "";
  const inline = /^\(\?([aiLmsux]+)\)/.exec(s);
  if (inline) {
    s = s.slice(inline[0].length);
    for (const f of inline[1]) {
      if (f === "x") verbose = true;
      else if ("ims".includes(f) && !flags.includes(f)) flags += f;
    }
  }
  if (verbose) {
    let out = "";
    let inClass = false;
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (c === "\\") {
        out += c + (s[i + 1] ?? "");
        i++;
      } else if (inClass) {
        out += c;
        if (c === "]") inClass = false;
      } else if (c === "[") {
        inClass = true;
        out += c;
        // A `]` first in the class (or after `^`) is a literal.
        if (s[i + 1] === "^") out += s[++i];
        if (s[i + 1] === "]") out += s[++i];
      } else if (c === "#") {
        while (i + 1 < s.length && s[i + 1] !== "\n") i++;
      } else if (!/\s/.test(c)) out += c;
    }
    s = out;
  }
  s = s.replace(/\(\?P</g, "(?<").replace(/\(\?P=(\w+)\)/g, String.raw`\k<$1>`);
  return new RegExp(s, flags);
}

/** black's table with its keys spelt as black normalises them (`line-length` → `line_length`). */
function normalised(table: Table): Table {
  return Object.fromEntries(Object.entries(table).map(([k, v]) => [k.replace(/^--/, "").replaceAll("-", "_"), v]));
}

/** The `[tool.black]` table of a pyproject.toml's text, or undefined; throws a ConfigError it cannot parse. */
function blackTable(text: string, shown: string): Table | undefined {
  const table = pyprojectTool(text, shown, "black");
  return table && normalised(table);
}

/** The regular expressions of black's table poly evaluates (see the module doc), checked; throws a ConfigError. */
function blackOptions(table: Table, shown: string): Table {
  const options: Table = {};
  for (const key of REGEX_KEYS) {
    const v = table[key];
    if (v === undefined) continue;
    const name = `black key "${key.replaceAll("_", "-")}"`;
    if (typeof v !== "string") {
      throw new ConfigError({ file: shown }, `${name} must be a string (a regular expression)`);
    }
    try {
      pythonRegex(v);
    } catch (e) {
      throw new ConfigError(
        { file: shown },
        `${name} is not a regular expression poly can evaluate: ${(e as Error).message}`,
      );
    }
    options[key] = v;
  }
  return options;
}

/** The reader of black's configuration for a run. */
export class BlackReader {
  readonly #found = new Map<string, Promise<NativeEngineConfig | undefined>>();

  constructor(private readonly files: NativeFiles, private readonly display: (path: string) => string) {}

  /** black's configuration governing `dir` (searching up to `top`), or undefined. */
  forDir(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    return nearestUp(this.#found, dir, top, async (at) => {
      if (!(await this.files.namesIn(at)).has("pyproject.toml")) return undefined;
      const path = join(at, "pyproject.toml");
      const file = await this.files.read(path);
      const shown = this.display(path);
      const table = blackTable(file.text, shown);
      if (!table) return undefined;
      const options = blackOptions(table, shown);
      const origins = Object.fromEntries(Object.keys(table).map((k) => [k.replaceAll("_", "-"), shown]));
      return { files: [{ path: file.path, hash: file.hash }], options, root: at, origins };
    });
  }

  /**
   * black as the repository's pre-commit hook `hook` runs it (`shown` names the pre-commit file): given file names, it
   * reads the file `--config` names (`top`-relative, as pre-commit runs from the root) or else the `[tool.black]` table
   * found (`black`), and applies only `force-exclude` of it; the hook's flags go over the table's keys
   * (`options.args`, as poly.toml's `[fmt.python.black]` keys). Throws a ConfigError for a flag poly cannot apply.
   */
  async underHook(
    black: NativeEngineConfig | undefined,
    hook: PreCommitHook,
    top: string,
    shown: string,
  ): Promise<NativeEngineConfig> {
    const { config, ...args } = blackHookArgs(hook, shown);
    let base = black ?? { files: [], options: {}, root: top };
    if (typeof config === "string") {
      const path = resolve(top, config);
      const file = await this.files.read(path).catch(() => {
        throw new ConfigError(
          { file: shown },
          `the "${hook.id}" hook's --config names "${config}", which cannot be read`,
        );
      });
      const named = this.display(path);
      const table = blackTable(file.text, named) ?? {};
      const origins = Object.fromEntries(Object.keys(table).map((k) => [k.replaceAll("_", "-"), named]));
      base = { files: [{ path: file.path, hash: file.hash }], options: blackOptions(table, named), root: top, origins };
    }
    return { ...base, options: { ...base.options, args }, hook: hook.id };
  }
}

const compiled = new Map<string, RegExp>();

/** {@link pythonRegex} of `source`, compiled once per process (black's patterns, pre-commit's `files` and `exclude`). */
export function pythonPattern(source: string): RegExp {
  let r = compiled.get(source);
  if (!r) compiled.set(source, r = pythonRegex(source));
  return r;
}

/**
 * Why black's configuration keeps `absPath` from the formatter, as black's walk of the table's folder would: a folder
 * above it or the file itself matched by `exclude` (black's default list when unset), `extend-exclude` or
 * `force-exclude`, or the file not matched by `include`. Undefined when black would format it.
 */
export function blackExcluded(black: NativeEngineConfig, absPath: string): string | undefined {
  const rel = relative(black.root, absPath).split(sep).join("/");
  if (rel.startsWith("..")) return undefined;
  const o = black.options;
  const where = relative(dirname(absPath), black.files[0]?.path ?? black.root);
  // Given file names (a pre-commit hook), black applies only `force-exclude`.
  const keys = black.hook ? ["force_exclude"] as const : ["extend_exclude", "force_exclude"] as const;
  const lists: [string, string][] = [
    ...(black.hook
      ? []
      : [["exclude", (o.exclude as string | undefined) ?? BLACK_DEFAULT_EXCLUDE] as [string, string]]),
    ...keys.filter((k) => typeof o[k] === "string").map((k) => [k, o[k] as string] as [string, string]),
  ];
  const parts = rel.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const path = `/${parts.slice(0, i).join("/")}${i < parts.length ? "/" : ""}`;
    for (const [key, source] of lists) {
      if (source !== "" && pythonPattern(source).test(path)) {
        const named = o[key] === undefined ? "black's default exclude" : `${key.replaceAll("_", "-")} of "${where}"`;
        return `excluded by black: "${path}" matches ${named}`;
      }
    }
  }
  if (black.hook) return undefined;
  const include = (o.include as string | undefined) ?? BLACK_DEFAULT_INCLUDE;
  if (!pythonPattern(include).test(`/${rel}`)) return `not formatted by black: not matched by include of "${where}"`;
  return undefined;
}
