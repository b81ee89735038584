/**
 * ruff's own configuration, found and merged as the `ruff` command line does
 * (ruff 0.17, "Configuring Ruff"):
 *
 * - For each directory, the nearest `.ruff.toml`, `ruff.toml` or `pyproject.toml`
 *   with a `[tool.ruff]` table (in that order of precedence within a directory;
 *   a `pyproject.toml` without the table is passed over), up to the repository root.
 * - `extend = "../path.toml"` loads a base first (its paths relative to itself);
 *   the extending file's keys win field by field; `extend-select`,
 *   `extend-exclude`, `extend-per-file-ignores` accumulate; `select` in a later
 *   file starts the rule selection over (the layering of ruff's `RuleSelection`s,
 *   folded into the one `lint` table the WebAssembly module takes).
 * - `exclude` (default: ruff's list) / `extend-exclude` / `include` /
 *   `lint.exclude` / `format.exclude`, `per-file-ignores` and
 *   `per-file-target-version` are path globs poly evaluates itself (the module
 *   sees no paths), with ruff's matching: base name, or absolute path against
 *   the pattern joined to the file's directory. A file a `per-file-target-version`
 *   glob matches is linted and formatted with that `target-version` (the first
 *   glob as written that matches; ruff keeps the table in a hash map, so where
 *   globs of different versions overlap its own pick is not the written order).
 * - A malformed key is a {@link ConfigError} naming the file and key.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import picomatch from "picomatch";
import { parse as parseToml } from "smol-toml";
import { ConfigError } from "../../errors/mod.ts";
import type { NativeFiles, NativeText } from "./_files.ts";
import { nearestUp, parseTomlText } from "./_reading.ts";
import type { NativeEngineConfig, NativePattern, NativeSource } from "./types.ts";
import { isTable, mergeTables, type Table, tableOf } from "../table.ts";
import { selectorCode } from "../../engines/ruff/codes.ts";

/** ruff's glob syntax (globset) as a regular expression: pep8-naming's `ignore-names` are such globs. */
export { globsetRegex } from "./_glob.ts";

/** The settings files `ruff check` lints by name (its default include has them): `RUF201` reads them. */
export const RUFF_SETTINGS_FILES: ReadonlySet<string> = new Set(["pyproject.toml", "ruff.toml", ".ruff.toml"]);

/** The files ruff looks for in one directory, highest precedence first. */
export const RUFF_FILES = [".ruff.toml", "ruff.toml", "pyproject.toml"] as const;

/**
 * ruff's default `exclude` at poly's pin (ruff 0.16.9: `ruff check --show-settings`, `file_resolver.exclude`): `_build`,
 * not `build` — sqlalchemy's `doc/build/conf.py` is checked by `ruff check`.
 */
export const RUFF_DEFAULT_EXCLUDE: readonly string[] = [
  ".bzr",
  ".direnv",
  ".eggs",
  ".git",
  ".git-rewrite",
  ".hg",
  ".ipynb_checkpoints",
  ".mypy_cache",
  ".nox",
  ".pants.d",
  ".pyenv",
  ".pytest_cache",
  ".pytype",
  ".ruff_cache",
  ".svn",
  ".tox",
  ".venv",
  ".vscode",
  "__pypackages__",
  "_build",
  "buck-out",
  "dist",
  "node_modules",
  "site-packages",
  "venv",
];

/** Keys that are about the command line itself (how it reports, caches, walks): meaningless to poly, accepted. */
const CLI_ONLY = new Set([
  "cache-dir",
  "fix",
  "unsafe-fixes",
  "show-fixes",
  "output-format",
  "force-exclude",
  "respect-gitignore",
  "required-version",
]);

/** Keys poly evaluates itself (paths) and keeps out of the module's options. */
const PATH_KEYS = new Set([
  "extend",
  "exclude",
  "extend-exclude",
  "include",
  "extend-include",
  "per-file-target-version",
]);

/** The ruff poly runs (deno.json's pin of `@astral-sh/ruff-wasm-nodejs`; lib/engines/ruff/mod.ts). */
export const RUFF_RELEASE = "0.16.9";

