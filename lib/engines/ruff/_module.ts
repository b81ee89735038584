/**
 * What `ruff check` decides from a file's place among Python packages, which ruff's
 * WebAssembly build cannot see: it checks a text without a path. Natively:
 *
 * - the pydocstyle rules for missing docstrings (`D100`–`D107`) skip a private
 *   module's definitions: a module is private when a name on its module path
 *   starts with `_` and is not a dunder (`pkg/_internal/config.py`, `_script.py`;
 *   not `__main__.py`), its module path being its packages' names (folders holding
 *   an `__init__.py` or `__init__.pyi`, walked up from the file's) and its own;
 * - an `__init__.py` is a package: its missing docstring is `D104` ("in public
 *   package"), not `D100`; `F822` (an undefined name in `__all__`) is not
 *   reported there (but under `preview`), nor `PLC0414` (`import x as x`: a
 *   re-export), nor `F821` for `__path__` (a package's own).
 *
 * {@link asRuffChecks} brings the module's findings to those; {@link namespaceFinding}
 * reports `INP001`; {@link withoutOwnPrivateImports} leaves out the `PLC2701`s of
 * imports from the file's own package (`RUF067`, code in an `__init__.py`, is
 * worked out in `_init_module.ts`); {@link invalidModuleName} and
 * {@link shadowingCandidate} give `N999` and `A005` ({@link withUsedDirectives}
 * keeps the directives of all of them out of `RUF100`'s unused codes); a stub (`.pyi`) is not checked at all (`refuseStub` in mod.ts). isort's
 * first-party modules by the file system: {@link ownPackage} and {@link sourceMisses}.
 *
 * @module
 */
import { basename, dirname, join, relative, sep } from "node:path";
import { globsetRegex, ISORT_ELSEWHERE, placedBy } from "../../config/native/ruff.ts";
import { tableOf } from "../../config/table.ts";
import { isFileSync } from "../../fs/is_file.ts";

/** Whether the folder of the file at `path` holds an `__init__.py` (what `INP001` asks of it). */
export function besideInit(path: string): boolean {
  return isFileSync(join(dirname(path), "__init__.py"));
}

/** Whether `dir` holds an `__init__.py` or `__init__.pyi`: a package, for ruff. */
function isPackage(dir: string): boolean {
  return isFileSync(join(dir, "__init__.py")) || isFileSync(join(dir, "__init__.pyi"));
}

/** The names of `path`'s module path as ruff makes it: its packages' (outermost first) and its own stem. */
export function modulePath(path: string): string[] {
  const names = [basename(path).replace(/\.pyi?$/, "")];
  for (let dir = dirname(path); isPackage(dir); dir = dirname(dir)) {
    names.unshift(basename(dir));
    if (dirname(dir) === dir) break;
  }
  return names;
}

/**
 * The modules a text imports absolutely: `import a.b as c, d` gives `a.b` and `d`, `from a.b import c` gives `a.b`
 * (what ruff's isort categorizes). Statements at the start of a line only (not after `;` or a block's colon on the same
 * line); a line of a string that reads like one counts too, which at worst names a module the file does not import.
 */
