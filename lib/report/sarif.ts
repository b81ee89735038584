/**
 * SARIF 2.1.0: one run whose tool is poly, one rule per engine code, one result
 * per diagnostic; errored files (and skips) are tool execution notifications.
 *
 * @module
 */
import { isAbsolute } from "node:path";
import { pathToFileURL } from "node:url";
import type { Diagnostic, Report, Severity } from "./schema.ts";
import { exitCodeFor } from "./exit.ts";
import { sortReport } from "./sort.ts";

/** Where SARIF's schema lives (the OASIS copy GitHub code scanning accepts). */
export const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

/** Options of the SARIF encoder. */
export interface SarifOptions {
  /** Root that relative artifact URIs resolve against (`%SRCROOT%`). */
  cwd: string;
}

const LEVEL: Record<Severity, "error" | "warning" | "note"> = {
  error: "error",
  warning: "warning",
  info: "note",
  hint: "note",
};

/** The rule id of a diagnostic: `engine/code`, or the engine alone without a code. */
export function ruleId(d: Pick<Diagnostic, "engine" | "code">): string {
  return d.code ? `${d.engine}/${d.code}` : d.engine;
}

/** An artifact location: relative paths against `%SRCROOT%`, absolute ones as file URLs. */
function artifact(path: string): Record<string, string> {
  if (isAbsolute(path)) return { uri: pathToFileURL(path).href };
  return { uri: path.split("/").map(encodeURIComponent).join("/"), uriBaseId: "%SRCROOT%" };
}

function location(path: string, d?: Diagnostic): Record<string, unknown> {
  const physical: Record<string, unknown> = { artifactLocation: artifact(path) };
  if (d?.span) {
    physical.region = {
      startLine: d.span.start_line,
      startColumn: d.span.start_col,
      endLine: d.span.end_line,
      endColumn: d.span.end_col,
    };
  }
  return { physicalLocation: physical };
}

/** Renders a report as a SARIF 2.1.0 log (pretty-printed JSON, final newline). */
export function encodeSarif(report: Report, options: SarifOptions): string {
  const sorted = sortReport(report);
  const rules = new Map<string, { id: string; helpUri?: string; properties: { engine: string } }>();
  const found: { path: string; d: Diagnostic }[] = [];
  for (const r of sorted.results) for (const d of r.diagnostics ?? []) found.push({ path: r.path, d });
  // A result without a location is rejected by some consumers (GitHub code scanning):
  // workspace findings without a file become notifications instead.
  const unplaced: Diagnostic[] = [];
  for (const job of sorted.workspace?.jobs ?? []) {
    for (const d of job.diagnostics ?? []) d.path ? found.push({ path: d.path, d }) : unplaced.push(d);
  }
  for (const { d } of found) {
    const id = ruleId(d);
    const rule = rules.get(id) ?? { id, properties: { engine: d.engine } };
    if (d.url && !rule.helpUri) rule.helpUri = d.url;
    rules.set(id, rule);
  }
  const drift = sorted.kind === "fmt" && sorted.mode === "check" && sorted.results.some((r) => r.changed);
  if (drift) rules.set("poly/format", { id: "poly/format", properties: { engine: "poly" } });
  const ruleList = [...rules.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const index = new Map(ruleList.map((r, i) => [r.id, i]));

  const results: Record<string, unknown>[] = found.map(({ path, d }) => ({
    ruleId: ruleId(d),
    ruleIndex: index.get(ruleId(d)),
    level: LEVEL[d.severity],
    message: { text: d.description ? `${d.title}\n\n${d.description}` : d.title },
    locations: [location(path, d)],
  }));
  if (drift) {
    for (const r of sorted.results.filter((r) => r.changed)) {
      results.push({
        ruleId: "poly/format",
        ruleIndex: index.get("poly/format"),
        level: "error",
        message: { text: "The file is not formatted: run `poly fmt --fix` to rewrite it." },
        locations: [location(r.path)],
      });
    }
  }

  const notifications: Record<string, unknown>[] = [];
  for (const e of sorted.errors) {
    notifications.push({
      level: "error",
      message: { text: `poly could not process this file: ${e.message}` },
      ...(e.path ? { locations: [location(e.path)] } : {}),
    });
  }
  for (const s of sorted.skipped) {
    notifications.push({ level: "note", message: { text: `skipped: ${s.reason}` }, locations: [location(s.path)] });
  }
  for (const d of unplaced) {
    notifications.push({ level: LEVEL[d.severity], message: { text: `${ruleId(d)}: ${d.title}` } });
  }
  for (const job of sorted.workspace?.jobs ?? []) {
    if (job.status === "errored" || job.status === "skipped" || job.status === "cancelled") {
      const level = job.status === "skipped" ? "note" : "error";
      notifications.push({
        level,
        message: { text: `workspace job "${job.name}" ${job.status}${job.reason ? `: ${job.reason}` : ""}` },
      });
    }
  }

  const code = exitCodeFor(sorted);
  const log = {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [{
      tool: {
        driver: {
          name: "poly",
          version: sorted.poly.version,
          semanticVersion: /^\d+\.\d+\.\d+/.test(sorted.poly.version) ? sorted.poly.version : undefined,
          rules: ruleList,
        },
      },
      invocations: [{
        executionSuccessful: code !== 2,
        exitCode: code,
        toolExecutionNotifications: notifications,
      }],
      originalUriBaseIds: {
        "%SRCROOT%": { uri: pathToFileURL(options.cwd.endsWith("/") ? options.cwd : `${options.cwd}/`).href },
      },
      results,
      properties: {
        kind: sorted.kind,
        mode: sorted.mode,
        summary: sorted.summary,
        configs: sorted.configs,
        poly: sorted.poly,
      },
    }],
  };
  return JSON.stringify(log, null, 2) + "\n";
}
