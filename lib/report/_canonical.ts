/**
 * A report in canonical form without going through zod: keys in schema order,
 * nothing the schema does not name, every value checked. `Report.safeParse`
 * does the same, but a run over thousands of files spends tens of milliseconds
 * there, and loading zod and the schema costs a run ~50 ms more; no encoder
 * loads it. Anything that does not fit the schema gives undefined
 * (tests/report/canonical_test.ts holds this to the schema's output).
 *
 * @module
 */
import type {
  ConfigRef,
  Diagnostic,
  FileResult,
  FixEdit,
  Identity,
  Report,
  RunError,
  RunSkip,
  Span,
  Summary,
  WorkspaceOutcome,
} from "./schema.ts";

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

function record(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Misfit();
  return value as Record<string, unknown>;
}

function list<T>(value: unknown, each: (item: unknown) => T): T[] {
  if (!Array.isArray(value)) throw new Misfit();
  return value.map(each);
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) throw new Misfit();
  return value as T;
}

function bool(value: unknown): boolean {
  if (typeof value !== "boolean") throw new Misfit();
  return value;
}

function summary(value: unknown): Summary {
  const s = record(value);
  const out: Record<string, unknown> = {
    checked: int(s.checked, 0),
    skipped: int(s.skipped, 0),
    errored: int(s.errored, 0),
  };
  if (s.diagnostics !== undefined) {
    const d = record(s.diagnostics);
    out.diagnostics = {
      error: int(d.error, 0),
      warning: int(d.warning, 0),
      info: int(d.info, 0),
      hint: int(d.hint, 0),
    };
  }
  if (s.fixed !== undefined) out.fixed = int(s.fixed, 0);
  if (s.changed !== undefined) out.changed = int(s.changed, 0);
  if (s.cache !== undefined) {
    const c = record(s.cache);
    out.cache = { hits: int(c.hits, 0), misses: int(c.misses, 0) };
  }
  return out as Summary;
}

function configRef(value: unknown): ConfigRef {
  const c = record(value);
  const hash = str(c.hash);
  if (!/^1\/[0-9a-f]{16}$/.test(hash)) throw new Misfit();
  return c.sources === undefined ? { hash } : { hash, sources: list(c.sources, str) };
}

function identity(value: unknown): Identity {
  const p = record(value);
  const pid = p.pid;
  if (typeof pid !== "number" || !Number.isInteger(pid)) throw new Misfit();
  const engines: Identity["engines"] = {};
  for (const [id, e] of Object.entries(record(p.engines))) {
    const engine = record(e);
    engines[id] = { version: str(engine.version), digest: str(engine.digest) };
  }
  return {
    version: str(p.version),
    build_id: str(p.build_id),
    channel: oneOf(p.channel, ["release", "dev"] as const),
    executable: str(p.executable),
    pid,
    engines_digest: str(p.engines_digest),
    engines,
  };
}

const JOB_STATUSES = ["passed", "failed", "skipped", "errored", "cancelled"] as const;

function job(value: unknown): WorkspaceOutcome["jobs"][number] {
  const j = record(value);
  const out: Record<string, unknown> = { name: str(j.name), status: oneOf(j.status, JOB_STATUSES) };
  if (j.reason !== undefined) out.reason = str(j.reason);
  if (j.duration_ms !== undefined) {
    if (typeof j.duration_ms !== "number" || !(j.duration_ms >= 0)) throw new Misfit();
    out.duration_ms = j.duration_ms;
  }
  if (j.diagnostics !== undefined) {
    out.diagnostics = list(j.diagnostics, (d) => {
      const withPath = record(d);
      const one = diagnostic(withPath);
      return withPath.path === undefined ? one : { ...one, path: str(withPath.path) };
    });
  }
  if (j.output !== undefined) out.output = str(j.output);
  if (j.cwd !== undefined) out.cwd = str(j.cwd);
  if (j.command !== undefined) out.command = list(j.command, str);
  if (j.cached !== undefined) out.cached = bool(j.cached);
  return out as WorkspaceOutcome["jobs"][number];
}

/** One file's result in canonical form (see {@link canonicalDocument}), or undefined when it does not fit the schema. */
export function canonicalResult(value: FileResult): FileResult | undefined {
  try {
    return result(value);
  } catch (e) {
    if (e instanceof Misfit) return undefined;
    throw e;
  }
}

/** The whole report in canonical form, or undefined when some part does not fit the schema. */
export function canonicalDocument(report: Report): Report | undefined {
  try {
    const r = record(report);
    const out: Record<string, unknown> = {
      kind: oneOf(r.kind, ["lint", "fmt", "workspace"] as const),
      mode: oneOf(r.mode, ["check", "fix"] as const),
      results: list(r.results, result),
      errors: list(r.errors, runError),
      skipped: list(r.skipped, runSkip),
      summary: summary(r.summary),
      configs: list(r.configs, configRef),
    };
    if (r.workspace !== undefined) out.workspace = { jobs: list(record(r.workspace).jobs, job) };
    out.poly = identity(r.poly);
    return out as Report;
  } catch (e) {
    if (e instanceof Misfit) return undefined;
    throw e;
  }
}