export function importedModules(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(/^[ \t]*(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b|import[ \t]+([^#;\n]+))/gm)) {
    if (m[1] !== undefined) names.push(m[1]);
    else {
      for (const part of m[2].split(",")) {
        const name = /^\s*([A-Za-z_][\w.]*)/.exec(part)?.[1];
        if (name) names.push(name);
      }
    }
  }
  return names;
}

/** Whether `path` is a folder, or `path.py` or `path.pyi` a file: a module ruff's `src` matching finds there. */
function moduleAt(path: string): boolean {
  try {
    if (Deno.statSync(path).isDirectory) return true;
  } catch {
    // no folder: a file, then
  }
  return isFileSync(`${path}.py`) || isFileSync(`${path}.pyi`);
}

/**
 * The dotted modules the text of the file at `path` imports that `ruff check` does not count first-party, although their
 * first name is one of the modules of its `src` folders (`sourceModules`, which poly lists as isort's
 * `known-first-party` for the WebAssembly build, and a known name counts every module below it): ruff 0.16.9 matches
 * the whole path, so `a.b.c` is first-party by `src` only where `a/b/c` is a folder, or `a/b/c.py` or `a/b/c.pyi` a
 * file, in one of the folders (`sourceDirs`) — pytest's `src/py.py` makes `py` first-party and `py.path` not; nor is a
 * compiled submodule (`pkg/_speedups.*.so`). Left out, as ruff decides them earlier: a module of the file's own package
 * (`detect-same-package`) and one a dotted pattern of the configuration places (`known-*`, `sections`). Sorted; empty
 * when the options do not select isort's rule. `text` may be a function: then it is asked only when needed. Such a
 * module goes in isort's default section (`Ruff.#fileLintOptionsOf`), unless ruff's standard library has its first
 * name (the engine asks ruff).
 */
export function sourceMisses(
  path: string,
  text: string | (() => string),
  source: { sourceModules?: string[]; sourceDirs?: string[] } | undefined,
  options: Record<string, unknown>,
): string[] {
  const modules = source?.sourceModules ?? [];
  const dirs = source?.sourceDirs ?? [];
  if (modules.length === 0 || dirs.length === 0 || !isortSelected(options)) return [];
  const candidates = [...new Set(importedModules(typeof text === "string" ? text : text()))].filter((name) => {
    const dot = name.indexOf(".");
    return dot > 0 && modules.includes(name.slice(0, dot));
  });
  if (candidates.length === 0) return [];
  const isort = { ...tableOf(options.isort), ...tableOf(tableOf(options.lint).isort) };
  const own = isort["detect-same-package"] === false ? undefined : modulePath(path);
  const placed = placedBy(isort, ["known-first-party", ...ISORT_ELSEWHERE]);
  const misses: string[] = [];
  for (const name of candidates) {
    const parts = name.split(".");
    if (own && own.length >= 2 && own[0] === parts[0]) continue;
    // Dotted patterns make ruff look at each prefix of the name, longest first.
    if (parts.slice(1).some((_, i) => placed(parts.slice(0, i + 2).join(".")))) continue;
    if (!dirs.some((dir) => moduleAt(join(dir, ...parts)))) misses.push(name);
  }
  return misses.sort();
}

/** Where `INP001` looks: the project's root (the governing configuration's folder), `src`, `namespace-packages`. */
export interface ModulePlace {
  root: string;
  src: readonly string[];
  namespaces: readonly string[];
  /** ruff's preview: an `__init__.py` nested under an implicit namespace package is reported too. */
  preview?: boolean;
}

/**
 * `INP001` (a module of an implicit namespace package) as `ruff check` 0.16.9 reports it for the file at `path`, which
 * the WebAssembly build cannot (it sees no path): a `.py` file whose folder holds no `__init__.py` (nor lies at or
 * below one of the `namespace-packages`), unless that folder is the project's root or a `src` folder, the text starts
 * with a shebang, or holds a PEP 723 script block. The message names the file by `relPath`, as ruff names it from
 * where it runs. No message when it does not apply, or a `noqa` directive on the first line or a file-level
 * `# ruff: noqa` suppresses it ({@link suppresses}). `directives`: where it applies, suppressed or not, the lines of
 * the directives that could suppress it (the first line, the file-level exemptions), used then for `RUF100`.
 */
export function namespaceFinding(
  path: string,
  relPath: string,
  text: string,
  place: ModulePlace,
): { message?: string; directives: number[] } {
  const dir = dirname(path);
  // ruff's package test here: an `__init__.py` (a stub's `__init__.pyi` is none), or a folder at or below one of the
  // `namespace-packages`.
  const applies = path.endsWith(".py") && !inNamespace(dir, place.namespaces) && !besideInit(path) &&
    dir !== place.root &&
    !place.src.includes(dir) && !text.startsWith("#!") && !SCRIPT_BLOCK.test(text);
  const parent = applies || !place.preview ? undefined : nestedPackageParent(path, relPath, place.namespaces);
  if (!applies && parent === undefined) return { directives: [] };
  const exempt = exemptions(text);
  const directives = [1, ...exempt.map((e) => e.row)];
  if (suppresses(text, "INP001", exempt)) return { directives };
  return {
    message: parent === undefined
      ? `File \`${relPath}\` is part of an implicit namespace package. Add an \`__init__.py\`.`
      : `File \`${relPath}\` declares a package, but is nested under an implicit namespace package. Add an \`__init__.py\` to \`${parent}\`.`,
    directives,
  };
}

/**
 * For the `__init__.py` of a package root that lies below another package of the run (ruff 0.16.9 under preview: a folder
 * with an `__init__.py` above the root, at or below the folder the run starts in, which `relPath` gives), the folder
 * that lacks its `__init__.py` — the first from the root up without one — relative to that folder, as `INP001` names
 * it there (pytest's `testing/example_scripts/collect/collect_init_tests/tests/__init__.py`, below
 * `testing/example_scripts/__init__.py`). Undefined for any other file. (ruff asks whether any file of the run has its
 * root above; an `__init__.py` above is one, unless the run excludes it.)
 */
export function nestedPackageParent(path: string, relPath: string, namespaces: readonly string[]): string | undefined {
  if (basename(path) !== "__init__.py" || !path.endsWith(relPath)) return undefined;
  const top = path.slice(0, path.length - relPath.length).replace(/[\\/]$/, "") || sep;
  // ruff marks the root's own folder nested, not the folders below it: only the root's `__init__.py` is reported.
  const root = packageRoot(path, namespaces);
  if (root === undefined || root !== dirname(path)) return undefined;
  let nested = false;
  for (let dir = dirname(root); !nested && (dir === top || dir.startsWith(top.endsWith(sep) ? top : top + sep));) {
    nested = isFileSync(join(dir, "__init__.py"));
    if (dirname(dir) === dir) break;
    dir = dirname(dir);
  }
  if (!nested) return undefined;
  for (let dir = root;; dir = dirname(dir)) {
    if (!isFileSync(join(dir, "__init__.py"))) return relative(top, dir) || ".";
    if (dirname(dir) === dir) return undefined;
  }
}

/** Whether folder `dir` is one of `namespaces` (ruff's `namespace-packages`, absolute) or below one. */
function inNamespace(dir: string, namespaces: readonly string[]): boolean {
  return namespaces.some((ns) => dir === ns || dir.startsWith(ns.endsWith(sep) ? ns : ns + sep));
}

/**
 * The package root `ruff check` finds for the file at `path` (its `detect_package_root`): the outermost of the folders
 * around the file, walked up from its own while each holds an `__init__.py` or lies at or below one of the
 * `namespace-packages` (absolute); undefined for a file in no package.
 */
export function packageRoot(path: string, namespaces: readonly string[] = []): string | undefined {
  let root: string | undefined;
  for (
    let dir = dirname(path);
    inNamespace(dir, namespaces) || isFileSync(join(dir, "__init__.py"));
    dir = dirname(dir)
  ) {
    root = dir;
    if (dirname(dir) === dir) break;
  }
  return root;
}

/** The file's {@link packageRoot}, looked up on the first call only: the rules and keys that need it share it. */
export function lazyPackageRoot(path: string, namespaces: readonly string[] = []): () => string | undefined {
  let found: { root?: string } | undefined;
  return () => (found ??= { root: packageRoot(path, namespaces) }).root;
}

/**
 * The module path `ruff check` resolves relative imports against (its `to_module_path`): each name from the package
 * root (`root`, the file's {@link packageRoot}) down to the file, a file's without its extension (`pkg/sub/__init__.py` is `pkg.sub.__init__`); undefined for
 * a file in no package, where ruff resolves none.
 */
export function rootedModulePath(path: string, root: string | undefined): string[] | undefined {
  if (root === undefined) return undefined;
  return relative(dirname(root), path).split(sep).map((name) => name.replace(/(?<=.)\.[^.]*$/, ""));
}

/**
 * `text` with each relative `from` import made absolute against `module` ({@link rootedModulePath}), as ruff resolves
 * it (`from ..errors import X` in `pkg.sub.mod` is `pkg.errors`): each statement keeps its line, so what ruff finds
 * on any other line is where it is in `text`. An import with more dots than the path has names is left as it is (ruff
 * resolves none); so are statements after `;` or a block's colon on the same line.
 */
export function absoluteImports(text: string, module: readonly string[]): string {
  return text.replace(
    /^([ \t]*from[ \t]+)(\.+)[ \t]*(?!import\b)([A-Za-z_][\w.]*)?(?=[ \t]+import\b)/gm,
    (whole, head: string, dots: string, name: string | undefined) => {
      if (dots.length > module.length) return whole;
      const absolute = [...module.slice(0, module.length - dots.length), ...(name ? [name] : [])].join(".");
      return absolute === "" ? whole : `${head}${absolute}`;
    },
  );
}

/**
 * `findings` without the `PLC2701`s (a private name imported from an external module) `ruff check` does not report:
 * an import whose first module name is the file's own package root's name (`root`) is not external —
 * litestar's `from litestar._asgi import ...` in `litestar/_asgi/__init__.py`. The WebAssembly build knows no package
 * and reported each. The module comes from the message (``from external module `a.b` ``; without it the private name
 * is the first module itself).
 */
export function withoutOwnPrivateImports<T extends Finding>(findings: T[], root: () => string | undefined): T[] {
  if (!findings.some((f) => f.code === "PLC2701")) return findings;
  const dir = root();
  if (dir === undefined) return findings;
  const own = basename(dir);
  return findings.filter((f) => {
    const m = f.code === "PLC2701"
      ? /^Private name import `([^`]+)`(?: from external module `([^`]+)`)?$/.exec(f.message)
      : null;
    return m === null || (m[2] ?? m[1]).split(".")[0] !== own;
  });
}

/** Python's keywords (ruff's `is_keyword`): no module is named one. */
const KEYWORDS: ReadonlySet<string> = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
]);

