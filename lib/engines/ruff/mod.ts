/**
 * ruff — Python lint and format, in-process (WebAssembly: `@astral-sh/ruff-wasm-nodejs`).
 *
 * - The repository's ruff configuration governs (`.ruff.toml`, `ruff.toml`, `pyproject.toml`
 *   `[tool.ruff]`, nearest to each file, with `extend`: lib/config/native/ruff.ts): its
 *   options are handed to ruff as they are, and poly's `[defaults]` do not apply to ruff
 *   then (ruff's own defaults fill what the file leaves unset, as on the command line).
 *   `exclude`/`include`/`per-file-ignores` are evaluated by poly on the file's path.
 * - Lint: ruff's rules. Without a selection anywhere, ruff's own default rule set of this
 *   version applies (no copy of it is kept here);
 *   `[lint.python.ruff] select = ["E", "F", "B", "I"]` (replaces the selection), `ignore = [...]` (adds), and
 *   `[lint.python.ruff.rules.E501] level = "warning"` (or `"off"`) adjust it. Every
 *   other key of the table is passed to ruff as a top-level setting (e.g.
 *   `target-version = "py311"`, `preview = true`); ruff rejects unknown ones, which
 *   becomes an errored record naming the bad setting.
 * - Every ruff finding is severity `error` (ruff has no severities) unless re-levelled.
 * - Fix (`poly lint --fix`): applies the fixes `ruff check --fix` applies, those ruff marks safe. The wasm
 *   build reports fixes without their applicability, so poly decides it as ruff 0.16.9 does (`_safety.ts`: from the
 *   rule, or from the text and settings where ruff's verdict depends on them, a comment in the range say), then as
 *   the repository's `lint.extend-safe-fixes` / `lint.extend-unsafe-fixes` say (the more specific selector winning).
 * - Format: ruff's formatter with `line-length` from `[defaults] line_length`,
 *   `indent-width` from `[defaults] indent_width`, and `[fmt.python.ruff]` keys
 *   passed as ruff `format` settings (e.g. `quote-style = "single"`).
 * - A syntax error is a diagnostic (`invalid-syntax`, error) with the line and column ruff reports.
 *
 * Example: `x == None` → `E711 Comparison to None should be cond is None` (not auto-fixed:
 * ruff marks that fix unsafe because `__eq__` may be overloaded).
 *
 * @module
 */
import type { Diagnostic } from "../../report/schema.ts";
import { applyEdits, bytesToUtf16, lineStarts, positionToIndex, type TextEdit, utf16ToBytes } from "../text.ts";
import { applyRuleSettings, configuredByRepository, upstreamKeys } from "../settings.ts";
import { freshCommonJs, wasmCall } from "../module.ts";
import {
  absoluteImports,
  annotationsSelected,
  asRuffChecks,
  besideInit,
  docstringsSelected,
  exemptions,
  invalidModuleName,
  lazyPackageRoot,
  maySelect,
  modulePath,
  namespaceFinding,
  nestedPackageParent,
  ownPackage,
  rootedModulePath,
  shadowingCandidate,
  sourceMisses,
  suppresses,
  withoutOwnPrivateImports,
  withUsedDirectives,
} from "./_module.ts";
import {
  importSelfFindings,
  initModuleFindings,
  mayImportSelf,
  shebangComments,
  type Token,
  tokenList,
} from "./_init_module.ts";
import { codesInSelectors } from "./_settings_file.ts";
import { ruffSelects } from "./_selectors.ts";
import { CONDITIONAL, DISPLAY_ONLY, fixIsSafe, parseTokens, type RuffToken } from "./_safety.ts";
import { RULE_NAMES, selectorCode } from "./codes.ts";
import {
  againOnCrash,
  EngineError,
  type EngineInstance,
  EngineRefusal,
  type EngineSettings,
  type EngineSpec,
  type SourceFile,
  SourceSyntaxError,
  syntaxDiagnostic,
} from "../types.ts";
import { mergeTables, tableOf } from "../../config/table.ts";
import { RUFF_RELEASE } from "../../config/native/ruff.ts";
import { ownFileText } from "../../fs/read_log.ts";
import { hasExecutableBit } from "../../fs/executable.ts";
import { basename, extname, resolve } from "node:path";

const PACKAGE = "@astral-sh/ruff-wasm-nodejs";

/** ruff's version, pinned: the WebAssembly package's and the tables generated from ruff at it (`_codes.json`). */
export const RUFF_VERSION = RUFF_RELEASE;

interface RuffLocation {
  row: number;
  column: number;
}
interface RuffDiagnostic {
  code: string | null;
  message: string;
  start_location: RuffLocation;
  end_location: RuffLocation;
  fix: {
    message: string | null;
    edits: { location: RuffLocation; end_location: RuffLocation; content: string | null }[];
  } | null;
}
interface RuffWorkspace {
  check(src: string): RuffDiagnostic[];
  format(src: string): string;
  /** The text's tokens, one `Kind start..end (flags = ...)` line each (UTF-8 byte offsets). */
  tokens(src: string): string;
}

type RuffModule = typeof import("@astral-sh/ruff-wasm-nodejs");

type Options = Record<string, unknown>;

/**
 * What ruff starts from: the repository's own configuration when a file of it governs
 * (its options as written; ruff's defaults for the rest), else poly's `[defaults]`.
 */
function baseOptions(settings: EngineSettings): Options {
  // A file of the repository's, or ruff's pre-commit hooks (ruff's defaults beneath their arguments).
  if (configuredByRepository(settings)) return structuredClone(settings.native!.options);
  return {
    // Without a file: what poly worked out as ruff would (first-party modules), under poly's [defaults].
    ...(settings.native ? structuredClone(settings.native.options) : {}),
    "line-length": settings.defaults.line_length,
    ...(settings.defaults.indent_width ? { "indent-width": settings.defaults.indent_width } : {}),
  };
}

