/**
 * The Python formatters a repository declares among its dependencies — black, ruff — for where no configuration of
 * theirs governs. A project that lists `black` in `requirements-dev.txt` and runs `black .` formats at black's defaults
 * (88 columns), which poly's defaults (120) would undo in every long line, as a `package.json` listing prettier says
 * for JavaScript (lib/config/native/prettier.ts). lib/config/native/mod.ts makes black format there (from PATH, as
 * under a `[tool.black]` table), and makes ruff's own defaults govern where ruff is declared.
 *
 * Where a declaration is read, in the nearest folder from a file's directory up to the repository root that declares
 * either tool:
 *
 * - `pyproject.toml`: `[project] optional-dependencies`, PEP 735's `[dependency-groups]`, uv's
 *   `[tool.uv] dev-dependencies`, PDM's `[tool.pdm.dev-dependencies]`, Hatch's environments' `dependencies` and
 *   `extra-dependencies`, Poetry's `dev-dependencies` and `group.<name>.dependencies` — the tooling, not what a
 *   package needs to run (a code generator may depend on black to format what it writes);
 * - the requirement files pip reads: `requirements.txt` and its kin (`requirements-dev.txt`, `dev-requirements.txt`,
 *   `requirements_lint.in`, ...), and the `.txt` and `.in` files of a `requirements/` folder;
 * - `Pipfile`'s `[dev-packages]`;
 * - tox's environments' `deps` (`tox.ini`'s `[testenv]` and `[testenv:<name>]` sections: a `lint` environment that
 *   installs black to run `black --check .`);
 * - a Makefile whose recipes run black (`black .`, `python -m black -l 100 src`, `poetry run black --check .`): it
 *   declares black, and the flags it gives black that shape its layout are kept ({@link makefileBlack});
 * - else, in the folder holding `.github`, GitHub Actions workflows that run black, in a step's script or through the
 *   `psf/black` action (its `options`, its `version`): the same ({@link workflowBlack}).
 *
 * The release: the version a lockfile beside a `pyproject.toml` holds (`uv.lock`, `poetry.lock`, `pdm.lock`), else the
 * one a specifier pins (`==0.6.9`, `~=23.1`, Poetry's `23.1.0`, `^0.6`, `~0.6.1`); what matters is the style guide it
 * formats by (black's major version, ruff's minor one), so a range that fixes that is enough. A file that does not
 * parse declares nothing: it is not poly's to judge, and the tools' own readers say so where they read it.
 *
 * @module
 */
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import type { NativeFiles } from "./_files.ts";
import { nearestUp } from "./_reading.ts";
import { parseIni } from "./_ini.ts";
import type { NativeSource } from "./types.ts";
import { isTable, type Table, tableOf } from "../table.ts";
import { BLACK_QUIET } from "./hook_args.ts";

/** The Python formatters whose declarations are read. */
export type DeclaredFormatter = "black" | "ruff";

/** One tool a folder's files declare. */
export interface Declared {
  /** The file that declares it (the first, in the order above). */
  file: NativeSource;
  /** The release it pins, as far as its style guide goes (`0.6.9`, `23.1`, `0.6`), where one is pinned. */
  release?: string;
  /** Where the release comes from, when not from the declaring file (a lockfile's path). */
  lockfile?: string;
}

/** What the nearest folder declaring black or ruff declares. */
export interface PythonDeclarations {
  /** The folder whose files declare them. */
  dir: string;
  black?: Declared;
  ruff?: Declared;
  /**
   * The flags a Makefile there gives black that shape its layout (`-l`, `-S`, ...), where its recipes run black; else
   * those its GitHub Actions workflows give it. `by` names them in an error.
   */
  blackFlags?: { file: NativeSource; args: string[]; by: string };
}

const TOOLS: readonly DeclaredFormatter[] = ["black", "ruff"];

/** pip's requirement files by name: `requirements.txt`, `requirements-dev.txt`, `dev-requirements.in`, ... */
const REQUIREMENTS = /^(?:[\w.-]*[-_.])?requirements(?:[-_.][\w.-]*)?\.(?:txt|in)$/i;

const LOCKFILES = ["uv.lock", "poetry.lock", "pdm.lock"];

/** The Makefiles GNU make reads, in its order. */
const MAKEFILES = ["GNUmakefile", "makefile", "Makefile"];

/** Reads each folder's declarations once per run. */
export class PythonDepsReader {
  readonly #found = new Map<string, Promise<PythonDeclarations | undefined>>();

  constructor(private readonly files: NativeFiles) {}