/** pep8-naming's `ignore-names` when the configuration sets none (ruff 0.16.9's defaults). */
const DEFAULT_IGNORE_NAMES = [
  "setUp",
  "tearDown",
  "setUpClass",
  "tearDownClass",
  "setUpModule",
  "tearDownModule",
  "asyncSetUp",
  "asyncTearDown",
  "setUpTestData",
  "failureException",
  "longMessage",
  "maxDiff",
];

/** Whether a file is `__init__` or `__main__` (`.py`, `.pyi`): a module named by its folder. */
function isModuleFile(path: string): boolean {
  return /^__(init|main)__\.pyi?$/.test(basename(path));
}

/**
 * `N999` (an invalid module name) as `ruff check` 0.16.9 reports it for the file at `path`, or undefined: in a package
 * (its {@link packageRoot}, `root`), the file's stem, or for an `__init__` or `__main__` file the package root's folder name (so
 * ruff names `Top-Pkg` for `Top-Pkg/__init__.py` and nothing for `pkg/Bad-Dir/__init__.py`), must be lower case
 * letters, digits and `_` not starting with a digit (in a `versions` or `migrations` folder it may) and no keyword,
 * unless pep8-naming's `ignore-names` (globs; `extend-ignore-names` adds) match it. The name, when it is invalid.
 */
