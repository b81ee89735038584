/**
 * What biome's two paths share — the WebAssembly module (one file at a time)
 * and the native command line (many files per process): the biome configuration
 * built from poly's settings, and the step from biome's findings to poly's
 * diagnostics (or the parse error that makes the file an errored record). Both
 * paths hand {@link outcome} the same findings for the same file, so they
 * report the same thing.
 *
 * @module
 */
import { relative, sep } from "node:path";
import type { Diagnostic, Severity } from "../../report/schema.ts";
import { compareDiagnostics } from "../../report/sort.ts";
import { applyRuleSettings } from "../settings.ts";
import { BIOME_CLI_VERSION } from "./_bin.ts";
import { indexToPosition, lineStarts } from "../text.ts";
import { EngineError, type EngineSettings, type LintOutput, type SourceFile, SourceSyntaxError } from "../types.ts";

/** One biome finding, its span already in UTF-16 indices of the file's text. */
export interface Finding {
  category?: string;
  /** biome's severity: "fatal", "error", "warning", "information" or "hint". */
  severity: string;
  description: string;
  /** [start, end) as string indices; absent when biome gives no span. */
  range?: [number, number];
}

const SEVERITY: Record<string, Severity> = {
  fatal: "error",
  error: "error",
  warning: "warning",
  information: "info",
  hint: "hint",
};

type Json = Record<string, unknown>;