/**
 * The style guide a ruff release formats by: ruff changes its formatter's layout once a year, at a minor release (0.3.0
 * the 2024 style, 0.9.0 the 2025 one, 0.15.0 the 2026 one); before 0.3 it followed black 23's (2023 here). Undefined for
 * a version it cannot read, or past 0.x.
 */
export function ruffStyleGuide(version: string): number | undefined {
  const m = /^0\.(\d+)(\.|$)/.exec(version);
  if (!m) return undefined;
  const minor = Number(m[1]);
  return minor >= 15 ? 2026 : minor >= 9 ? 2025 : minor >= 3 ? 2024 : 2023;
}

/** The Python versions ruff 0.17 takes for `target-version` and `per-file-target-version`. */
const PYTHON_VERSION = /^py3(?:[7-9]|1[0-4])$/;

/** Rule-selection keys that ruff still reads at the top level (deprecated) and poly moves under `lint`. */
const LINT_KEYS = new Set([
  "select",
  "ignore",
  "extend-select",
  "extend-ignore",
  "fixable",
  "unfixable",
  "extend-fixable",
  "per-file-ignores",
  "extend-per-file-ignores",
  "extend-unsafe-fixes",
  "extend-safe-fixes",
  "dummy-variable-rgx",
  "allowed-confusables",
  "task-tags",
  "typing-modules",
  "logger-objects",
  "external",
  "ignore-init-module-imports",
]);

interface RuffLevel {
  file: NativeText;
  dir: string;
  table: Table;
}

function strings(file: string, key: string, v: unknown): string[] {
  if (!Array.isArray(v) || v.some((s) => typeof s !== "string")) {
    throw new ConfigError({ file }, `"${key}" must be a list of strings`);
  }
  return v as string[];
}

/** Parses one ruff file; `undefined` for a pyproject.toml without `[tool.ruff]`. */
function ruffTable(file: NativeText, display: string): Table | undefined {
  const doc = parseTomlText(file.text, display);
  if (file.path.endsWith("pyproject.toml")) {
    const tool = doc.tool;
    if (!isTable(tool) || !isTable(tool.ruff)) return undefined;
    // As ruff does: without `target-version`, the lowest Python `requires-python` allows.
    const requires = isTable(doc.project) ? doc.project["requires-python"] : undefined;
    const inferred = typeof requires === "string" ? targetVersion(requires) : undefined;
    return inferred && tool.ruff["target-version"] === undefined
      ? { "target-version": inferred, ...tool.ruff }
      : tool.ruff;
  }
  return doc;
}

/** The settings tables of ruff's rules that ruff still reads at the top level (deprecated) and poly moves under `lint`. */
const LINT_TABLES = ["isort", "pydocstyle", "pylint", "mccabe", "pep8-naming", "pycodestyle", "pyflakes", "pyupgrade"];

/**
 * Whether a ruff configuration configures ruff's linting: a key of its files (`origins`) under `lint`, or a rule
 * selection or rule settings at the top level. ruff's defaults (no file, or only `requires-python`) do not.
 */
export function configuresLint(ruff: NativeEngineConfig): boolean {
  return Object.keys(ruff.origins ?? {}).some((key) => {
    const first = key.split(".")[0];
    return first === "lint" || LINT_KEYS.has(first) || LINT_TABLES.includes(first) || first.startsWith("flake8-");
  });
}

/** Moves deprecated top-level lint keys under `lint` (a key under `lint` wins). */
function normalise(table: Table): Table {
  const out: Table = {};
  const lint: Table = { ...(tableOf(table.lint)) };
  for (const [k, v] of Object.entries(table)) {
    if (k === "lint") continue;
    if (
      LINT_KEYS.has(k) || (isTable(v) && k.startsWith("flake8-")) ||
      LINT_TABLES.includes(k)
    ) {
      if (!(k in lint)) lint[k] = v;
    } else out[k] = v;
  }
  if (Object.keys(lint).length > 0) out.lint = lint;
  return out;
}

/** The reader of ruff's configuration for a run. */
export class RuffReader {
  readonly #nearest = new Map<string, Promise<string | undefined>>();
  readonly #resolved = new Map<string, Promise<NativeEngineConfig>>();