function lintOptions(settings: EngineSettings): Options {
  const options = baseOptions(settings);
  const select = settings.tool.select as string[] | undefined;
  const ignore = settings.tool.ignore as string[] | undefined;
  // poly.toml on top: `select` replaces the selection, `ignore` adds to it.
  const lint: Options = { ...(tableOf(options.lint)) };
  if (select) {
    lint.select = select;
    delete lint["extend-select"];
  }
  if (ignore) lint.ignore = [...(lint.ignore as string[] ?? []), ...ignore];
  const out = mergeTables(options, upstreamKeys(settings));
  if (Object.keys(lint).length > 0) out.lint = mergeTables(tableOf(out.lint), lint);
  return out;
}

/** Keys of ruff's `[format]` section; other `[fmt.python.ruff]` keys are top-level ruff settings (`line-length`). */
const FORMAT_KEYS = new Set([
  "quote-style",
  "indent-style",
  "skip-magic-trailing-comma",
  "line-ending",
  "docstring-code-format",
  "docstring-code-line-length",
  "preview",
  "exclude",
]);

function formatOptions(settings: EngineSettings): Options {
  const options = baseOptions(settings);
  delete options.lint;
  const native = configuredByRepository(settings);
  const ending = settings.defaults.line_ending === "crlf"
    ? "cr-lf"
    : settings.defaults.line_ending === "auto"
    ? "auto"
    : "lf";
  const format = tableOf(options.format);
  const own = upstreamKeys(settings);
  const top = Object.fromEntries(Object.entries(own).filter(([k]) => !FORMAT_KEYS.has(k) && k !== "format"));
  const inFormat = Object.fromEntries(Object.entries(own).filter(([k]) => FORMAT_KEYS.has(k)));
  return {
    ...options,
    ...top,
    format: {
      ...(native ? {} : { "line-ending": ending }),
      ...format,
      ...(tableOf(own.format)),
      ...inFormat,
    },
  };
}

/**
 * `diags` with each rule's code: under `preview` ruff 0.16.9's WebAssembly build gives a finding its rule's name
 * (`undefined-export`) where `ruff check` reports the code (`F822`), which per-rule levels, per-file ignores and the
 * fixes' safety are keyed by. The names are ruff's own (`_codes.json`, scripts/gen-ruff-codes.ts); a name not there
 * (the syntax errors' `invalid-syntax`) is kept.
 */
function withCodes(diags: RuffDiagnostic[]): RuffDiagnostic[] {
  if (!diags.some((d) => d.code !== null && !/^[A-Z]+[0-9]+$/.test(d.code))) return diags;
  return diags.map((d) => {
    return d.code === null ? d : { ...d, code: selectorCode(d.code) };
  });
}

/** `options` with isort's `known-first-party` (in `lint.isort`) made by `edit` from the list they have. */
function withKnownFirstParty(options: Options, edit: (known: string[]) => string[]): Options {
  const lint = tableOf(options.lint);
  const isort = tableOf(lint.isort);
  const known = Array.isArray(isort["known-first-party"]) ? isort["known-first-party"] as string[] : [];
  return { ...options, lint: { ...lint, isort: { ...isort, "known-first-party": edit(known) } } };
}

/**
 * `options` with `names` (dotted modules) placed in isort's default section (`default-section`: third-party unless the
 * options say otherwise), where `ruff check` puts a module nothing else places ({@link sourceMisses}): the pattern of
 * the whole name comes before the first-party pattern of its first name, as ruff looks at the longest prefix first.
 */
function inDefaultSection(options: Options, names: string[]): Options {
  if (names.length === 0) return options;
  const lint = tableOf(options.lint);
  const isort = tableOf(lint.isort);
  const section = String({ ...tableOf(options.isort), ...isort }["default-section"] ?? "third-party");
  if (section === "first-party" || section === "future") return options;
  const key = ({
    "third-party": "known-third-party",
    "local-folder": "known-local-folder",
    "standard-library": "extra-standard-library",
  } as Record<string, string>)[section];
  const add = (list: unknown) => [...(Array.isArray(list) ? list as string[] : []), ...names];
  const placed = key
    ? { ...isort, [key]: add(isort[key]) }
    : { ...isort, sections: { ...tableOf(isort.sections), [section]: add(tableOf(isort.sections)[section]) } };
  return { ...options, lint: { ...lint, isort: placed } };
}

/** ruff's `namespace-packages`, absolute (as written, relative to the project's root). */
function namespacePackages(options: Options, root: string): string[] {
  const list = options["namespace-packages"];
  return Array.isArray(list) ? list.map((p) => resolve(root, String(p))) : [];
}

/** Whether ruff's options turn preview on (`preview`, or `lint.preview`, which takes precedence). */
function isPreview(options: Options): boolean {
  const lint = tableOf(options.lint);
  return (lint.preview ?? options.preview) === true;
}

/**
 * Whether `ruff check --fix` applies `d`'s fix to `file`: as ruff marks it ({@link fixIsSafe}), unless the
 * repository's ruff configuration promotes it to safe or demotes it to unsafe. `tokens` gives the file's tokens
 * when a rule's verdict needs them (made once per text by the caller), `starts` its line starts.
 */