  /** The declarations of the nearest folder from `dir` up to `top` that declares black or ruff, or undefined. */
  forDir(dir: string, top: string): Promise<PythonDeclarations | undefined> {
    return nearestUp(this.#found, dir, top, (at) => this.#here(at));
  }

  async #here(at: string): Promise<PythonDeclarations | undefined> {
    const names = await this.files.entryNames(at);
    if (!names) return undefined;
    const out: PythonDeclarations = { dir: at };
    const take = (found: Map<DeclaredFormatter, string | undefined>, file: NativeSource) => {
      for (const [tool, spec] of found) out[tool] ??= { file, ...release(tool, spec) };
    };
    if (names.has("pyproject.toml")) {
      const file = await this.#read(join(at, "pyproject.toml"));
      if (file && /\b(?:black|ruff)\b/i.test(file.text)) {
        take(pyprojectDeclares(file.text), file);
        // A lockfile holds the release the project installs, whatever range it asks for.
        for (const tool of TOOLS) {
          if (out[tool]?.file !== file) continue;
          for (const name of LOCKFILES) {
            if (!names.has(name)) continue;
            const lock = await this.#read(join(at, name));
            const version = lock && lockedVersion(lock.text, tool);
            if (version) {
              out[tool] = { file, release: version, lockfile: lock.path };
              break;
            }
          }
        }
      }
    }
    const requirements = [...names].filter((n) => REQUIREMENTS.test(n)).sort().map((n) => join(at, n));
    if (names.has("requirements")) {
      const inner = await this.files.entryNames(join(at, "requirements"));
      for (const n of [...inner ?? []].filter((n) => /\.(?:txt|in)$/.test(n)).sort()) {
        requirements.push(join(at, "requirements", n));
      }
    }
    for (const path of requirements) {
      const file = await this.#read(path);
      if (file && /\b(?:black|ruff)\b/i.test(file.text)) take(requirementsDeclare(file.text), file);
    }
    if (names.has("Pipfile")) {
      const file = await this.#read(join(at, "Pipfile"));
      if (file && /\b(?:black|ruff)\b/i.test(file.text)) take(pipfileDeclares(file.text), file);
    }
    if (names.has("tox.ini")) {
      const file = await this.#read(join(at, "tox.ini"));
      if (file && /\b(?:black|ruff)\b/i.test(file.text)) take(toxDeclares(file.text), file);
    }
    const makefile = MAKEFILES.find((n) => names.has(n));
    if (makefile) {
      const file = await this.#read(join(at, makefile));
      const args = file && /\bblack\b/.test(file.text) ? makefileBlack(file.text) : undefined;
      if (file && args) {
        out.black ??= { file };
        out.blackFlags = { file, args, by: "its recipes' black" };
      }
    }
    if (!out.blackFlags && names.has(".github")) {
      const found = await this.#workflows(join(at, ".github", "workflows"));
      if (found) {
        out.black ??= { file: found.file, ...found.release ? { release: found.release } : {} };
        out.blackFlags = { file: found.file, args: found.args, by: "its workflow's black" };
      }
    }
    return out.black || out.ruff ? out : undefined;
  }

  /** What the workflows in `dir` give black ({@link workflowBlack}), named by the first that runs it. */
  async #workflows(dir: string): Promise<{ file: NativeSource; args: string[]; release?: string } | undefined> {
    const names = await this.files.entryNames(dir);
    const files = [];
    for (const name of [...names ?? []].filter((n) => /\.ya?ml$/.test(n)).sort()) {
      const file = await this.#read(join(dir, name));
      if (file && /\bblack\b/.test(file.text)) files.push(file);
    }
    if (files.length === 0) return undefined;
    const { parse } = await import("yaml");
    const parsed = files.map((file) => {
      try {
        return parse(file.text) as unknown;
      } catch {
        return undefined; // GitHub says what is wrong with it, where it runs it
      }
    });
    const each = parsed.map(workflowRuns);
    const found = agreedWorkflows(each);
    const file = files.find((_, i) => agreedLayout(each[i].runs) !== undefined);
    return found && file && { file, ...found };
  }

  async #read(path: string) {
    return await this.files.read(path).catch(() => undefined);
  }
}

/** `release` and nothing else, where `spec` pins the style guide `tool` formats by. */
function release(tool: DeclaredFormatter, spec: string | undefined): { release?: string } {
  const pinned = spec === undefined ? undefined : pinnedRelease(tool, spec);
  return pinned === undefined ? {} : { release: pinned };
}