  constructor(
    private readonly files: NativeFiles,
    private readonly display: (path: string) => string,
  ) {}

  /** The path of the ruff file governing `dir` (searching up to `top`), or undefined. */
  nearest(dir: string, top: string): Promise<string | undefined> {
    return nearestUp(this.#nearest, dir, top, async (at) => {
      const names = await this.files.namesIn(at);
      for (const name of RUFF_FILES) {
        if (!names.has(name)) continue;
        const path = join(at, name);
        if (name !== "pyproject.toml") return path;
        const file = await this.files.read(path).catch(() => undefined);
        if (file && /^\s*\[\s*tool\s*\.\s*ruff\b|^\s*\[\s*"?tool"?\s*\]/m.test(file.text)) {
          if (ruffTable(file, this.display(path)) !== undefined) return path;
        }
      }
      return undefined;
    });
  }

  /**
   * The nearest `pyproject.toml` from `dir` up to `top` whose `[project] requires-python`
   * names a Python version, with that version (`py3X`), or undefined. Without any ruff
   * configuration, ruff (0.10 and later) still takes the Python version from there.
   */
  async requiresPython(dir: string, top: string): Promise<{ file: NativeSource; version: string } | undefined> {
    for (let at = dir;; at = dirname(at)) {
      if ((await this.files.namesIn(at)).has("pyproject.toml")) {
        const path = join(at, "pyproject.toml");
        const file = await this.files.read(path).catch(() => undefined);
        let doc: Table | undefined;
        try {
          doc = file ? parseToml(file.text) as Table : undefined;
        } catch {
          doc = undefined; // not ruff's file: a pyproject.toml poly cannot parse gives no version
        }
        const requires = doc && isTable(doc.project) ? doc.project["requires-python"] : undefined;
        const version = typeof requires === "string" ? targetVersion(requires) : undefined;
        if (file && version) return { file: { path: file.path, hash: file.hash }, version };
      }
      if (at === top || dirname(at) === at) return undefined;
    }
  }

  /** The merged configuration of the ruff file at `path` (with its `extend` chain). */
  resolve(path: string): Promise<NativeEngineConfig> {
    let found = this.#resolved.get(path);
    if (!found) {
      found = this.#chain(path, []).then((levels) => withFirstParty(merge(levels, this.display)));
      this.#resolved.set(path, found);
    }
    return found;
  }