function isSafe(
  d: RuffDiagnostic,
  file: SourceFile,
  settings: EngineSettings,
  options: Options,
  tokens: () => RuffToken[] | undefined,
  starts: number[],
): boolean {
  const code = d.code;
  if (!code) return false;
  const safety = configuredSafety(code, settings);
  if (safety === "unsafe") return false;
  // ruff promotes an unsafe fix, never a display-only one, nor one it would not offer (F401 in an `__init__.py`).
  if (safety === "safe" && !DISPLAY_ONLY.has(code) && CONDITIONAL.get(code) !== "not-init") return true;
  const at = (l: RuffLocation) => positionToIndex(starts, l.row, l.column, file.text.length);
  const ranges: [number, number][] = [[at(d.start_location), at(d.end_location)]];
  for (const e of d.fix?.edits ?? []) ranges.push([at(e.location), at(e.end_location)]);
  return fixIsSafe({
    code,
    path: file.path,
    text: file.text,
    options,
    ranges,
    tokens,
    toBytes: (indices) => utf16ToBytes(file.text, indices),
  });
}

/**
 * What `lint.extend-safe-fixes` and `lint.extend-unsafe-fixes` say of `code`'s fix, as ruff's fix-safety table
 * decides: the most specific selector naming the code wins (`ALL` least, a longer prefix more), unsafe on a tie.
 */
function configuredSafety(code: string, settings: EngineSettings): "safe" | "unsafe" | undefined {
  const lint = tableOf(settings.native?.options.lint);
  let found: { safety: "safe" | "unsafe"; specificity: number } | undefined;
  for (const [key, safety] of [["extend-safe-fixes", "safe"], ["extend-unsafe-fixes", "unsafe"]] as const) {
    const selectors = lint[key];
    if (!Array.isArray(selectors)) continue;
    for (const s of selectors) {
      if (typeof s !== "string" || !(s === "ALL" || code.startsWith(s))) continue;
      const specificity = s === "ALL" ? 0 : s.length;
      if (!found || specificity >= found.specificity) found = { safety, specificity };
    }
  }
  return found?.safety;
}

/** Whether a finding of ruff's is a syntax error (code `invalid-syntax`, or none in older versions). */
function isSyntax(d: RuffDiagnostic): boolean {
  return d.code === null || d.code === "invalid-syntax";
}

/** ruff's syntax errors as one error, in ruff's order. */
function syntaxError(diags: RuffDiagnostic[]): SourceSyntaxError | undefined {
  const bad = diags.filter(isSyntax).map((d) =>
    syntaxDiagnostic(
      "ruff",
      "invalid-syntax",
      d.message,
      { line: d.start_location.row, column: d.start_location.column },
      { line: d.end_location.row, column: d.end_location.column },
    )
  );
  return bad.length > 0 ? new SourceSyntaxError(bad as [Diagnostic, ...Diagnostic[]]) : undefined;
}

function toEdits(text: string, starts: number[], d: RuffDiagnostic): TextEdit[] {
  return (d.fix?.edits ?? []).map((e) => ({
    start: positionToIndex(starts, e.location.row, e.location.column, text.length),
    end: positionToIndex(starts, e.end_location.row, e.end_location.column, text.length),
    text: e.content ?? "",
  }));
}

/**
 * A stub is not ruff's to check here: the WebAssembly build reads every text as a `.py` module (`check` and `format`
 * take no path), and a stub formats with a layout of its own (no blank lines around `...` bodies), has rules of its own
 * (`PYI`) and allows forward references: checked as a module, pydantic's `_pydantic_core.pyi` took three false `F821`
 * and `poly fmt` would have rewritten it (ruff 0.16.9 calls it formatted). Skipped, saying so.
 */
/**
 * Whether this system keeps files' executable bits as ruff's `EXE001`/`EXE002` read them: not on Windows, nor on WSL
 * (a Windows file system there has every bit set, and ruff skips both rules).
 */
function modeBits(): boolean {
  return systemModeBits ??= Deno.build.os !== "windows" && !/microsoft|wsl/i.test(osRelease());
}

/** {@link modeBits}' answer, asked of the system once. */
let systemModeBits: boolean | undefined;

/** The kernel's release, or "" where it cannot be read. */
function osRelease(): string {
  try {
    return Deno.osRelease();
  } catch {
    return "";
  }
}

function refuseStub(file: SourceFile): void {
  if (file.path.endsWith(".pyi")) {
    throw new EngineRefusal(
      "a stub (.pyi): ruff's WebAssembly build checks and formats every text as a .py module, not with a stub's " +
        "layout and rules, so poly leaves stubs to ruff's own command line",
    );
  }
}

/** The fix loop's passes at most: ruff's own `MAX_ITERATIONS`. */
const MAX_FIX_PASSES = 100;

class Ruff implements EngineInstance {
  #workspaces = new Map<string, RuffWorkspace>();
  #mod: RuffModule;
  constructor(mod: RuffModule) {
    this.#mod = mod;
  }