export function invalidModuleName(
  path: string,
  root: string | undefined,
  options: Record<string, unknown>,
): string | undefined {
  if (!/\.pyw?$/.test(path) || root === undefined) return undefined;
  const name = isModuleFile(path) ? basename(root) : basename(path).replace(/\.[^.]*$/, "");
  const migration = ["versions", "migrations"].includes(basename(dirname(path)));
  const valid = (migration ? /^[a-z0-9_]*$/ : /^[a-z_][a-z0-9_]*$/).test(name) && !KEYWORDS.has(name);
  if (valid) return undefined;
  const naming = { ...tableOf(options["pep8-naming"]), ...tableOf(tableOf(options.lint)["pep8-naming"]) };
  const list = (v: unknown) => Array.isArray(v) ? v.map(String) : undefined;
  const ignore = [
    ...(list(naming["ignore-names"]) ?? DEFAULT_IGNORE_NAMES),
    ...(list(naming["extend-ignore-names"]) ?? []),
  ];
  return ignore.some((glob) => globsetRegex(glob).test(name)) ? undefined : name;
}

/**
 * The module name `A005` (a module shadowing the standard library's) asks about for the file at `path`, as ruff 0.16.9
 * makes it, or undefined where the rule cannot apply: the path below the longest of `prefixes` (the `src` folders and
 * the project's root) it lies in, an `__init__.py`'s folder standing for it, its last name — unless a folder name is
 * left above it and `strict` (`flake8-builtins.strict-checking`) is off, the name is private (`_x`, not `__x`), or
 * `allowed-modules` lists it. Whether ruff's standard library has it is asked of ruff (mod.ts).
 */