/**
 * The release a version specifier pins as far as `tool`'s style guide goes (black: the major version; ruff, still
 * 0.x: the minor one), or undefined: PEP 440's `==` (no wildcard past it) and `~=`, Poetry's bare version, `^` and
 * `~`. Several clauses: the first that pins.
 */
export function pinnedRelease(tool: DeclaredFormatter, spec: string): string | undefined {
  for (const clause of spec.split(",").map((c) => c.trim())) {
    // A pre-, post- or development release's suffix (`19.10b0`, black's releases before 22) keeps its numbers.
    const m = /^(===?|~=|\^|~|)\s*v?(\d+(?:\.\d+)*)(?:(?:a|b|rc|\.?post|\.?dev)\d*)?(\.\*)?$/.exec(clause);
    if (!m) continue;
    const [, op, version, wildcard] = m;
    const parts = version.split(".");
    // The components a specifier fixes: `==` and a bare version all it names (less a wildcard's), `~=` all but its
    // last, `^` up to its first non-zero one, `~` the first two (or the one).
    const fixed = op === "==" || op === "===" || op === ""
      ? parts.length
      : op === "~="
      ? parts.length - 1
      : op === "^"
      ? Math.max(parts.findIndex((p) => p !== "0"), 0) + 1
      : Math.min(parts.length, 2);
    if (wildcard && op !== "==") continue;
    const needed = tool === "black" ? 1 : 2;
    if (fixed >= needed && parts.length >= needed) return version;
  }
  return undefined;
}

