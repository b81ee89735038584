/**
 * Turns the machine-readable output of the built-in whole-project tools into
 * poly diagnostics: cargo clippy's JSON messages, `go vet -json`, cargo-deny's
 * JSON lines, and the text of cargo-machete and cargo-sort.
 *
 * @module
 */
import { isAbsolute, join, relative, sep } from "node:path";
import type { Diagnostic, Severity } from "../report/schema.ts";

/** A diagnostic of the whole-project phase: it may name a file (relative to the phase's cwd). */
export type JobDiagnostic = Diagnostic & { path?: string };

/** Makes `file` (absolute, or relative to `base`) relative to `cwd` with `/` separators. */
export function displayPath(cwd: string, base: string, file: string): string {
  const abs = isAbsolute(file) ? file : join(base, file);
  const rel = relative(cwd, abs);
  return (rel === "" ? "." : rel).split(sep).join("/");
}

interface ClippySpan {
  file_name: string;
  line_start: number;
  column_start: number;
  line_end: number;
  column_end: number;
  is_primary: boolean;
  byte_start: number;
  byte_end: number;
  suggested_replacement?: string | null;
  suggestion_applicability?: string | null;
}

interface ClippyMessage {
  message: string;
  level: string;
  code?: { code: string } | null;
  spans: ClippySpan[];
  children?: ClippyMessage[];
}

const RUSTC_LEVEL: Record<string, Severity> = {
  "error": "error",
  "error: internal compiler error": "error",
  "warning": "warning",
  "note": "info",
  "help": "hint",
  "failure-note": "info",
};

/**
 * Parses `cargo clippy --message-format=json` output. `workspaceDir` is where
 * cargo ran (span file names are relative to it). Duplicates (the same finding
 * reported for a crate's lib and test targets) are dropped.
 */
export function parseClippy(stdout: string, workspaceDir: string, cwd: string): JobDiagnostic[] {
  const out: JobDiagnostic[] = [];
  const seen = new Set<string>();
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    let record: { reason?: string; message?: ClippyMessage };
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    if (record.reason !== "compiler-message" || !record.message) continue;
    const msg = record.message;
    if (/^aborting due to|^could not compile/.test(msg.message)) continue;
    const primary = msg.spans.find((s) => s.is_primary) ?? msg.spans[0];
    const code = msg.code?.code;
    const diagnostic: JobDiagnostic = {
      engine: "clippy",
      severity: RUSTC_LEVEL[msg.level] ?? "warning",
      title: msg.message,
      ...(code ? { code } : {}),
      ...(code?.startsWith("clippy::")
        ? { url: `https://rust-lang.github.io/rust-clippy/master/index.html#${code.slice("clippy::".length)}` }
        : /^E\d{4}$/.test(code ?? "")
        ? { url: `https://doc.rust-lang.org/error_codes/${code}.html` }
        : {}),
    };
    if (primary) {
      diagnostic.path = displayPath(cwd, workspaceDir, primary.file_name);
      diagnostic.span = {
        start_line: Math.max(1, primary.line_start),
        start_col: Math.max(1, primary.column_start),
        end_line: Math.max(1, primary.line_end),
        end_col: Math.max(1, primary.column_end),
      };
    }
    const notes = (msg.children ?? []).filter((c) =>
      c.message && !c.message.startsWith("for further information visit")
    ).map((c) => `${c.level}: ${c.message}`);
    if (notes.length > 0) diagnostic.description = notes.join("\n");
    const fix = machineFix(msg, primary?.file_name);
    if (fix) diagnostic.fix = fix;
    const key = JSON.stringify([diagnostic.path, diagnostic.span, diagnostic.code, diagnostic.title]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(diagnostic);
  }
  return out;
}

/** The machine-applicable suggestion of a clippy message, as byte edits in the primary file. */
function machineFix(msg: ClippyMessage, file: string | undefined): JobDiagnostic["fix"] {
  const edits = [];
  for (const child of msg.children ?? []) {
    for (const span of child.spans) {
      if (span.suggestion_applicability !== "MachineApplicable") continue;
      if (span.suggested_replacement === null || span.suggested_replacement === undefined) continue;
      if (span.file_name !== file) continue;
      edits.push({ start_byte: span.byte_start, end_byte: span.byte_end, replacement: span.suggested_replacement });
    }
  }
  return edits.length > 0 ? edits : undefined;
}

/** Whether clippy's JSON says the build finished successfully (`build-finished`). */
export function clippyBuildSucceeded(stdout: string): boolean | undefined {
  for (const line of stdout.split("\n").reverse()) {
    if (!line.includes('"build-finished"')) continue;
    try {
      const record = JSON.parse(line) as { reason?: string; success?: boolean };
      if (record.reason === "build-finished") return record.success === true;
    } catch {
      // keep looking
    }
  }
  return undefined;
}

/**
 * Parses `go vet -json` output (on stderr: `# package` lines, then one JSON
 * object per package mapping analyzer → findings with `posn` "file:line:col").
 */