  async #chain(path: string, seen: string[]): Promise<RuffLevel[]> {
    const display = this.display(path);
    if (seen.includes(path)) {
      throw new ConfigError(
        { file: display },
        `"extend" forms a cycle: ${[...seen, path].map(this.display).join(" → ")}`,
      );
    }
    let file: NativeText;
    try {
      file = await this.files.read(path);
    } catch (e) {
      const from = seen.at(-1);
      throw new ConfigError(
        { file: from ? this.display(from) : display },
        `cannot read ruff configuration "${display}": ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    const table = ruffTable(file, display) ?? {};
    const level = { file, dir: dirname(path), table: normalise(table) };
    const extend = table.extend;
    if (extend === undefined) return [level];
    if (typeof extend !== "string") throw new ConfigError({ file: display }, `"extend" must be a path`);
    const base = join(dirname(path), extend.replace(/^~(?=\/)/, Deno.env.get("HOME") ?? "~"));
    return [...(await this.#chain(base, [...seen, path])), level];
  }
}

/** The keys whose values are lists of rule selectors, at the top (deprecated there) or in `lint`. */
export const SELECTOR_LISTS: readonly string[] = [
  "select",
  "extend-select",
  "ignore",
  "extend-ignore",
  "fixable",
  "extend-fixable",
  "unfixable",
  "extend-unfixable",
  "extend-safe-fixes",
  "extend-unsafe-fixes",
];

/** The keys whose values are tables of rule selector lists (by glob), at the top or in `lint`. */
export const SELECTOR_TABLES: readonly string[] = ["per-file-ignores", "extend-per-file-ignores"];

/**
 * `table` with each rule named by name in its selectors (ruff 0.16: `select = ["line-too-long"]`) named by its code
 * instead, as ruff resolves them: the selection fold below, per-file ignores and the engine read selectors as codes
 * and prefixes. The lists of `per-file-ignores` and `extend-per-file-ignores` too; other values as written.
 */
function withSelectorCodes(table: Table): Table {
  const codes = (v: unknown) => Array.isArray(v) ? v.map((s) => typeof s === "string" ? selectorCode(s) : s) : v;
  const fix = (t: Table): Table => {
    const out: Table = { ...t };
    for (const key of SELECTOR_LISTS) if (out[key] !== undefined) out[key] = codes(out[key]);
    for (const key of SELECTOR_TABLES) {
      if (isTable(out[key])) {
        out[key] = Object.fromEntries(Object.entries(out[key] as Table).map(([glob, v]) => [glob, codes(v)]));
      }
    }
    return out;
  };
  const out = fix(table);
  if (isTable(out.lint)) out.lint = fix(out.lint);
  return out;
}

/** A rule selection as folded so far: `select` (unset: ruff's default), and what extends and ignores it. */
export interface Selection {
  select?: string[];
  extendSelect: string[];
  ignore: string[];
}

/**
 * `state` with one more of ruff's `RuleSelection` layers (a configuration file's, or the command line's): a `select`
 * starts the selection over, an `extend-select` takes back what an earlier ignore named, an ignore in a layer without
 * `select` takes back what an earlier layer selected by that prefix.
 */
export function foldSelection(state: Selection, layer: Selection): Selection {
  let { select, extendSelect, ignore } = layer.select !== undefined
    ? { select: [...layer.select], extendSelect: [] as string[], ignore: [] as string[] }
    : { select: state.select && [...state.select], extendSelect: [...state.extendSelect], ignore: [...state.ignore] };
  for (const s of layer.extendSelect) {
    ignore = ignore.filter((i) => !(s === "ALL" || i.startsWith(s)));
    extendSelect.push(s);
  }
  for (const i of layer.ignore) {
    if (layer.select === undefined) {
      extendSelect = extendSelect.filter((s) => !(i === "ALL" || s.startsWith(i)));
      if (select) select = select.filter((s) => !(i === "ALL" || s.startsWith(i)));
    }
    ignore.push(i);
  }
  return { ...(select !== undefined ? { select } : {}), extendSelect, ignore };
}

/** A folded selection as `lint` keys (`select`, `extend-select`, `ignore`), those it sets. */
export function selectionTable(selection: Selection): Table {
  return {
    ...(selection.select !== undefined ? { select: selection.select } : {}),
    ...(selection.extendSelect.length > 0 ? { "extend-select": selection.extendSelect } : {}),
    ...(selection.ignore.length > 0 ? { ignore: selection.ignore } : {}),
  };
}

/**
 * A `lint` table with one more selection layer folded over its own (`select`, `extend-select`, `ignore`, as
 * {@link selectionTable} writes them): the command line's over the configuration's, as ruff folds them.
 */
export function foldOnto(lint: Table, layer: Selection): Table {
  const { select, "extend-select": extendSelect, ignore, ...rest } = lint;
  const folded = foldSelection({
    ...(Array.isArray(select) ? { select: select as string[] } : {}),
    extendSelect: (extendSelect ?? []) as string[],
    ignore: (ignore ?? []) as string[],
  }, layer);
  return { ...rest, ...selectionTable(folded) };
}

/** Merges levels (base first) into one configuration: see the module doc. */
function merge(levels: RuffLevel[], display: (path: string) => string): NativeEngineConfig {
  let options: Table = {};
  const origins: Record<string, string> = {};
  let selection: Selection = { extendSelect: [], ignore: [] };
  /** `extend-safe-fixes` and `extend-unsafe-fixes` accumulate over the `extend` chain, as ruff's do. */
  const safety: Record<string, string[]> = {};
  let exclude: NativePattern[] = RUFF_DEFAULT_EXCLUDE.map((pattern) => ({ pattern, base: levels.at(-1)!.dir }));
  let include: NativePattern[] | undefined;
  let perFileIgnores: NativePattern[] = [];
  let extendPerFile: NativePattern[] = [];
  let perFileTarget: NativePattern[] | undefined;
  const lintExclude: NativePattern[] = [];
  const fmtExclude: NativePattern[] = [];
  for (const { file, dir, table: written } of levels) {
    const table = withSelectorCodes(written);
    const name = display(file.path);
    const lint = isTable(table.lint) ? { ...table.lint } : {};
    const format = isTable(table.format) ? { ...table.format } : {};
    const globs = (key: string, v: unknown) => strings(name, key, v).map((pattern) => ({ pattern, base: dir }));
    if (table.exclude !== undefined) exclude = globs("exclude", table.exclude);
    if (table["extend-exclude"] !== undefined) {
      exclude = [...exclude, ...globs("extend-exclude", table["extend-exclude"])];
    }
    if (table.include !== undefined) include = globs("include", table.include);
    if (table["extend-include"] !== undefined) {
      include = [...(include ?? defaultInclude(dir)), ...globs("extend-include", table["extend-include"])];
    }
    if (lint.exclude !== undefined) lintExclude.push(...globs("lint.exclude", lint.exclude));
    if (format.exclude !== undefined) fmtExclude.push(...globs("format.exclude", format.exclude));
    const pfi = (key: string, v: unknown): NativePattern[] =>
      perFile(name, dir, key, v, "[codes]", (entry, codes) => ({ codes: strings(name, entry, codes) }));
    // The nearest file that sets it gives the whole table (ruff's `Option::or`), its globs relative to that file.
    if (table["per-file-target-version"] !== undefined) {
      perFileTarget = perFile(
        name,
        dir,
        "per-file-target-version",
        table["per-file-target-version"],
        '"py3X"',
        (entry, version) => pythonVersion(name, entry, version),
      );
    }
    if (lint["per-file-ignores"] !== undefined) perFileIgnores = pfi("lint.per-file-ignores", lint["per-file-ignores"]);
    if (lint["extend-per-file-ignores"] !== undefined) {
      extendPerFile = [...extendPerFile, ...pfi("lint.extend-per-file-ignores", lint["extend-per-file-ignores"])];
    }
    // Rule selection, layer by layer (ruff's RuleSelection fold).
    for (const key of ["extend-safe-fixes", "extend-unsafe-fixes"]) {
      if (lint[key] !== undefined) (safety[key] ??= []).push(...strings(name, `lint.${key}`, lint[key]));
      delete lint[key];
    }
    selection = foldSelection(selection, {
      ...(lint.select !== undefined ? { select: strings(name, "lint.select", lint.select) } : {}),
      extendSelect: lint["extend-select"] !== undefined
        ? strings(name, "lint.extend-select", lint["extend-select"])
        : [],
      ignore: [
        ...(lint.ignore !== undefined ? strings(name, "lint.ignore", lint.ignore) : []),
        ...(lint["extend-ignore"] !== undefined ? strings(name, "lint.extend-ignore", lint["extend-ignore"]) : []),
      ],
    });
    for (
      const k of [
        "select",
        "ignore",
        "extend-select",
        "extend-ignore",
        "per-file-ignores",
        "extend-per-file-ignores",
        "exclude",
      ]
    ) {
      delete lint[k];
    }
    delete format.exclude;
    const rest: Table = {};
    for (const [k, v] of Object.entries(table)) {
      if (k === "lint" || k === "format" || PATH_KEYS.has(k) || CLI_ONLY.has(k)) continue;
      rest[k] = v;
    }
    // `src` is relative to the file that sets it (an extended base's to the base), as ruff resolves it.
    if (table.src !== undefined) rest.src = strings(name, "src", table.src).map((p) => resolve(dir, p));
    if (Object.keys(lint).length > 0) rest.lint = lint;
    if (Object.keys(format).length > 0) rest.format = format;
    options = mergeTables(options, rest);
    note(origins, table, name);
  }
  const lint: Table = { ...(tableOf(options.lint)), ...selectionTable(selection) };
  Object.assign(lint, safety);
  if (Object.keys(lint).length > 0) options.lint = lint;
  const last = levels.at(-1)!;
  return {
    files: levels.map((l) => ({ path: l.file.path, hash: l.file.hash })),
    options,
    root: last.dir,
    exclude: {
      all: exclude,
      ...(lintExclude.length > 0 ? { lint: lintExclude } : {}),
      ...(fmtExclude.length > 0 ? { fmt: fmtExclude } : {}),
    },
    ...(include ? { include } : {}),
    ...(perFileIgnores.length + extendPerFile.length > 0
      ? { perFileIgnores: [...perFileIgnores, ...extendPerFile] }
      : {}),
    ...(perFileTarget?.length ? { perFileTarget } : {}),
    origins,
  };
}

/** A `per-file-target-version` entry's version, `py37` to `py314`. */
function pythonVersion(file: string, entry: string, version: unknown): { version: string } {
  if (typeof version === "string" && PYTHON_VERSION.test(version)) return { version };
  throw new ConfigError(
    { file },
    `"${entry}" must be a Python version from "py37" to "py314", not ${JSON.stringify(version)}`,
  );
}

/**
 * A per-file table of ruff's (`per-file-ignores`, `per-file-target-version`): glob = value, in the order written, each
 * glob relative to `dir` (a leading `!` negates it), its value read by `value` (`entry` names it for an error).
 */
function perFile(
  file: string,
  dir: string,
  key: string,
  v: unknown,
  shape: string,
  value: (entry: string, v: unknown) => Pick<NativePattern, "codes" | "version">,
): NativePattern[] {
  if (!isTable(v)) throw new ConfigError({ file }, `"${key}" must be a table of glob = ${shape}`);
  return Object.entries(v).map(([glob, data]) => ({
    pattern: glob.replace(/^!/, ""),
    base: dir,
    ...(glob.startsWith("!") ? { negated: true } : {}),
    ...value(`${key}."${glob}"`, data),
  }));
}

function defaultInclude(dir: string): NativePattern[] {
  return ["*.py", "*.pyi", "*.ipynb", "**/pyproject.toml"].map((pattern) => ({ pattern, base: dir }));
}

function note(origins: Record<string, string>, table: Table, file: string, prefix = ""): void {
  for (const [k, v] of Object.entries(table)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (isTable(v) && !key.endsWith("per-file-ignores") && key !== "per-file-target-version") {
      note(origins, v, file, key);
    } else origins[key] = file;
  }
}

/** isort's lists that place a module in a section other than first-party. */
export const ISORT_ELSEWHERE: readonly string[] = ["known-third-party", "known-local-folder", "extra-standard-library"];

/**
 * Whether an isort configuration places a module itself: by `keys`' lists (by default in a section other than
 * first-party, {@link ISORT_ELSEWHERE}) or in one of its `sections` (its patterns are globs).
 */
export function placedBy(isort: Table, keys: readonly string[] = ISORT_ELSEWHERE): (name: string) => boolean {
  const lists = keys.map((k) => isort[k]);
  if (isTable(isort.sections)) lists.push(...Object.values(isort.sections));
  const patterns = lists.flatMap((l) => Array.isArray(l) ? l.filter((p): p is string => typeof p === "string") : []);
  const matchers = patterns.map((p) => picomatch(p, { dot: true }));
  return (name) => matchers.some((m) => m(name));
}

/** The lowest `py3X` a `requires-python` specifier allows (`>=3.9`, `~=3.10`, `>=3.8,<4`), or undefined. */
export function targetVersion(requires: string): string | undefined {
  let lowest: number | undefined;
  for (const part of requires.split(",")) {
    const m = /^\s*(>=|~=|==|>)\s*3\.(\d+)/.exec(part);
    if (!m) continue;
    const minor = Number(m[2]) + (m[1] === ">" ? 1 : 0);
    lowest = lowest === undefined ? minor : Math.max(lowest, minor);
  }
  // ruff 0.17 knows py37 to py314.
  return lowest === undefined ? undefined : `py3${Math.min(14, Math.max(7, lowest))}`;
}

/**
 * ruff's first-party detection, which the WebAssembly module cannot do (it sees
 * no file system): a module is first-party when a directory or `.py`/`.pyi`
 * file of that name lies in one of the `src` directories (default `.` and
 * `src` of the governing file's directory; as written, relative to the file
 * of the `extend` chain that sets them). Their names are added to
 * `lint.isort.known-first-party`, and `src` is left out of the module's options.
 * A name the configuration already places — in `known-third-party`,
 * `known-local-folder`, `extra-standard-library` or one of its `sections`,
 * whose patterns ruff matches before it looks at `src` — is not added.
 */
/** Whether one component of a path holds glob syntax. */
const GLOB = /[*?[]/;

/**
 * The directories an absolute `src` entry names: itself, or those its glob matches, as ruff expands `src` (`*`, `?`
 * and `[...]` within one component, `**` for any depth: `src = ["packages/*"]` names each package's folder).
 */
async function srcDirs(entry: string): Promise<string[]> {
  if (!GLOB.test(entry)) return [entry];
  let dirs = [entry.startsWith("/") ? "/" : ""];
  for (const part of entry.split("/").filter(Boolean)) {
    const next: string[] = [];
    for (const dir of dirs) {
      if (!GLOB.test(part)) next.push(join(dir, part));
      else if (part === "**") next.push(dir, ...await dirsBelow(dir));
      else {
        const matches = picomatch(part);
        for (const name of await subdirs(dir)) if (matches(name)) next.push(join(dir, name));
      }
    }
    dirs = next;
  }
  return dirs;
}

/** The names of `dir`'s subdirectories; none when it cannot be listed. */
async function subdirs(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) if (e.isDirectory) names.push(e.name);
  } catch {
    // not a directory, or unreadable: nothing below it
  }
  return names;
}

/** Every directory below `dir` (hidden ones and `__pycache__` left out). */
async function dirsBelow(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await subdirs(dir)) {
    if (name.startsWith(".") || name === "__pycache__") continue;
    out.push(join(dir, name), ...await dirsBelow(join(dir, name)));
  }
  return out;
}

/**
 * `config` with the modules of its `src` folders (ruff's default: the governing file's folder and its `src`) among
 * isort's `known-first-party`, as `ruff check` finds them by path where the WebAssembly build sees none; a name the
 * configuration places elsewhere itself stays there. The names added are kept as `sourceModules`: ruff's
 * standard-library list comes before `src`, which only ruff's own module can answer (the engine asks it); and the
 * folders as `sourceDirs`, where the engine looks for the rest of a dotted module's path (`a.b` is first-party by `src`
 * only where `a/b` is there: lib/engines/ruff/_module.ts `sourceMisses`; a file right in one is no module of an implicit
 * namespace package, `namespaceFinding`).
 */
export async function withFirstParty(config: NativeEngineConfig): Promise<NativeEngineConfig> {
  const options = structuredClone(config.options);
  // Made absolute by `merge` against the file that set them; by default the governing file's folder and its `src`.
  const src = Array.isArray(options.src) ? (options.src as string[]) : [config.root, join(config.root, "src")];
  delete options.src;
  const names = new Set<string>();
  const dirs = (await Promise.all(src.map(srcDirs))).flat();
  for (const dir of dirs) {
    try {
      for await (const e of Deno.readDir(dir)) {
        if (e.name.startsWith(".") || e.name === "__pycache__" || /^__init__\.pyi?$/.test(e.name)) continue;
        if (e.isDirectory) names.add(e.name);
        else if (/\.pyi?$/.test(e.name)) names.add(e.name.replace(/\.pyi?$/, ""));
      }
    } catch {
      // A src directory that does not exist holds no first-party module.
    }
  }
  const lint = isTable(options.lint) ? { ...options.lint } : {};
  const isort = isTable(lint.isort) ? { ...lint.isort } : {};
  const placed = placedBy({ ...(tableOf(options.isort)), ...isort });
  const valid = [...names].filter((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n) && !placed(n)).sort();
  if (valid.length === 0) return { ...config, options, sourceDirs: dirs };
  const known = Array.isArray(isort["known-first-party"]) ? (isort["known-first-party"] as string[]) : [];
  const added = valid.filter((n) => !known.includes(n));
  isort["known-first-party"] = [...known, ...added];
  lint.isort = isort;
  options.lint = lint;
  return { ...config, options, sourceDirs: dirs, ...(added.length > 0 ? { sourceModules: added } : {}) };
}
