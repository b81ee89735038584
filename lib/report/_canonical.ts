/**
 * The per-file records of a report, and its run-level errors and skips, in
 * canonical form without going through zod: keys in schema order, nothing the
 * schema does not name, every value checked. `Report.safeParse` does the same
 * for the whole document, but a run over thousands of files spends tens of
 * milliseconds there (more on its first call, when zod compiles the schema),
 * nearly all of it in `results` and `skipped`. Anything unexpected returns
 * undefined, and the caller falls back to the schema
 * (tests/report/canonical_test.ts holds both to the same output).
 *
 * @module
 */
import type { Diagnostic, FileResult, FixEdit, RunError, RunSkip, Span } from "./schema.ts";

const SEVERITIES = new Set(["error", "warning", "info", "hint"]);

/** Thrown inside this module when a value does not fit the schema. */
class Misfit extends Error {}

function str(value: unknown): string {
  if (typeof value !== "string") throw new Misfit();
  return value;
}

function int(value: unknown, min: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) throw new Misfit();
  return value;
}

function span(value: unknown): Span {
  if (value === null || typeof value !== "object") throw new Misfit();
  const s = value as Record<string, unknown>;
  return {
    start_line: int(s.start_line, 1),
    start_col: int(s.start_col, 1),
    end_line: int(s.end_line, 1),
    end_col: int(s.end_col, 1),
  };
}

function edit(value: unknown): FixEdit {
  if (value === null || typeof value !== "object") throw new Misfit();
  const e = value as Record<string, unknown>;
  return { start_byte: int(e.start_byte, 0), end_byte: int(e.end_byte, 0), replacement: str(e.replacement) };
}

function diagnostic(value: unknown): Diagnostic {
  if (value === null || typeof value !== "object") throw new Misfit();
  const d = value as Record<string, unknown>;
  if (!SEVERITIES.has(d.severity as string)) throw new Misfit();
  // Schema order: engine, code, severity, title, description, span, url, fix.
  const out: Record<string, unknown> = { engine: str(d.engine) };
  if (d.code !== undefined) out.code = str(d.code);
  out.severity = d.severity;
  out.title = str(d.title);
  if (d.description !== undefined) out.description = str(d.description);
  if (d.span !== undefined) out.span = span(d.span);
  if (d.url !== undefined) out.url = str(d.url);
  if (d.fix !== undefined) {
    if (!Array.isArray(d.fix)) throw new Misfit();
    out.fix = d.fix.map(edit);
  }
  return out as Diagnostic;
}

function result(value: unknown): FileResult {
  if (value === null || typeof value !== "object") throw new Misfit();
  const r = value as Record<string, unknown>;
  const out: Record<string, unknown> = { path: str(r.path) };
  if (r.config !== undefined) out.config = int(r.config, 1);
  if (r.diagnostics !== undefined) {
    if (!Array.isArray(r.diagnostics)) throw new Misfit();
    out.diagnostics = r.diagnostics.map(diagnostic);
  }
  if (r.fixed !== undefined) out.fixed = int(r.fixed, 0);
  if (r.changed !== undefined) {
    if (typeof r.changed !== "boolean") throw new Misfit();
    out.changed = r.changed;
  }
  if (r.diff !== undefined) out.diff = str(r.diff);
  if (r.skipped !== undefined) out.skipped = str(r.skipped);
  if (r.error !== undefined) out.error = str(r.error);
  return out as FileResult;
}

function runError(value: unknown): RunError {
  if (value === null || typeof value !== "object") throw new Misfit();
  const e = value as Record<string, unknown>;
  return { path: str(e.path), message: str(e.message) };
}

function runSkip(value: unknown): RunSkip {
  if (value === null || typeof value !== "object") throw new Misfit();
  const s = value as Record<string, unknown>;
  return { path: str(s.path), reason: str(s.reason) };
}

/** `list` with `each` applied, or undefined when it is not a list or an item does not fit the schema. */
function canonicalList<T>(list: unknown, each: (value: unknown) => T): T[] | undefined {
  if (!Array.isArray(list)) return undefined;
  try {
    return list.map(each);
  } catch (e) {
    if (e instanceof Misfit) return undefined;
    throw e;
  }
}

/** The records in canonical form, or undefined when one does not fit the schema. */
export function canonicalResults(results: unknown): FileResult[] | undefined {
  return canonicalList(results, result);
}

/** The run-level errors in canonical form, or undefined when one does not fit the schema. */
export function canonicalErrors(errors: unknown): RunError[] | undefined {
  return canonicalList(errors, runError);
}

/** The run-level skips in canonical form, or undefined when one does not fit the schema. */
export function canonicalSkips(skipped: unknown): RunSkip[] | undefined {
  return canonicalList(skipped, runSkip);
}