export function parseGoVet(stderr: string, moduleDir: string, cwd: string): JobDiagnostic[] {
  const out: JobDiagnostic[] = [];
  for (const object of jsonObjects(stderr)) {
    for (const analyzers of Object.values(object as Record<string, Record<string, unknown>>)) {
      if (!analyzers || typeof analyzers !== "object") continue;
      for (const [analyzer, findings] of Object.entries(analyzers)) {
        if (!Array.isArray(findings)) {
          // {"error": "..."}: a package vet could not analyse.
          const error = (findings as { error?: string } | null)?.error;
          if (error) out.push({ engine: "go-vet", severity: "error", title: error, code: analyzer });
          continue;
        }
        for (const finding of findings as { posn?: string; message?: string }[]) {
          const position = /^(.*):(\d+):(\d+)$/.exec(finding.posn ?? "");
          const diagnostic: JobDiagnostic = {
            engine: "go-vet",
            code: analyzer,
            severity: "error",
            title: finding.message ?? analyzer,
            url: `https://pkg.go.dev/golang.org/x/tools/go/analysis/passes/${analyzer}`,
          };
          if (position) {
            const line = Number(position[2]);
            const col = Number(position[3]);
            diagnostic.path = displayPath(cwd, moduleDir, position[1]);
            diagnostic.span = { start_line: line, start_col: col, end_line: line, end_col: col };
          }
          out.push(diagnostic);
        }
      }
    }
  }
  return out;
}

/** Every top-level JSON object in `text` (other lines are ignored). */
export function jsonObjects(text: string): unknown[] {
  const out: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (depth === 0 && c !== "{") continue;
    if (c === '"') inString = true;
    else if (c === "{") {
      if (depth === 0) start = i;
      depth++;
    } else if (c === "}") {
      depth--;
      if (depth === 0) {
        try {
          out.push(JSON.parse(text.slice(start, i + 1)));
        } catch {
          // not JSON after all
        }
      }
    }
  }
  return out;
}

/** Parses `cargo deny --format json check` (JSON lines on stderr, `type: "diagnostic"`). */
export function parseCargoDeny(stderr: string, projectDir: string, cwd: string): JobDiagnostic[] {
  const out: JobDiagnostic[] = [];
  for (const line of stderr.split("\n")) {
    if (!line.startsWith("{")) continue;
    let record: {
      type?: string;
      fields?: {
        severity?: string;
        message?: string;
        code?: string;
        notes?: string[];
        labels?: { message?: string; line?: number; column?: number; span?: string }[];
      };
    };
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    if (record.type !== "diagnostic" || !record.fields) continue;
    const f = record.fields;
    const severity: Severity = f.severity === "error"
      ? "error"
      : f.severity === "warning"
      ? "warning"
      : f.severity === "help"
      ? "hint"
      : "info";
    const diagnostic: JobDiagnostic = { engine: "cargo-deny", severity, title: f.message ?? "cargo-deny finding" };
    if (f.code) diagnostic.code = f.code;
    const details = [...(f.labels ?? []).map((l) => l.message).filter(Boolean), ...(f.notes ?? [])];
    if (details.length > 0) diagnostic.description = details.join("\n");
    const label = f.labels?.find((l) => typeof l.line === "number" && l.line > 0);
    if (label) {
      diagnostic.path = displayPath(cwd, projectDir, "Cargo.lock");
      diagnostic.span = {
        start_line: label.line!,
        start_col: Math.max(1, label.column ?? 1),
        end_line: label.line!,
        end_col: Math.max(1, label.column ?? 1),
      };
    }
    out.push(diagnostic);
  }
  return out;
}

/**
 * Parses cargo-machete's report:
 * `crate -- /path/Cargo.toml:` followed by tab-indented unused dependency names.
 */
export function parseMachete(stdout: string, projectDir: string, cwd: string): JobDiagnostic[] {
  const out: JobDiagnostic[] = [];
  let crate: { name: string; manifest: string } | undefined;
  for (const line of stdout.split("\n")) {
    const header = /^(\S+) -- (.*Cargo\.toml):\s*$/.exec(line);
    if (header) {
      crate = { name: header[1], manifest: header[2] };
      continue;
    }
    const dep = /^\s+(\S+)\s*$/.exec(line);
    if (dep && crate && line.startsWith("\t")) {
      out.push({
        engine: "cargo-machete",
        code: "unused-dependency",
        severity: "warning",
        title: `Unused dependency "${dep[1]}" in crate "${crate.name}"`,
        path: displayPath(cwd, projectDir, crate.manifest),
      });
    } else if (line.trim() === "") {
      crate = undefined;
    }
  }
  return out;
}

/**
 * Parses cargo-sort's `--check` output: one finding per crate it reports as
 * `error: Dependencies for <crate folder> are not sorted`.
 */
export function parseCargoSort(text: string): JobDiagnostic[] {
  const out: JobDiagnostic[] = [];
  for (const line of text.split("\n")) {
    const hit = /Dependencies for (.+?) are not sorted/.exec(line);
    if (!hit) continue;
    out.push({
      engine: "cargo-sort",
      code: "unsorted",
      severity: "warning",
      title: `Dependencies for "${hit[1]}" are not sorted: poly lint --fix runs cargo sort`,
    });
  }
  return out;
}