export function shadowingCandidate(
  path: string,
  prefixes: readonly string[],
  options: Record<string, unknown>,
): string | undefined {
  if (!/\.pyw?$/.test(path)) return undefined;
  const inside = (dir: string) => path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
  const prefix = prefixes.filter(inside).sort((a, b) => b.length - a.length)[0];
  const rest = prefix === undefined ? path : path.slice(prefix.length + (prefix.endsWith(sep) ? 0 : 1));
  const module = isModuleFile(rest) ? dirname(rest) : rest.replace(/\.[^./\\]*$/, "");
  const names = module.split(sep).filter((n) => n !== "" && n !== "." && n !== "..");
  const name = names.at(-1);
  if (name === undefined || (name.startsWith("_") && !name.startsWith("__"))) return undefined;
  const builtins = { ...tableOf(options["flake8-builtins"]), ...tableOf(tableOf(options.lint)["flake8-builtins"]) };
  const strict = (builtins["strict-checking"] ?? builtins["builtins-strict-checking"]) === true;
  if (!strict && names.length > 1) return undefined;
  const allowed = builtins["allowed-modules"] ?? builtins["builtins-allowed-modules"];
  return Array.isArray(allowed) && allowed.map(String).includes(name) ? undefined : name;
}

/** PEP 723's inline script metadata block (`# /// script` ... `# ///`). */
const SCRIPT_BLOCK = /^# \/\/\/ script\r?\n(?:#(?: .*)?\r?\n)*?# \/\/\/\r?$/m;

/**
 * Whether a finding of `code` whose directive belongs on line `row` (1-based; the first by default) of `text` is
 * suppressed, as ruff reads directives: a `noqa` comment on that line, blanket or naming the code, or a file-level
 * exemption on a line of its own (`# ruff: noqa`, `# flake8: noqa`, `# ruff: noqa: CODE`).
 */
export function suppresses(text: string, code: string, exempt = exemptions(text), row = 1): boolean {
  const names = (list: string | undefined) => list === undefined || list.split(/[\s,]+/).includes(code);
  const at = text.split("\n", row)[row - 1] ?? "";
  const line = /#\s*noqa(?::\s*([A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?/i.exec(at);
  if (line && names(line[1])) return true;
  return exempt.some((e) => e.tool === "flake8" || names(e.codes));
}

/** A text's file-level exemptions (`# ruff: noqa`, `# flake8: noqa`, `# ruff: noqa: A, B`): line (1-based), codes. */
export function exemptions(text: string): { row: number; tool: string; codes?: string }[] {
  const out: { row: number; tool: string; codes?: string }[] = [];
  const re = /^[ \t]*#[ \t]*(ruff|flake8)[ \t]*:[ \t]*noqa(?::[ \t]*([A-Z0-9, \t]+?))?[ \t]*\r?$/gim;
  for (const m of text.matchAll(re)) {
    const row = text.slice(0, m.index).split("\n").length;
    out.push({ row, tool: m[1].toLowerCase(), ...(m[2] !== undefined ? { codes: m[2] } : {}) });
  }
  return out;
}

