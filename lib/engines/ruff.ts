/**
 * ruff — Python lint and format, in-process (WebAssembly: `@astral-sh/ruff-wasm-nodejs`).
 *
 * - Lint: ruff's rules. Default selection is ruff's documented one (`E4`, `E7`, `E9`, `F`);
 *   `[lint.python.ruff] select = ["E", "F", "B", "I"]`, `ignore = [...]`, and
 *   `[lint.python.ruff.rules.E501] level = "warning"` (or `"off"`) adjust it. Every
 *   other key of the table is passed to ruff as a top-level setting (e.g.
 *   `target-version = "py311"`, `preview = true`); ruff rejects unknown ones, which
 *   becomes an errored record naming the bad setting.
 * - Every ruff finding is severity `error` (ruff has no severities) unless re-levelled.
 * - Fix (`poly lint --fix`): applies only fixes of the rules in {@link SAFE_FIX_RULES},
 *   whose fixes ruff's documentation marks as safe ("Fix safety" in each rule's page).
 *   The wasm build reports fixes without their applicability, so poly keeps this
 *   allow-list itself; a rule not in it is never auto-fixed (its fix is still shown
 *   to no one as applicable). F401 is excluded in `__init__.py`, where removing an
 *   import changes the package's public API.
 * - Format: ruff's formatter with `line-length` from `[defaults] line_length`,
 *   `indent-width` from `[defaults] indent_width`, and `[fmt.python.ruff]` keys
 *   passed as ruff `format` settings (e.g. `quote-style = "single"`).
 * - A syntax error is an errored record with the line and column ruff reports.
 *
 * Example: `x == None` → `E711 Comparison to None should be cond is None` (not auto-fixed:
 * ruff marks that fix unsafe because `__eq__` may be overloaded).
 *
 * @module
 */
import type { Diagnostic } from "../report/schema.ts";
import { applyEdits, lineStarts, positionToIndex, type TextEdit, utf16ToBytes } from "./_text.ts";
import { applyRuleSettings, upstreamKeys } from "./_settings.ts";
import { EngineError, type EngineInstance, type EngineSettings, type EngineSpec, type SourceFile } from "./types.ts";
import { lazy } from "../lazy/mod.ts";

const PACKAGE = "@astral-sh/ruff-wasm-nodejs";
const VERSION = "0.16.9";

/** Rules checked when `[lint.python.ruff] select` is not set (ruff's documented default). */
export const DEFAULT_SELECT: readonly string[] = ["E4", "E7", "E9", "F"];

/** Rules whose fixes ruff documents as safe. */
export const SAFE_FIX_RULES: ReadonlySet<string> = new Set([
  "F401", // unused import (not in __init__.py)
  "F541", // f-string without placeholders
  "F632", // `is` comparison with a literal
  "E703", // useless trailing semicolon
  "W291", // trailing whitespace
  "W292", // no newline at end of file
  "W293", // whitespace on blank line
  "W605", // invalid escape sequence
  "I001", // unsorted imports
  "I002", // missing required import
  "UP004", // useless object inheritance
  "UP008", // super() call with parameters
  "UP010", // unnecessary __future__ import
  "UP012", // unnecessary encode to UTF-8
  "UP015", // redundant open modes
  "UP018", // native literals
  "UP025", // unicode kind prefix
  "UP032", // f-string instead of format call
  "UP034", // extraneous parentheses
  "UP039", // unnecessary class parentheses
  "RUF100", // unused noqa directive
  "Q000", // bad quotes inline string
  "Q001", // bad quotes multiline string
  "Q002", // bad quotes docstring
  "Q003", // avoidable escaped quote
]);

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
}

type RuffModule = typeof import("@astral-sh/ruff-wasm-nodejs");

function lintOptions(settings: EngineSettings): Record<string, unknown> {
  const select = settings.tool.select as string[] | undefined;
  const ignore = settings.tool.ignore as string[] | undefined;
  // Without a selection, ruff's documented default set, spelled out: the wasm build's
  // implicit default is narrower (it leaves out E7, e.g. E711).
  const lint: Record<string, unknown> = { select: select ?? DEFAULT_SELECT };
  if (ignore) lint.ignore = ignore;
  return {
    "line-length": settings.defaults.line_length,
    ...(settings.defaults.indent_width ? { "indent-width": settings.defaults.indent_width } : {}),
    ...upstreamKeys(settings),
    lint,
  };
}

function formatOptions(settings: EngineSettings): Record<string, unknown> {
  const ending = settings.defaults.line_ending === "crlf"
    ? "cr-lf"
    : settings.defaults.line_ending === "auto"
    ? "auto"
    : "lf";
  return {
    "line-length": settings.defaults.line_length,
    ...(settings.defaults.indent_width ? { "indent-width": settings.defaults.indent_width } : {}),
    format: { "line-ending": ending, ...upstreamKeys(settings) },
  };
}