function isTable(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function mergeJson(under: Json, over: Json): Json {
  const out: Json = { ...under };
  for (const [k, v] of Object.entries(over)) out[k] = isTable(v) && isTable(out[k]) ? mergeJson(out[k], v) : v;
  return out;
}

/**
 * The path biome sees for a file: relative to the directory of the repository's
 * governing biome (or prettier) file when there is one, so its `overrides` globs
 * match as on the command line; else the path relative to the run.
 */
export function biomePath(file: { path: string; relPath: string }, settings: EngineSettings): string {
  const root = settings.native?.root;
  if (root && file.path.startsWith(root.endsWith("/") ? root : root + "/")) return file.path.slice(root.length + 1);
  return file.relPath;
}

/**
 * The biome configuration poly applies for one settings object (`kind` picks the formatter keys). A lint applies no
 * assist action (`biome lint` reports none); a fix (`fix`: the lint's configuration otherwise) applies those the
 * configuration enables — organizeImports unless the repository or poly.toml turns it off — as `biome check --write`.
 */
export function configuration(settings: EngineSettings, kind: "lint" | "format" | "fix"): Record<string, unknown> {
  const raw = (settings.tool.configuration ?? {}) as Record<string, unknown>;
  const formatterKeys = kind === "format"
    ? Object.fromEntries(Object.entries(settings.tool).filter(([k]) => !["enabled", "configuration"].includes(k)))
    : {};
  // A biome file poly cannot honour errors each file biome lints or formats under it; a prettier or oxfmt file's
  // options that do not map onto biome's, only what biome formats under them.
  if (settings.native?.unhonoured) throw new EngineError(settings.native.unhonoured);
  if (kind === "format" && settings.native?.unmapped) throw new EngineError(settings.native.unmapped);
  if (settings.native) {
    // The repository's configuration governs (biome's defaults fill the rest); poly.toml's keys on top. Options
    // mapped from prettier's or oxfmt's are the formatter's alone: the linter takes biome's defaults (and its
    // configuration stays free of their `overrides`, which only the WebAssembly path can apply).
    const own = kind !== "format" && settings.native.style ? {} : settings.native.options;
    const merged = mergeJson(own, raw);
    return {
      ...merged,
      formatter: { ...(merged.formatter as Json ?? {}), ...formatterKeys },
      assist: kind === "fix" ? merged.assist ?? {} : { enabled: false },
    };
  }
  const ending = settings.defaults.line_ending === "crlf"
    ? "crlf"
    : settings.defaults.line_ending === "auto"
    ? "auto"
    : "lf";
  return {
    ...raw,
    linter: {
      enabled: true,
      ...(raw.linter as object ?? {}),
      rules: { recommended: true, ...((raw.linter as { rules?: object })?.rules ?? {}) },
    },
    formatter: {
      enabled: true,
      indentStyle: "space",
      indentWidth: settings.defaults.indent_width ?? 2,
      lineWidth: settings.defaults.line_length,
      lineEnding: ending,
      ...(raw.formatter as object ?? {}),
      ...formatterKeys,
    },
    assist: kind === "fix" ? raw.assist ?? {} : { enabled: false },
  };
}

function before(a: Finding, b: Finding): boolean {
  const [as, ae] = a.range ?? [0, 0];
  const [bs, be] = b.range ?? [0, 0];
  return as !== bs ? as < bs : ae !== be ? ae < be : a.description < b.description;
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
}

/** Each rule's documentation page, made once per code (a run's thousands of findings share a few dozen rules). */
const RULE_PAGES = new Map<string, string>();

function rulePage(code: string): string {
  let page = RULE_PAGES.get(code);
  if (page === undefined) {
    page = `https://biomejs.dev/linter/rules/${kebab(code.split("/").pop()!)}/`;
    RULE_PAGES.set(code, page);
  }
  return page;
}

/**
 * The parse errors biome reported, if any, as one {@link SourceSyntaxError}
 * whose diagnostics (code `parse`, error) are in text order (then the shortest,
 * then by message), so neither the order biome listed them in nor its path shows.
 */
export function syntaxError(text: string, findings: readonly Finding[]): SourceSyntaxError | undefined {
  const bad = findings.filter(isParseError)
    .sort((a, b) => before(a, b) ? -1 : before(b, a) ? 1 : 0);
  if (bad.length === 0) return undefined;
  const starts = lineStarts(text);
  const diagnostics = bad.map((d): Diagnostic => {
    const a = indexToPosition(starts, d.range?.[0] ?? 0);
    const b = indexToPosition(starts, d.range?.[1] ?? d.range?.[0] ?? 0);
    return {
      engine: "biome",
      code: "parse",
      severity: "error",
      title: d.description,
      span: { start_line: a.line, start_col: a.col, end_line: b.line, end_col: b.col },
    };
  });
  return new SourceSyntaxError(diagnostics as [Diagnostic, ...Diagnostic[]]);
}

/**
 * poly's result for one file from biome's findings: the parse errors (thrown), or
 * the lint diagnostics (as `biome lint` reports them: no assist actions) after
 * `select` / `ignore` / `rules` — in report order
 * ({@link compareDiagnostics}), so the order biome emitted them in (which
 * differs between its paths) never shows.
 */
export function outcome(file: SourceFile, findings: readonly Finding[], settings: EngineSettings): LintOutput {
  const err = syntaxError(file.text, findings);
  // Most files have no finding: their text is not scanned for lines.
  let starts: number[] | undefined;
  // Assist actions (organizeImports, useSortedKeys) are not lint diagnostics: `biome lint` never reports them.
  const kept = findings.filter((d) => !d.category?.startsWith("assist/") && !(err && isParseError(d)))
    .flatMap((d) => schemaVersion(file.text, d)).map((d) => manifestNamed(file, d, settings));
  const diagnostics: Diagnostic[] = kept.map((d) => {
    const code = d.category?.replace(/^lint\//, "") ?? undefined;
    const diag: Diagnostic = {
      engine: "biome",
      code,
      severity: SEVERITY[d.severity] ?? "warning",
      title: d.description,
      url: code && d.category?.startsWith("lint/") ? rulePage(code) : undefined,
    };
    if (d.range) {
      starts ??= lineStarts(file.text);
      const a = indexToPosition(starts, d.range[0]);
      const b = indexToPosition(starts, d.range[1]);
      diag.span = { start_line: a.line, start_col: a.col, end_line: b.line, end_col: b.col };
    }
    return diag;
  });
  const linted = applyRuleSettings(diagnostics, settings).sort(compareDiagnostics);
  // As `biome lint` reports them: the parse errors, and what the rules found in what did parse.
  if (err) throw new SourceSyntaxError([...err.diagnostics, ...linted] as [Diagnostic, ...Diagnostic[]]);
  return { diagnostics: linted };
}

/** The biome release poly pins (its WebAssembly build calls itself 0.0.0). */
const PINNED = BIOME_CLI_VERSION;
const WASM_VERSION = /(does not match the CLI version )0\.0\.0\b/;

/**
 * biome's `$schema` check on a configuration file as the command line of the
 * pinned version makes it: the WebAssembly build's version is 0.0.0, so it
 * calls every `$schema` naming a release a mismatch. Dropped when the file's
 * `$schema` names the pinned release; otherwise said with the pinned version.
 */
function schemaVersion(text: string, d: Finding): Finding[] {
  if (d.category !== "deserialize" || !WASM_VERSION.test(d.description)) return [d];
  const schema = /"\$schema"\s*:\s*"[^"]*\/schemas\/([^/"]+)\//.exec(text)?.[1];
  if (schema === PINNED) return [];
  return [{ ...d, description: d.description.replace(WASM_VERSION, `$1${PINNED}`) }];
}

/**
 * `noUndeclaredDependencies` names the manifest it read, by biome's path for it: a copy in a private folder
 * (`pkg0/package.json`, the native path) or in the WebAssembly path's memory file system. Named as `biome lint` run at
 * the root of the run names it: the file's path relative to that root.
 */
function manifestNamed(file: SourceFile, d: Finding, settings: EngineSettings): Finding {
  const manifest = settings.manifest?.files[0]?.path;
  if (d.category !== "lint/correctness/noUndeclaredDependencies" || !manifest) return d;
  const rel = file.relPath.split("/").join(sep);
  const root = file.path.endsWith(rel) ? file.path.slice(0, file.path.length - rel.length) : undefined;
  const named = (root === undefined ? manifest : relative(root, manifest)).split(sep).join("/");
  return { ...d, description: d.description.replace(/( isn't specified in ).+(\.)$/s, `$1${named}$2`) };
}

/** Whether a finding is a parse error (the text does not parse where it is). */
export function isParseError(d: Finding): boolean {
  return d.category === "parse" || d.severity === "fatal";
}