/** A module name that makes its module private: `_x`, but not a dunder (`__main__`). */
function isPrivate(name: string): boolean {
  return name.startsWith("_") && !(name.startsWith("__") && name.endsWith("__"));
}

/** The pydocstyle rules for a missing docstring, which follow the module's visibility. */
const MISSING_DOCSTRING = /^D10[0-7]$/;

/** What the findings of {@link asRuffChecks} need: a code, and a message that names the rule's subject. */
interface Finding {
  code: string | null;
  message: string;
}

/**
 * `findings` with `RUF100` (an unused `noqa` directive) as `ruff check` has it where poly works rules out itself (the
 * rules of the file's place: `INP001`, `RUF067`, `N999`, `A005`, `PLW0406`, `EXE001`, `EXE002`), which the WebAssembly
 * build never reports and so counts unused wherever a directive names them (pytest's `from _pytest import timing  #
 * noqa: PLW0406`), and its fix deletes the code. `used`: by line, the codes of those findings that apply there,
 * suppressed or not. Such codes are taken out of the finding's unused ones: a finding left with none is dropped, and
 * one left with others (`unused: \`F401\``, `non-enabled: ...`) keeps them without its fix, which would delete the
 * rest too. `usedDirective`: what `ruff check` reports instead of a dropped finding, given the codes used there (its
 * `RUF105`, under preview), if anything.
 */
export function withUsedDirectives<T extends Finding & { fix: unknown; start_location: { row: number } }>(
  findings: T[],
  used: ReadonlyMap<number, readonly string[]> = new Map(),
  usedDirective?: (dropped: T, codes: readonly string[]) => T | undefined,
): T[] {
  if (!findings.some((f) => f.code === "RUF100")) return findings;
  const out: T[] = [];
  for (const f of findings) {
    const here = f.code === "RUF100" ? used.get(f.start_location.row) ?? [] : [];
    // A blanket directive where poly's own finding applies is used.
    if (here.length > 0 && f.message === "Unused blanket `noqa` directive") {
      const instead = usedDirective?.(f, here);
      if (instead) out.push(instead);
      continue;
    }
    const usedHere = (code: string) => here.includes(code.replace(/^`|`$/g, ""));
    // ruff's message: `Unused \`noqa\` directive (unused: \`A\`, \`B\`; non-enabled: \`C\`; duplicated: ...; unknown: ...)`.
    const listed = f.code === "RUF100" ? /^Unused `noqa` directive \((.*)\)$/.exec(f.message)?.[1] : undefined;
    const parts = (listed ?? "").split("; ").map((part) => {
      const at = part.indexOf(": ");
      return { label: part.slice(0, at), codes: part.slice(at + 2).split(", ") };
    });
    const unused = parts.find((p) => p.label === "unused");
    if (listed === undefined || !unused?.codes.some(usedHere)) {
      out.push(f);
      continue;
    }
    unused.codes = unused.codes.filter((code) => !usedHere(code));
    const left = parts.filter((p) => p.codes.length > 0);
    if (left.length === 0) {
      const instead = usedDirective?.(f, here);
      if (instead) out.push(instead);
      continue;
    }
    const message = `Unused \`noqa\` directive (${left.map((p) => `${p.label}: ${p.codes.join(", ")}`).join("; ")})`;
    out.push({ ...f, message, fix: null });
  }
  return out;
}

/**
 * `findings` (ruff's WebAssembly build's, for the file at `path`) as `ruff check` gives them there. The packages
 * around the file are looked at only when a finding depends on them. In a private module every function is private:
 * a public function's missing return annotation (`ANN201`) is `ANN202` there, reported where the options enable that
 * rule (`enables`: asked of ruff).
 */