  /** One call into the module; after a crash the next file gets a new instance ({@link wasmCall}). */
  #call<T>(fn: () => T): T {
    return wasmCall("ruff", fn, () => {
      this.#mod = freshCommonJs<RuffModule>(PACKAGE);
      this.#workspaces.clear();
    });
  }

  #workspace(options: Record<string, unknown>, settings: EngineSettings): RuffWorkspace {
    const key = JSON.stringify(options);
    let ws = this.#workspaces.get(key);
    if (!ws) {
      try {
        ws = new this.#mod.Workspace(options, this.#mod.PositionEncoding.Utf16) as unknown as RuffWorkspace;
      } catch (e) {
        const from = (settings.native?.files ?? []).map((f) => `"${f.path}"`).join(", ");
        throw new EngineError(
          `invalid ruff settings${from ? ` (from ${from} and poly.toml)` : ""}: ${
            e instanceof Error ? e.message : String(e)
          }`,
        );
      }
      this.#workspaces.set(key, ws);
    }
    return ws;
  }

  /**
   * {@link lintOptions} for one file: with its own package among isort's first-party modules, as `ruff check` counts it
   * there ({@link ownPackage}; the WebAssembly build sees no path), unless ruff's standard library has a module of that
   * name ({@link Ruff.#standard}: ruff looks there first). Files of one package share one workspace.
   */
  #fileLintOptions(file: SourceFile, settings: EngineSettings): Options {
    // Asked by the check and then by its findings' fixes: the package's folders are looked up once per text.
    const made = this.#fileOptions.get(file);
    if (made?.settings === settings && made.text === file.text) return made.options;
    const options = this.#fileLintOptionsOf(file, settings);
    this.#fileOptions.set(file, { settings, text: file.text, options });
    return options;
  }

  #fileOptions = new WeakMap<SourceFile, { settings: EngineSettings; text: string; options: Options }>();

  #fileLintOptionsOf(file: SourceFile, settings: EngineSettings): Options {
    let options = this.#settingsOptions(settings);
    const own = ownPackage(file.path, options);
    // A file that never names its package imports nothing of it: the settings' own workspace serves it.
    if (
      own !== undefined && new RegExp(`\\b${own.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`).test(file.text) &&
      this.#standard([own], options, settings).size === 0
    ) {
      options = withKnownFirstParty(options, (known) => [...known, own]);
    }
    const misses = sourceMisses(file.path, file.text, settings.native, options);
    if (misses.length === 0) return options;
    const first = (name: string) => name.slice(0, name.indexOf("."));
    const standard = this.#standard(misses.map(first), options, settings);
    return inDefaultSection(options, misses.filter((name) => !standard.has(first(name))));
  }

  #optionsOf = new WeakMap<EngineSettings, Options>();

  /**
   * {@link settingsLintOptions} without the modules of the configuration's `src` folders that ruff's standard library
   * also has (`sourceModules`, lib/config/native/ruff.ts): `ruff check` puts `import email` with the standard library
   * beside an `email/` folder at the root, as it does beside the file's own package ({@link Ruff.#standard}).
   */
  #settingsOptions(settings: EngineSettings): Options {
    let options = this.#optionsOf.get(settings);
    if (options) return options;
    options = settingsLintOptions(settings);
    const standard = this.#standard(settings.native?.sourceModules ?? [], options, settings);
    if (standard.size > 0) options = withKnownFirstParty(options, (known) => known.filter((n) => !standard.has(n)));
    this.#optionsOf.set(settings, options);
    return options;
  }

  #standardModules = new Map<string, boolean>();

  /**
   * Which of `names` ruff's standard-library list has for the options' Python version, asked of ruff itself (each name
   * once per version): `import poly_probe` above an `import` of each name is unsorted (I001) unless every name is third
   * party like the probe and sorts after it, and the fix's text puts the standard-library names in a section of their
   * own, before the probe's.
   */
  #standard(names: readonly string[], options: Options, settings: EngineSettings): Set<string> {
    const version = typeof options["target-version"] === "string" ? options["target-version"] : "";
    const keyOf = (name: string) => `${version}\0${name}`;
    const unknown = [...new Set(names)].filter((n) => !this.#standardModules.has(keyOf(n)));
    if (unknown.length > 0) {
      const probe: Options = { ...(version ? { "target-version": version } : {}), lint: { select: ["I001"] } };
      const ws = this.#workspace(probe, settings);
      const text = ["poly_probe", ...unknown].map((n) => `import ${n}\n`).join("");
      const fix = this.#call(() => ws.check(text)).find((d) => d.code === "I001")?.fix?.edits[0]?.content ?? "";
      // The sections of the sorted block: the probe's is third party; any other section before it is the standard's.
      const sections = fix.split(/\n\s*\n/).map((section): string[] => section.match(/(?<=^import )\w+/gm) ?? []);
      const own = sections.findIndex((section) => section.includes("poly_probe"));
      const standard = new Set(own > 0 ? sections.slice(0, own).flat() : []);
      for (const name of unknown) this.#standardModules.set(keyOf(name), standard.has(name));
    }
    return new Set(names.filter((n) => this.#standardModules.get(keyOf(n))));
  }

  /** {@link Ruff.#enables}' answers: by options object (most files share their settings' one), then by its JSON. */
  #enabledBy = new WeakMap<Options, Map<string, boolean>>();
  #enabled = new Map<string, boolean>();

  /**
   * Whether `options` enable rule `code`, as ruff resolves its selection (`select`, `extend-select`, `ignore`, their
   * prefixes and `ALL`): asked of ruff itself, which says a code a `noqa` directive names unused where its rule is on
   * and non-enabled where it is off (`RUF100`, added to the options for the question), and used where the rule reports
   * the line itself (`RUF105`, a `noqa` comment). Once per options and code.
   */
  #enables(options: Options, code: string, settings: EngineSettings): boolean {
    let byCode = this.#enabledBy.get(options);
    if (!byCode) this.#enabledBy.set(options, byCode = new Map());
    const known = byCode.get(code);
    if (known !== undefined) return known;
    const key = `${JSON.stringify(options)}\0${code}`;
    let on = this.#enabled.get(key);
    if (on === undefined) {
      const lint = tableOf(options.lint);
      const list = (value: unknown) => Array.isArray(value) ? value.map(String) : [];
      const probe: Options = {
        ...options,
        lint: {
          ...lint,
          "extend-select": [...list(lint["extend-select"]), "RUF100"],
          ignore: list(lint.ignore).filter((c) => c !== "RUF100"),
        },
      };
      const ws = this.#workspace(probe, settings);
      const found = withCodes(this.#call(() => ws.check(`x = 1  # noqa: ${code}\n`)));
      const message = found.find((d) => d.code === "RUF100")?.message;
      // No RUF100 at all: the directive suppressed the rule's own finding on that line (RUF105 on a `noqa` comment).
      on = message === undefined || new RegExp(`unused: [^;]*\`${code}\``).test(message);
      this.#enabled.set(key, on);
    }
    byCode.set(code, on);
    return on;
  }

  /** `file`'s tokens as ruff makes them, on the first call (where a fix's safety depends on them: `_safety.ts`). */
  #tokens(file: SourceFile, settings: EngineSettings): () => RuffToken[] | undefined {
    let made: { tokens: RuffToken[] | undefined } | undefined;
    return () => {
      made ??= {
        tokens: parseTokens(
          this.#call(() => this.#workspace(settingsLintOptions(settings), settings).tokens(file.text)),
        ),
      };
      return made.tokens;
    };
  }

  /** ruff's findings in a text, its syntax errors among them. */
  #raw(file: SourceFile, settings: EngineSettings): RuffDiagnostic[] {
    refuseStub(file);
    const options = this.#fileLintOptions(file, settings);
    const ws = this.#workspace(options, settings);
    const namespaces = namespacePackages(options, settings.native?.root ?? "");
    const root = lazyPackageRoot(file.path, namespaces);
    const checked = withCodes(this.#call(() => ws.check(file.text)));
    const found = this.#resolvedDocs(file, options, settings, checked, root);
    // INP001, which the module cannot report: worked out here where the options enable it.
    const place: { message?: string; directives: number[] } =
      maySelect(options, "INP001") && this.#enables(options, "INP001", settings)
        ? namespaceFinding(file.path, file.relPath, file.text, {
          root: settings.native?.root ?? "",
          src: settings.native?.sourceDirs ?? [],
          namespaces,
          preview: isPreview(options),
        })
        : { directives: [] };
    const at = { row: 1, column: 1 };
    const own: RuffDiagnostic[] = place.message === undefined
      ? []
      : [{ code: "INP001", message: place.message, start_location: at, end_location: at, fix: null }];
    // Where INP001 applies, the directives that could suppress it (the first line's, the file-level ones) are used.
    const used = new Map<number, string[]>(place.directives.map((row) => [row, ["INP001"]]));
    // ruff's tokens of the text, made once for the rules below that read them.
    let tokens: Token[] | undefined;
    const tokensOf = () => tokens ??= tokenList(this.#call(() => ws.tokens(file.text)));
    // Where a rule poly works out applies, the directives that could suppress it (its line's, the file-level ones).
    const exempt = exemptions(file.text);
    const use = (code: string, row: number) => {
      for (const r of [row, ...exempt.map((e) => e.row)]) used.set(r, [...used.get(r) ?? [], code]);
    };
    // RUF067 (code in an `__init__.py`) and the rules of the file's place, which the module cannot report either.
    for (const f of this.#initModule(file, options, settings, found, tokensOf)) {
      use("RUF067", f.noqaRow);
      if (!f.suppressed) {
        own.push({ code: "RUF067", message: f.message, start_location: f.start, end_location: f.end, fix: null });
      }
    }
    for (const f of this.#placeRules(file, options, settings, tokensOf, root)) {
      use(f.code, f.row);
      if (!suppresses(file.text, f.code, exempt, f.row)) own.push(f.finding);
    }
    const kept = withoutOwnPrivateImports([...own, ...found], root);
    return withUsedDirectives(
      kept,
      used,
      (dropped, codes) => this.#noqaComment(file, options, settings, dropped, codes),
    );
  }

  /**
   * `RUF105` (a preview rule: a `noqa` comment where ruff's `ruff: ignore` reads better) for a directive the
   * WebAssembly build called unused and poly knows used (its codes, `here`, are of rules poly works out): `ruff check`
   * reports the directive so where the rule is on, with its safe fix writing `# ruff: ignore[...]` (a file-level
   * `# ruff: noqa: ...`: `# ruff: file-ignore[...]`; a blanket file-level one has no fix; `# flake8: noqa`: nothing).
   */
  #noqaComment(
    file: SourceFile,
    options: Options,
    settings: EngineSettings,
    dropped: RuffDiagnostic,
    here: readonly string[],
  ): RuffDiagnostic | undefined {
    if (!isPreview(options) || !maySelect(options, "RUF105") || !this.#enables(options, "RUF105", settings)) return;
    const { start_location: start, end_location: end } = dropped;
    if (start.row !== end.row) return undefined;
    const line = file.text.split("\n", start.row)[start.row - 1] ?? "";
    const directive = line.slice(start.column - 1, end.column - 1);
    const fileLevel = /^#\s*(ruff|flake8)\s*:\s*noqa/i.exec(directive);
    if (fileLevel?.[1].toLowerCase() === "flake8") return undefined;
    const listed = /noqa\s*:\s*(.*)$/i.exec(directive)?.[1]?.split(/[\s,]+/).filter(Boolean);
    const codes = listed ?? (fileLevel ? undefined : here);
    const message = fileLevel
      ? "`ruff: noqa` comment used instead of `ruff: file-ignore`"
      : "`noqa` comment used instead of `ruff: ignore`";
    const content = codes && `# ruff: ${fileLevel ? "file-ignore" : "ignore"}[${codes.join(", ")}]`;
    return {
      code: "RUF105",
      message,
      start_location: start,
      end_location: end,
      fix: content === undefined
        ? null
        : { message: "Use `ruff: ignore` instead", edits: [{ location: start, end_location: end, content }] },
    };
  }

  /**
   * `N999`, `A005`, `PLW0406`, `EXE001` and `EXE002`, which `ruff check` decides from the file's path and mode and
   * the WebAssembly build (a text without a path) never reports, worked out where the options enable them: an invalid
   * module name, a module shadowing the standard library's (ruff's own list, asked of its module), a module importing
   * itself (from its tokens and module path), a shebang comment in a file without the executable bit, the bit without
   * any shebang (not on Windows, nor on WSL, where every file has the bit, as ruff). Each with the row its `noqa`
   * directive belongs on.
   */
  #placeRules(
    file: SourceFile,
    options: Options,
    settings: EngineSettings,
    tokens: () => Token[],
    root: () => string | undefined,
  ) {
    const out: { code: string; row: number; finding: RuffDiagnostic }[] = [];
    const on = (code: string) => maySelect(options, code) && this.#enables(options, code, settings);
    const at = { row: 1, column: 1 };
    const add = (code: string, message: string, start = at, end = at) =>
      out.push({
        code,
        row: start.row,
        finding: { code, message, start_location: start, end_location: end, fix: null },
      });
    if (on("N999")) {
      const name = invalidModuleName(file.path, root(), options);
      if (name !== undefined) add("N999", `Invalid module name: '${name}'`);
    }
    if (on("A005")) {
      const prefixes = [...settings.native?.sourceDirs ?? [], ...(settings.native?.root ? [settings.native.root] : [])];
      const name = shadowingCandidate(file.path, prefixes, options);
      if (name !== undefined && /^[A-Za-z_]\w*$/.test(name) && this.#standard([name], options, settings).has(name)) {
        add("A005", `Module \`${name}\` shadows a Python standard-library module`);
      }
    }
    const module = on("PLW0406") ? rootedModulePath(file.path, root()) : undefined;
    if (module && mayImportSelf(file.text, module)) {
      for (const f of importSelfFindings(file.text, tokens(), module)) {
        add("PLW0406", `Module \`${f.name}\` imports itself`, f.start, f.end);
      }
    }
    const exe001 = on("EXE001");
    const exe002 = on("EXE002");
    if ((exe001 || exe002) && modeBits()) {
      const executable = hasExecutableBit(file.path);
      const shebangs = file.text.includes("#!") ? shebangComments(file.text, tokens()) : [];
      if (exe001 && executable === false) {
        for (const s of shebangs) add("EXE001", "Shebang is present but file is not executable", s.start, s.end);
      }
      if (exe002 && executable === true && shebangs.length === 0) {
        add("EXE002", "The file is executable but no shebang is present");
      }
    }
    return out;
  }

  /**
   * `found` with its `DOC501` and `DOC502` (preview) as `ruff check` reports them in a file that imports relatively:
   * ruff resolves `from ..errors import E` against the file's module path, which the WebAssembly build does not know,
   * so `raise E(...)` named no exception it could match with the docstring's (pydantic: 39 `DOC501` missed, 11
   * `DOC502` too many). Those two rules' findings come from a check of the text with its relative imports made
   * absolute ({@link absoluteImports}: each keeps its line, and neither rule reports on an import's line).
   */
  #resolvedDocs(
    file: SourceFile,
    options: Options,
    settings: EngineSettings,
    found: RuffDiagnostic[],
    root: () => string | undefined,
  ) {
    if (!isPreview(options) || !(maySelect(options, "DOC501") || maySelect(options, "DOC502"))) return found;
    if (!/^[ \t]*from[ \t]+\./m.test(file.text)) return found;
    const module = rootedModulePath(file.path, root());
    const text = module === undefined ? file.text : absoluteImports(file.text, module);
    if (text === file.text) return found;
    const raises = (d: RuffDiagnostic) => d.code === "DOC501" || d.code === "DOC502";
    // Only those two rules, where the options enable them: the second check costs a fraction of the first.
    const codes = ["DOC501", "DOC502"].filter((code) => this.#enables(options, code, settings));
    if (codes.length === 0) return found;
    const lint = { ...tableOf(options.lint), select: codes, "extend-select": [], ignore: [], "extend-ignore": [] };
    const only = { ...options, select: undefined, "extend-select": undefined, ignore: undefined, lint };
    const again = withCodes(this.#call(() => this.#workspace(only, settings).check(text)));
    return [...found.filter((d) => !raises(d)), ...again.filter(raises)];
  }

  /**
   * `RUF067` in an `__init__.py` where the options enable it (a preview rule), from the file's tokens; none in a text
   * with syntax errors (ruff would report the rule on what it recovered).
   */
  #initModule(
    file: SourceFile,
    options: Options,
    settings: EngineSettings,
    found: RuffDiagnostic[],
    tokensOf: () => Token[],
  ) {
    if (basename(file.path) !== "__init__.py" || !isPreview(options) || !maySelect(options, "RUF067")) return [];
    if (found.some(isSyntax) || !this.#enables(options, "RUF067", settings)) return [];
    const tokens = tokensOf();
    const table = { ...tableOf(options.ruff), ...tableOf(tableOf(options.lint).ruff) };
    return initModuleFindings({ text: file.text, tokens, strict: table["strictly-empty-init-modules"] === true });
  }

  /** ruff's findings in a text; a {@link SourceSyntaxError} where it has syntax errors. */
  #check(file: SourceFile, settings: EngineSettings): RuffDiagnostic[] {
    const diags = this.#raw(file, settings);
    this.#throwSyntax(file, settings, diags);
    return diags;
  }

  #throwSyntax(file: SourceFile, settings: EngineSettings, diags: RuffDiagnostic[]): void {
    const err = syntaxError(diags);
    if (!err) return;
    // As `ruff check` reports them: the syntax errors, then what the rules found in what did parse.
    const rest = this.#diagnose(file, settings, diags.filter((d) => !isSyntax(d)));
    throw rest.length > 0 ? new SourceSyntaxError([...err.diagnostics, ...rest] as [Diagnostic, ...Diagnostic[]]) : err;
  }

  lint(file: SourceFile, settings: EngineSettings) {
    if (file.language === "toml") return { diagnostics: this.#settingsFile(file, settings) };
    return againOnCrash(() => ({ diagnostics: this.#diagnose(file, settings, this.#check(file, settings)) }));
  }

  /**
   * A ruff settings file (`pyproject.toml`, `ruff.toml`, `.ruff.toml`), which `ruff check` lints too: `RUF201` (a rule
   * code used where its name reads better, a preview rule) where the options enable it, worked out as ruff 0.16.9 does
   * (`_settings_file.ts`), each with its safe fix. `RUF200` (an invalid `pyproject.toml`) is not (docs/engines.md).
   */
  #settingsFile(file: SourceFile, settings: EngineSettings): Diagnostic[] {
    const options = settingsLintOptions(settings);
    if (!isPreview(options) || !maySelect(options, "RUF201") || !this.#enables(options, "RUF201", settings)) return [];
    const found = codesInSelectors(file.path, file.text, RULE_NAMES);
    const bytes = utf16ToBytes(file.text, found.flatMap((f) => [f.startIndex, f.endIndex]));
    const diagnostics = found.map((f, i): Diagnostic => ({
      engine: "ruff",
      code: "RUF201",
      severity: "error",
      title: f.message,
      span: { start_line: f.start.line, start_col: f.start.column, end_line: f.end.line, end_col: f.end.column },
      fix: [{ start_byte: bytes[2 * i], end_byte: bytes[2 * i + 1], replacement: f.name }],
    }));
    return applyRuleSettings(diagnostics, settings);
  }

  /** ruff's raw findings as poly diagnostics (as `ruff check` gives them at the file's path), after select/ignore/per-rule levels. */
  #diagnose(
    file: SourceFile,
    settings: EngineSettings,
    raw: RuffDiagnostic[],
    tokens = this.#tokens(file, settings),
  ): Diagnostic[] {
    const starts = lineStarts(file.text);
    const options = this.#fileLintOptions(file, settings);
    const fixed: { diag: Diagnostic; edits: TextEdit[] }[] = [];
    const enables = (code: string) => this.#enables(options, code, settings);
    const diagnostics: Diagnostic[] = asRuffChecks(file.path, raw, isPreview(options), enables).map((d) => {
      const diag: Diagnostic = {
        engine: "ruff",
        code: d.code ?? undefined,
        severity: "error",
        title: d.message,
        span: {
          start_line: d.start_location.row,
          start_col: d.start_location.column,
          end_line: d.end_location.row,
          end_col: d.end_location.column,
        },
      };
      if (d.fix && isSafe(d, file, settings, options, tokens, starts)) {
        fixed.push({ diag, edits: toEdits(file.text, starts, d) });
      }
      return diag;
    });
    // Every fix's offsets in bytes in one walk over the text (one walk per finding took O(findings × text)).
    const offsets = utf16ToBytes(file.text, fixed.flatMap(({ edits }) => edits.flatMap((e) => [e.start, e.end])));
    let at = 0;
    for (const { diag, edits } of fixed) {
      diag.fix = edits.map((e) => ({ start_byte: offsets[at++], end_byte: offsets[at++], replacement: e.text }));
    }
    return applyRuleSettings(diagnostics, settings);
  }

  fix(file: SourceFile, settings: EngineSettings) {
    if (file.language === "toml") {
      // A settings file's fixes (RUF201's names) never overlap: each rewrites one string.
      const fixes = this.#settingsFile(file, settings).flatMap((d) => d.fix ?? []);
      const at = bytesToUtf16(file.text, fixes.flatMap((f) => [f.start_byte, f.end_byte]));
      const edits = fixes.map((f, i) => ({ start: at[2 * i], end: at[2 * i + 1], text: f.replacement }));
      const { text, applied } = applyEdits(file.text, edits);
      return { text, fixed: applied };
    }
    return againOnCrash(() => this.#fix(file, settings));
  }

  /**
   * ruff's fix loop (`ruff check --fix`): the safe fixes of what the text has, again on the text they leave, until
   * none is left or {@link MAX_FIX_PASSES} (sqlalchemy's `compiler.py` takes 12: where one fix's range holds another's,
   * one pass applies only the outer, and an import goes unused only once its last use has been rewritten).
   *
   * A text with syntax errors is fixed as ruff fixes it: ruff gives no fix in a text that does not parse, and keeps
   * those of a text that parses but has syntax of a newer Python than the target (`tuple[*Ts]` on 3.10) or an error
   * its semantic checks find (a duplicate parameter) — `ruff check --fix` fixes those files, and they are reported
   * with their syntax errors after. A pass that brings a syntax error the text did not have keeps the file's own text
   * (ruff: "Fix introduced a syntax error"; poly also where the text had others before, which ruff would write).
   */
  #fix(file: SourceFile, settings: EngineSettings) {
    let text = file.text;
    let fixed = 0;
    let errors: string | undefined;
    for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
      const current = { ...file, text };
      const all = this.#raw(current, settings);
      const now = all.filter(isSyntax).map((d) => d.message).sort().join("\n");
      if (pass === 0) {
        errors = now;
        // Nothing to fix in a text that does not parse: its syntax errors are the file's findings.
        if (now && !all.some((d) => d.fix)) this.#throwSyntax(current, settings, all);
      } else if (now !== errors) return { text: file.text, fixed: 0 };
      // Only fixes of findings the settings keep (select, ignore, levels other than "off"); the text's tokens made once.
      const tokens = this.#tokens(current, settings);
      const kept = new Set(this.#diagnose(current, settings, all, tokens).filter((d) => d.fix).map((d) => d.code));
      const options = this.#fileLintOptions(current, settings);
      const starts = lineStarts(text);
      const raw = all.filter((d) =>
        d.fix && kept.has(d.code ?? "") && isSafe(d, current, settings, options, tokens, starts)
      );
      if (raw.length === 0) break;
      // Each diagnostic's edits are applied together or not at all.
      let applied = 0;
      const groups = raw.map((d) => toEdits(text, starts, d)).sort((a, b) => a[0].start - b[0].start);
      let cursor = -1;
      const chosen: TextEdit[] = [];
      for (const group of groups) {
        const start = Math.min(...group.map((e) => e.start));
        if (start < cursor) continue;
        chosen.push(...group);
        cursor = Math.max(...group.map((e) => e.end));
        applied++;
      }
      const result = applyEdits(text, chosen).text;
      if (result === text) break;
      text = result;
      fixed += applied;
    }
    return { text, fixed };
  }

  format(file: SourceFile, settings: EngineSettings): Promise<string> {
    return againOnCrash(() => this.#format(file, settings));
  }

  #format(file: SourceFile, settings: EngineSettings): string {
    // The `ruff-format` hook's arguments poly cannot apply: its formatting says why.
    if (settings.native?.unmapped) throw new EngineError(settings.native.unmapped);
    refuseStub(file);
    try {
      const ws = this.#workspace(formatOptions(settings), settings);
      return this.#call(() => ws.format(file.text));
    } catch (e) {
      if (e instanceof EngineError) throw e;
      const message = e instanceof Error ? e.message : String(e);
      // ruff reports "... at byte range S..E": turn the byte offset into a line and column.
      const m = /at byte range (\d+)\.\.(\d+)/.exec(message);
      if (m) {
        const bytes = new TextEncoder().encode(file.text).subarray(0, Number(m[1]));
        const before = new TextDecoder().decode(bytes);
        const line = before.split("\n").length;
        const column = before.length - before.lastIndexOf("\n");
        const title = message.replace(/ at byte range.*$/, "");
        throw new SourceSyntaxError([syntaxDiagnostic("ruff", "invalid-syntax", title, { line, column })]);
      }
      throw new EngineError(message);
    }
  }
}

/** {@link selectsVisibility} of each settings object, worked out once (a run asks it per file). */
const visibility = new WeakMap<EngineSettings, boolean>();

const lintOptionsOf = new WeakMap<EngineSettings, Options>();

/** {@link lintOptions}, made once per settings object. */
function settingsLintOptions(settings: EngineSettings): Options {
  let options = lintOptionsOf.get(settings);
  if (!options) lintOptionsOf.set(settings, options = lintOptions(settings));
  return options;
}

/** Whether the settings select a rule that follows the module's visibility (missing docstrings, return annotations). */
function selectsVisibility(settings: EngineSettings): boolean {
  let selected = visibility.get(settings);
  if (selected === undefined) {
    const options = settingsLintOptions(settings);
    visibility.set(settings, selected = docstringsSelected(options) || annotationsSelected(options));
  }
  return selected;
}

/** The ruff engine. */
export const ruff: EngineSpec = {
  id: "ruff",
  tier: "in-process",
  // TOML: ruff's settings files, which `ruff check` lints too (RUF201), where a ruff configuration governs (run/plan.ts).
  lintLanguages: ["python", "toml"],
  formatLanguages: ["python"],
  capabilities: { lint: true, format: true, fix: true },
  upstream: `${PACKAGE} ${RUFF_VERSION}`,
  defaultEnabled: true,
  // Whether a missing docstring or return annotation is reported (and as which rule), whether the file is a module of
  // an implicit namespace package (INP001: an `__init__.py` beside it), which imports of private names are from its
  // own package (PLC2701: the package root's name), and where isort puts the file's own package
  // and the dotted modules it imports from the `src` folders, depend on the packages and files around the file
  // (`_module.ts`): where the selection has those rules, a result is kept under them too.
  cacheContext: (file, settings) => {
    if (file.language === "toml") return Promise.resolve("");
    const options = settingsLintOptions(settings);
    const namespaces = namespacePackages(options, settings.native?.root ?? "");
    const root = lazyPackageRoot(file.path, namespaces);
    const raises = maySelect(options, "DOC501") || maySelect(options, "DOC502");
    const docs = [
      selectsVisibility(settings) ? modulePath(file.path).join(".") : "",
      maySelect(options, "INP001")
        ? `!${besideInit(file.path)}${nestedPackageParent(file.path, file.relPath, namespaces) ?? ""}`
        : "",
      maySelect(options, "PLC2701") || maySelect(options, "N999")
        ? `^${root() === undefined ? "" : basename(root()!)}`
        : "",
      maySelect(options, "EXE001") || maySelect(options, "EXE002") ? `x${hasExecutableBit(file.path)}` : "",
      raises ? `#${rootedModulePath(file.path, root())?.join(".") ?? ""}` : "",
    ].join("");
    const own = ownPackage(file.path, options);
    // A file the stat index knows unchanged comes without its text (lib/run/prepass.ts): read here when it matters.
    const text = () => file.text === "" ? ownFileText(file.path) : file.text;
    const misses = sourceMisses(file.path, text, settings.native, options);
    return Promise.resolve(`${own === undefined ? docs : `${docs}+${own}`}${misses.length > 0 ? `~${misses}` : ""}`);
  },
  // An `__init__.py` makes a folder a package; a module or folder made or removed is found by ruff's `src` matching or
  // no longer (an edit of a module changes neither).
  contextFiles: (path, change) =>
    /(^|[/\\])__init__\.pyi?$/.test(path) || (change !== "modify" && (/\.pyi?$/.test(path) || extname(path) === "")),
  selects: ruffSelects,
  moduleUrls() {
    const js = import.meta.resolve(PACKAGE);
    return Promise.resolve([js, new URL("ruff_wasm_bg.wasm", js).href]);
  },
  async load() {
    return new Ruff(await import("@astral-sh/ruff-wasm-nodejs"));
  },
};
