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
 * {@link asRuffChecks} brings the module's findings to those. Still out of reach
 * (said in docs/engines.md): other rules of the path (`INP001`, `N999`, `A005`,
 * `PLW0406`) and of the file's mode (`EXE001`, `EXE002`);
 * a stub (`.pyi`) is not checked at all (`refuseStub` in mod.ts).
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { ISORT_ELSEWHERE, placedBy } from "../../config/native/ruff.ts";
import { tableOf } from "../../config/table.ts";

/** Whether `dir` holds an `__init__.py` or `__init__.pyi`: a package, for ruff. */
function isPackage(dir: string): boolean {
  for (const name of ["__init__.py", "__init__.pyi"]) {
    try {
      if (Deno.statSync(join(dir, name)).isFile) return true;
    } catch {
      // not this one
    }
  }
  return false;
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
 * `findings` (ruff's WebAssembly build's, for the file at `path`) as `ruff check` gives them there. The packages
 * around the file are looked at only when a finding depends on them.
 */
export function asRuffChecks<T extends Finding>(path: string, findings: T[], preview = false): T[] {
  const init = /^__init__\.pyi?$/.test(basename(path));
  const docstrings = findings.some((f) => f.code !== null && MISSING_DOCSTRING.test(f.code));
  if (!docstrings && !init) return findings;
  const hidden = docstrings && modulePath(path).some(isPrivate);
  const out: T[] = [];
  for (const f of findings) {
    if (f.code !== null && MISSING_DOCSTRING.test(f.code) && hidden) continue;
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