export function asRuffChecks<T extends Finding>(
  path: string,
  findings: T[],
  preview = false,
  enables: (code: string) => boolean = () => false,
): T[] {
  const init = /^__init__\.pyi?$/.test(basename(path));
  const docstrings = findings.some((f) => f.code !== null && MISSING_DOCSTRING.test(f.code));
  const annotations = findings.some((f) => f.code === "ANN201");
  if (!docstrings && !init && !annotations) return findings;
  const hidden = (docstrings || annotations) && modulePath(path).some(isPrivate);
  const out: T[] = [];
  for (const f of findings) {
    if (f.code !== null && MISSING_DOCSTRING.test(f.code) && hidden) continue;
    if (f.code === "ANN201" && hidden) {
      if (enables("ANN202")) {
        out.push({ ...f, code: "ANN202", message: f.message.replace("for public function", "for private function") });
      }
      continue;
    }
    if (init && ((f.code === "F822" && !preview) || f.code === "PLC0414")) continue;
    if (init && f.code === "F821" && f.message.includes("`__path__`")) continue;
    out.push(init && f.code === "D100" ? { ...f, code: "D104", message: "Missing docstring in public package" } : f);
  }
  return out;
}

/**
 * Whether ruff options (as handed to its WebAssembly build) select a missing-docstring rule: any of `select` and
 * `extend-select` (in `lint` or at the top) that is `ALL` or a prefix of `D100`–`D107`. Only then does a file's
 * result depend on the packages around it (an `__init__.py`'s own rules follow its name).
 */
export function docstringsSelected(options: Record<string, unknown>): boolean {
  return selectors(options).some((s) => s === "ALL" || /^D(1(0[0-7]?)?)?$/.test(s));
}

/**
 * Whether the options select isort's rule: `ALL`, `I`, `I0`, `I00` or `I001` among their selectors, or no `select` at
 * all — ruff 0.16.9's default set has `I001` (parity/ruff-default-selection), as celery's `examples/pydantic/tasks.py`
 * showed: without a ruff file, its own package is first-party there too.
 */
function isortSelected(options: Record<string, unknown>): boolean {
  const explicit = tableOf(options.lint).select !== undefined || options.select !== undefined;
  return !explicit || selectors(options).some((s) => s === "ALL" || /^I(0(01?)?)?$/.test(s));
}

/**
 * Whether ruff options select a missing return annotation of a public or private function (`ANN201`, `ANN202`): then,
 * too, a file's result depends on the packages around it (a private module's functions are private).
 */
export function annotationsSelected(options: Record<string, unknown>): boolean {
  return maySelect(options, "ANN201") || maySelect(options, "ANN202");
}

/**
 * Whether the options' selectors may select rule `code`: `ALL`, or a prefix of the code at least as long as its
 * linter's letters (`INP`, `INP0`, ... `INP001`). An `ignore` may still leave it off: ruff decides (the engine asks).
 */
export function maySelect(options: Record<string, unknown>, code: string): boolean {
  const letters = /^[A-Z]+/.exec(code)?.[0].length ?? 0;
  return selectors(options).some((s) => s === "ALL" || (s.length >= letters && code.startsWith(s)));
}

/** The rule selectors of ruff options: `select` and `extend-select`, in `lint` or at the top. */
function selectors(options: Record<string, unknown>): string[] {
  const lint = tableOf(options.lint);
  return [lint.select, lint["extend-select"], options.select, options["extend-select"]]
    .flatMap((list) => Array.isArray(list) ? list.map(String) : []);
}

/**
 * The module ruff's isort counts first-party in the file at `path` because it is the file's own package
 * (`detect-same-package`, on by default): the name of the outermost package folder around the file, when the options
 * select isort's rule ({@link isortSelected}), leave `detect-same-package` on and place that name nowhere
 * themselves (its `known-*` lists, `extra-standard-library`, `sections`: ruff looks at those first). Undefined for a
 * file in no package. ruff also looks at its standard-library list first: the engine asks its module (mod.ts).
 */
export function ownPackage(path: string, options: Record<string, unknown>): string | undefined {
  if (!isortSelected(options)) return undefined;
  const isort = { ...tableOf(options.isort), ...tableOf(tableOf(options.lint).isort) };
  if (isort["detect-same-package"] === false) return undefined;
  const names = modulePath(path);
  if (names.length < 2) return undefined;
  return placedBy(isort, ["known-first-party", ...ISORT_ELSEWHERE])(names[0]) ? undefined : names[0];
}
