/**
 * The report contract: what `poly lint --format json`, `poly fmt --format json`
 * and the MCP tools `lint`, `lint_fix`, `format_check`, `format_write` return.
 *
 * The zod schemas here are the single source of truth; `schema/report.schema.json`
 * is generated from them (`deno task schema`) and every JSON document the tests
 * see is validated against it.
 *
 * @module
 */
import { z } from "zod";

/** Severity of one diagnostic. Only `error` makes the exit code 1. */
export const Severity = z.enum(["error", "warning", "info", "hint"]);
/** Severity of one diagnostic. */
export type Severity = z.infer<typeof Severity>;

/** A 1-based, inclusive-start span in lines and columns (columns in UTF-16 code units). */
export const Span = z.object({
  start_line: z.number().int().min(1),
  start_col: z.number().int().min(1),
  end_line: z.number().int().min(1),
  end_col: z.number().int().min(1),
});
/** A 1-based span. */
export type Span = z.infer<typeof Span>;

/** One edit of a fix, in UTF-8 byte offsets into the file as read. */
export const FixEdit = z.object({
  start_byte: z.number().int().min(0),
  end_byte: z.number().int().min(0),
  replacement: z.string(),
});
/** One edit of a fix. */
export type FixEdit = z.infer<typeof FixEdit>;

/** One finding of one engine in one file. */
export const Diagnostic = z.object({
  engine: z.string(),
  code: z.string().optional(),
  severity: Severity,
  title: z.string(),
  description: z.string().optional(),
  span: Span.optional(),
  url: z.string().optional(),
  fix: z.array(FixEdit).optional(),
});
/** One finding. */
export type Diagnostic = z.infer<typeof Diagnostic>;

/**
 * One per-file record. A file that was checked and found clean has no record.
 * `skipped` is a decision (no engine for it, a template, too large, a file the
 * engine ignores by its own rules); `error` is poly's own failure (unreadable,
 * engine crash), never empty. A syntax error in the file is one of its `diagnostics`.
 */
export const FileResult = z.object({
  path: z.string(),
  /** Index into the report's `configs`; omitted when 0. */
  config: z.number().int().min(1).optional(),
  diagnostics: z.array(Diagnostic).optional(),
  /** Lint with --fix: number of fixes written to this file. */
  fixed: z.number().int().min(0).optional(),
  /** Format: the file's formatting differs from (check) or was rewritten to (fix) the formatter's output. */
  changed: z.boolean().optional(),
  /** Format: the unified diff of the change (check: the formatter would make; fix: it made), bounded (lib/report/diff.ts). */
  diff: z.string().optional(),
  skipped: z.string().optional(),
  error: z.string().optional(),
});
/** One per-file record. */
export type FileResult = z.infer<typeof FileResult>;

/** A run-level error record (duplicates an errored file record, or names a run-level failure). */
export const RunError = z.object({ path: z.string(), message: z.string() });
/** A run-level error record. */
export type RunError = z.infer<typeof RunError>;

/** A run-level skip record. */
export const RunSkip = z.object({ path: z.string(), reason: z.string() });
/** A run-level skip record. */
export type RunSkip = z.infer<typeof RunSkip>;

/** Counts for the run. They are not a partition of `results`. */
export const Summary = z.object({
  /** Files at least one engine checked without error. */
  checked: z.number().int().min(0),
  skipped: z.number().int().min(0),
  errored: z.number().int().min(0),
  /** Number of diagnostics by severity (lint). */
  diagnostics: z.object({
    error: z.number().int().min(0),
    warning: z.number().int().min(0),
    info: z.number().int().min(0),
    hint: z.number().int().min(0),
  }).optional(),
  /** Fixes written (lint --fix). */
  fixed: z.number().int().min(0).optional(),
  /** Files whose formatting differs (fmt --check) or that were rewritten (fmt --fix). */
  changed: z.number().int().min(0).optional(),
  /** Result-cache hits and misses in this run. */
  cache: z.object({ hits: z.number().int().min(0), misses: z.number().int().min(0) }).optional(),
});
/** Counts for the run. */
export type Summary = z.infer<typeof Summary>;

/** A fingerprint of one configuration that governed the run: `1/<16 hex>`. */
export const ConfigRef = z.object({
  hash: z.string().regex(/^1\/[0-9a-f]{16}$/),
  /** The files this configuration was assembled from, nearest last. */
  sources: z.array(z.string()).optional(),
});
/** A configuration fingerprint. */
export type ConfigRef = z.infer<typeof ConfigRef>;

/** One compiled-in engine: the upstream version it wraps and a SHA-256 digest of its module bytes. */
export const EngineIdentity = z.object({
  version: z.string(),
  digest: z.string(),
});

/** Which binary answered: carried by every report and every MCP result. */
export const Identity = z.object({
  version: z.string(),
  build_id: z.string(),
  channel: z.enum(["release", "dev"]),
  executable: z.string(),
  pid: z.number().int(),
  /** SHA-256 over the sorted engine map: one value that changes when any engine does. */
  engines_digest: z.string(),
  engines: z.record(z.string(), EngineIdentity),
});
/** Which binary answered. */
export type Identity = z.infer<typeof Identity>;

/** The whole-project phase's outcome, when it ran. */
export const WorkspaceOutcome = z.object({
  jobs: z.array(z.object({
    name: z.string(),
    status: z.enum(["passed", "failed", "skipped", "errored", "cancelled"]),
    reason: z.string().optional(),
    duration_ms: z.number().min(0).optional(),
    diagnostics: z.array(Diagnostic.extend({ path: z.string().optional() })).optional(),
    output: z.string().optional(),
    /** Directory the job ran in, relative to the run's cwd ("." for the cwd itself). */
    cwd: z.string().optional(),
    /** The argv the job ran (an inline shell command is `["sh", "-c", LINE]`). */
    command: z.array(z.string()).optional(),
    /** The outcome was reused from the result cache (same inputs, same build). */
    cached: z.boolean().optional(),
  })),
});
/** The whole-project phase's outcome. */
export type WorkspaceOutcome = z.infer<typeof WorkspaceOutcome>;

/** The report document. */
export const Report = z.object({
  kind: z.enum(["lint", "fmt", "workspace"]),
  mode: z.enum(["check", "fix"]),
  results: z.array(FileResult),
  errors: z.array(RunError),
  skipped: z.array(RunSkip),
  summary: Summary,
  configs: z.array(ConfigRef),
  workspace: WorkspaceOutcome.optional(),
  poly: Identity,
});
/** The report document. */
export type Report = z.infer<typeof Report>;