function isSafe(code: string | null, file: SourceFile): boolean {
  if (!code || !SAFE_FIX_RULES.has(code)) return false;
  return !(code === "F401" && file.path.endsWith("__init__.py"));
}

function syntaxError(diags: RuffDiagnostic[]): EngineError | undefined {
  const bad = diags.find((d) => d.code === null || d.code === "invalid-syntax");
  if (!bad) return undefined;
  const { row, column } = bad.start_location;
  return new EngineError(`syntax error at ${row}:${column}: ${bad.message}`, { line: row, column });
}

function toEdits(text: string, starts: number[], d: RuffDiagnostic): TextEdit[] {
  return (d.fix?.edits ?? []).map((e) => ({
    start: positionToIndex(starts, e.location.row, e.location.column, text.length),
    end: positionToIndex(starts, e.end_location.row, e.end_location.column, text.length),
    text: e.content ?? "",
  }));
}

class Ruff implements EngineInstance {
  #workspaces = new Map<string, RuffWorkspace>();
  constructor(private readonly mod: RuffModule) {}

  #workspace(options: Record<string, unknown>): RuffWorkspace {
    const key = JSON.stringify(options);
    let ws = this.#workspaces.get(key);
    if (!ws) {
      try {
        ws = new this.mod.Workspace(options, this.mod.PositionEncoding.Utf16) as unknown as RuffWorkspace;
      } catch (e) {
        throw new EngineError(`invalid ruff settings: ${e instanceof Error ? e.message : String(e)}`);
      }
      this.#workspaces.set(key, ws);
    }
    return ws;
  }

  #check(file: SourceFile, settings: EngineSettings): RuffDiagnostic[] {
    const diags = this.#workspace(lintOptions(settings)).check(file.text);
    const err = syntaxError(diags);
    if (err) throw err;
    return diags;
  }

  lint(file: SourceFile, settings: EngineSettings) {
    return { diagnostics: this.#diagnose(file, settings, this.#check(file, settings)) };
  }

  /** ruff's raw findings as poly diagnostics, after select/ignore/per-rule levels. */
  #diagnose(file: SourceFile, settings: EngineSettings, raw: RuffDiagnostic[]): Diagnostic[] {
    const starts = lineStarts(file.text);
    const diagnostics: Diagnostic[] = raw.map((d) => {
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
      if (d.fix && isSafe(d.code, file)) {
        const edits = toEdits(file.text, starts, d);
        const offsets = utf16ToBytes(file.text, edits.flatMap((e) => [e.start, e.end]));
        diag.fix = edits.map((e, i) => ({
          start_byte: offsets[2 * i],
          end_byte: offsets[2 * i + 1],
          replacement: e.text,
        }));
      }
      return diag;
    });
    return applyRuleSettings(diagnostics, settings);
  }

  fix(file: SourceFile, settings: EngineSettings) {
    let text = file.text;
    let fixed = 0;
    for (let pass = 0; pass < 10; pass++) {
      const current = { ...file, text };
      const all = this.#check(current, settings);
      // Only fixes of findings the settings keep (select, ignore, levels other than "off").
      const kept = new Set(this.#diagnose(current, settings, all).filter((d) => d.fix).map((d) => d.code));
      const raw = all.filter((d) => d.fix && kept.has(d.code ?? "") && isSafe(d.code, file));
      if (raw.length === 0) break;
      const starts = lineStarts(text);
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

  format(file: SourceFile, settings: EngineSettings): string {
    try {
      return this.#workspace(formatOptions(settings)).format(file.text);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      // ruff reports "... at byte range S..E": turn the byte offset into a line and column.
      const m = /at byte range (\d+)\.\.(\d+)/.exec(message);
      if (m) {
        const bytes = new TextEncoder().encode(file.text).subarray(0, Number(m[1]));
        const before = new TextDecoder().decode(bytes);
        const line = before.split("\n").length;
        const column = before.length - before.lastIndexOf("\n");
        throw new EngineError(`syntax error at ${line}:${column}: ${message.replace(/ at byte range.*$/, "")}`, {
          line,
          column,
        });
      }
      throw new EngineError(message);
    }
  }
}

/** The ruff engine. */
export const ruff: EngineSpec = {
  id: "ruff",
  tier: "in-process",
  lintLanguages: ["python"],
  formatLanguages: ["python"],
  capabilities: { lint: true, format: true, fix: true },
  upstream: `${PACKAGE} ${VERSION}`,
  defaultEnabled: true,
  moduleUrls() {
    const js = import.meta.resolve(PACKAGE);
    return Promise.resolve([js, new URL("ruff_wasm_bg.wasm", js).href]);
  },
  async load() {
    return new Ruff((await lazy.npmRuff()).ruff);
  },
};