/** A PEP 508 requirement's name (normalised) and its version specifier, or undefined for anything else. */
function requirement(line: string): [string, string] | undefined {
  const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?:\(([^)]*)\)|([^;@#]*))/.exec(line);
  if (!m) return undefined;
  return [packageName(m[1]), (m[2] ?? m[3] ?? "").trim()];
}

/** A package's name as PEP 503 compares names: lower case, each run of `-`, `_` and `.` one `-`. */
function packageName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

/** The tools a list of requirement strings names, each with its specifier. */
function fromRequirements(items: Iterable<unknown>, out: Map<DeclaredFormatter, string | undefined>): void {
  for (const item of items) {
    if (typeof item !== "string") continue;
    const found = requirement(item);
    if (found && (TOOLS as readonly string[]).includes(found[0]) && !out.has(found[0] as DeclaredFormatter)) {
      out.set(found[0] as DeclaredFormatter, found[1] || undefined);
    }
  }
}

/** Poetry's and Pipfile's `name = "spec"` / `name = { version = "spec" }` tables. */
function fromTable(table: unknown, out: Map<DeclaredFormatter, string | undefined>): void {
  if (!isTable(table)) return;
  for (const [key, value] of Object.entries(table)) {
    const name = packageName(key) as DeclaredFormatter;
    if (!TOOLS.includes(name) || out.has(name)) continue;
    const spec = typeof value === "string" ? value : isTable(value) ? value.version : undefined;
    out.set(name, typeof spec === "string" && spec !== "*" ? spec : undefined);
  }
}

function lists(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return isTable(value) ? Object.values(value).flatMap((v) => (Array.isArray(v) ? v : [])) : [];
}

function tomlOrUndefined(text: string): Table | undefined {
  try {
    return parseToml(text) as Table;
  } catch {
    return undefined;
  }
}

/** What a `pyproject.toml`'s dependency lists declare (see the module doc). */
export function pyprojectDeclares(text: string): Map<DeclaredFormatter, string | undefined> {
  const out = new Map<DeclaredFormatter, string | undefined>();
  const doc = tomlOrUndefined(text);
  if (!doc) return out;
  const project = tableOf(doc.project);
  const tool = tableOf(doc.tool);
  fromRequirements(lists(project["optional-dependencies"]), out);
  fromRequirements(lists(doc["dependency-groups"]), out);
  if (isTable(tool.uv)) fromRequirements(lists(tool.uv["dev-dependencies"]), out);
  if (isTable(tool.pdm)) fromRequirements(lists(tool.pdm["dev-dependencies"]), out);
  if (isTable(tool.hatch) && isTable(tool.hatch.envs)) {
    for (const env of Object.values(tool.hatch.envs)) {
      if (!isTable(env)) continue;
      fromRequirements(lists(env.dependencies), out);
      fromRequirements(lists(env["extra-dependencies"]), out);
    }
  }
  if (isTable(tool.poetry)) {
    fromTable(tool.poetry["dev-dependencies"], out);
    if (isTable(tool.poetry.group)) {
      for (const group of Object.values(tool.poetry.group)) if (isTable(group)) fromTable(group.dependencies, out);
    }
  }
  return out;
}

/** What a pip requirement file declares: one requirement a line, options and comments aside. */
export function requirementsDeclare(text: string): Map<DeclaredFormatter, string | undefined> {
  const out = new Map<DeclaredFormatter, string | undefined>();
  // A line's options (`--hash=...`) and comment aside; a backslash continues it.
  const lines = text.replace(/\\\r?\n/g, " ").split(/\r?\n/)
    .map((l) => l.replace(/(^|\s)#.*$/, "").replace(/\s-{1,2}[A-Za-z].*$/, "").trim());
  fromRequirements(lines.filter((l) => l !== "" && !l.startsWith("-")), out);
  return out;
}

/** What a `Pipfile` declares in `[dev-packages]`. */
export function pipfileDeclares(text: string): Map<DeclaredFormatter, string | undefined> {
  const out = new Map<DeclaredFormatter, string | undefined>();
  const doc = tomlOrUndefined(text);
  if (!doc) return out;
  fromTable(doc["dev-packages"], out);
  return out;
}

/** What a `tox.ini` declares in its environments' `deps` (one requirement a line; tox's `-r` and options aside). */
export function toxDeclares(text: string): Map<DeclaredFormatter, string | undefined> {
  const out = new Map<DeclaredFormatter, string | undefined>();
  let sections;
  try {
    sections = parseIni(text);
  } catch {
    return out; // not one tox reads either
  }
  for (const [name, keys] of sections) {
    if (!/^testenv(?::|$)/.test(name)) continue;
    const deps = keys.get("deps");
    if (deps !== undefined) {
      for (const [tool, spec] of requirementsDeclare(deps)) if (!out.has(tool)) out.set(tool, spec);
    }
  }
  return out;
}

/** black's flags that shape its layout, and whether each takes a value. */
const BLACK_LAYOUT: Record<string, boolean> = {
  "-l": true,
  "--line-length": true,
  "-t": true,
  "--target-version": true,
  "--required-version": true,
  "-S": false,
  "-C": false,
  "-SC": false,
  "-CS": false,
  "--skip-string-normalization": false,
  "--skip-magic-trailing-comma": false,
  "--preview": false,
};

/** The long names of black's short layout flags. */
const LONG: Record<string, string> = {
  l: "--line-length",
  t: "--target-version",
  S: "--skip-string-normalization",
  C: "--skip-magic-trailing-comma",
};

/**
 * black's flags that steer the command, not the layout, and whether each takes a value: those a hook's may hold
 * (lib/config/native/hook_args.ts), and the file selection a recipe gives it.
 */
const BLACK_STEERING: Record<string, boolean> = {
  ...Object.fromEntries([...BLACK_QUIET].map((flag) => [flag, false])),
  "--include": true,
  "--exclude": true,
  "--extend-exclude": true,
  "--force-exclude": true,
  "-W": true,
  "--workers": true,
};

/**
 * A command running black: black as the command's first word (a line's, or after `;`, `&`, `|` or `(`; after make's
 * `@`/`-`, `python -m`, `poetry run`, `uvx` and the like), then its words. `pip install black` does not run it.
 */
const RUNS_BLACK =
  /(?:^|[;&|(])\s*[@+-]*(?:(?:\S*python[\d.]*|\$[({]PYTHON[)}])\s+-m\s+|(?:(?:poetry|uv|pipenv|pdm|hatch|rye|pipx)\s+run|uvx)\s+)?(?:\S*\/)?black(?=\s|$)(.*)$/;

/**
 * The flags a Makefile's recipes give black that shape its layout, by their long names and sorted
 * (`["--line-length=100", "--skip-string-normalization"]`, `[]` for none), where they
 * run black; undefined where none does, or where what they give it cannot be known for certain: a make variable or a
 * command substitution among its words, a `--config` file, a flag poly does not know, or recipes that give different
 * flags (a `check` and a `format` target usually give the same).
 */
export function makefileBlack(text: string): string[] | undefined {
  // A recipe's line, not a comment.
  return agreedLayout(blackRuns(text, (line) => line.startsWith("\t") && !/^\t\s*#/.test(line)));
}

/** The words of each run of black in a script's lines (`keep`: which lines are commands), continuations joined. */
function blackRuns(script: string, keep: (line: string) => boolean = () => true): string[][] {
  const runs: string[][] = [];
  for (const line of script.replace(/\\\r?\n/g, " ").split(/\r?\n/)) {
    const m = keep(line) ? RUNS_BLACK.exec(line) : null;
    if (m) runs.push(commandWords(m[1]));
  }
  return runs;
}

/**
 * The layout flags GitHub Actions workflows give black (`.github/workflows/*.yml`, each parsed), as {@link
 * makefileBlack} reads a Makefile's: a step's `run` script that runs black, and the `psf/black` action, whose `options`
 * are black's flags (`--check --diff` unless given) and whose `version` is the release it installs. Undefined where no
 * step runs black, or where what they give it cannot be known for certain (an expression, `${{ ... }}`, among its
 * words) or steps disagree.
 */
export function workflowBlack(workflows: unknown[]): { args: string[]; release?: string } | undefined {
  return agreedWorkflows(workflows.map(workflowRuns));
}

/** One workflow's runs of black (their words) and the release a `psf/black` step pins. */
function workflowRuns(workflow: unknown): { runs: string[][]; release?: string } {
  const runs: string[][] = [];
  let release: string | undefined;
  for (const job of Object.values(tableOf(tableOf(workflow).jobs))) {
    const steps = tableOf(job).steps;
    for (const step of Array.isArray(steps) ? steps.map(tableOf) : []) {
      if (typeof step.uses === "string" && /^psf\/black@/.test(step.uses)) {
        const given = tableOf(step.with);
        runs.push(commandWords(typeof given.options === "string" ? given.options : "--check --diff"));
        const version = typeof given.version === "string" ? pinnedRelease("black", given.version) : undefined;
        if (version) release = version;
      } else if (typeof step.run === "string") runs.push(...blackRuns(step.run));
    }
  }
  return { runs, ...release ? { release } : {} };
}

/** What workflows' runs give black together ({@link workflowBlack}); the last release pinned. */
function agreedWorkflows(
  each: { runs: string[][]; release?: string }[],
): { args: string[]; release?: string } | undefined {
  const args = agreedLayout(each.flatMap((w) => w.runs));
  const release = each.findLast((w) => w.release)?.release;
  return args && { args, ...release ? { release } : {} };
}

/** A command's words after the program's name, up to the shell's next command, redirection or comment, unquoted. */
function commandWords(rest: string): string[] {
  return rest.split(/\s*(?:;|&&|\|\||\||[12]?>|#)/)[0].trim().split(/\s+/).filter(Boolean)
    .map((w) => w.replace(/^(['"])(.*)\1$/, "$2"));
}

/**
 * The layout flags of black's runs, by their long names and sorted, where every run gives the same ones (runs that
 * only print black's version or help count for nothing); undefined for no run, or for one whose flags poly cannot know
 * for certain (a variable or substitution, `--config`, a flag it does not know).
 */
function agreedLayout(runs: string[][]): string[] | undefined {
  let found: string[] | undefined;
  for (const words of runs) {
    if (words.some((w) => w === "--version" || w === "--help" || w === "-h")) continue; // formats nothing
    const layout: string[] = [];
    for (let i = 0; i < words.length; i++) {
      const word = words[i];
      if (/[$`]/.test(word)) return undefined;
      const [flag, attached] = word.startsWith("--") ? word.split(/=(.*)/s) : [word, undefined];
      if (!flag.startsWith("-")) continue; // a path
      const short = /^-[lt]./.test(flag) && !(flag in BLACK_LAYOUT);
      const named = short ? flag.slice(0, 2) : flag;
      if (named in BLACK_LAYOUT) {
        if (!BLACK_LAYOUT[named]) {
          // Each by its long name, so runs that spell the same flags otherwise agree.
          for (const c of named.startsWith("--") ? [named] : named.slice(1)) layout.push(LONG[c] ?? c);
          continue;
        }
        const value = short ? flag.slice(2) : attached ?? words[++i];
        if (value === undefined || /[$`]/.test(value)) return undefined;
        const long = LONG[named.slice(1)] ?? named;
        if (long === "--line-length" && !/^\d+$/.test(value)) return undefined;
        layout.push(`${long}=${value}`);
      } else if (named in BLACK_STEERING) {
        if (BLACK_STEERING[named] && attached === undefined) i++;
      } else return undefined;
    }
    layout.sort();
    if (found && found.join(" ") !== layout.join(" ")) return undefined;
    found = layout;
  }
  return found;
}

/** The version of `tool` a lockfile (`uv.lock`, `poetry.lock`, `pdm.lock`: `[[package]]` tables) holds, if any. */
export function lockedVersion(text: string, tool: DeclaredFormatter): string | undefined {
  const m = new RegExp(String.raw`^\[\[package\]\]\s*\nname\s*=\s*"${tool}"\s*\nversion\s*=\s*"([^"]+)"`, "m").exec(
    text,
  );
  return m?.[1];
}
