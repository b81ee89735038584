/**
 * SARIF 2.1.0: one run whose tool is poly, one rule per engine code (with the
 * name, descriptions, help and help URI SARIF consumers show; SARIF2012), one
 * result per diagnostic; errored files and skips are tool execution notifications.
 *
 * @module
 */
import { isAbsolute, pathToFileURL } from "../paths/path.ts";
import type { Diagnostic, FileResult, Report, Severity } from "./schema.ts";
import { exitCodeFor } from "./exit.ts";
import { sortReport } from "./sort.ts";
import { ruleHelpUri, ruleName, ruleSummary } from "./_rule_docs.ts";

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

/** One SARIF `reportingDescriptor`: what a rule is, in the words SARIF consumers show. */
interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown?: string };
  helpUri?: string;
  properties: { engine: string };
}

/** A sentence: ends with a full stop. */
function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/**
 * A rule described from its first finding: its friendly name, the finding's title
 * without the instance's detail (`Line length [Expected: 80; Actual: 120]` →
 * `Line length.`) as the short description, its description as the full one, and
 * its documentation page ({@link ruleHelpUri}) as help.
 */
function describeRule(d: Diagnostic): SarifRule {
  const title = sentence(d.title.replace(/\s*\[[^\]]*\]$/, "") || ruleId(d));
  const summary = ruleSummary(d);
  const short = summary ? sentence(summary) : title;
  const full = [summary ? `${short} For example: ${title}` : short, d.description ? sentence(d.description) : ""];
  return {
    id: ruleId(d),
    name: ruleName(d),
    shortDescription: { text: short },
    fullDescription: { text: full.filter(Boolean).join(" ") },
    ...helpFor(d, short),
    properties: { engine: d.engine },
  };
}

function helpFor(d: Diagnostic, short: string): Pick<SarifRule, "help" | "helpUri"> {
  const uri = ruleHelpUri(d);
  const label = d.code ? `${d.engine} ${d.code}` : d.engine;
  if (!uri) return { help: { text: `${short} Reported by ${label}.` } };
  return {
    help: { text: `${short} Documentation: ${uri}`, markdown: `${short} See [${label}](${uri}).` },
    helpUri: uri,
  };
}

/** The rule of a file whose formatting differs (`poly fmt --check`). */
const FORMAT_RULE: SarifRule = {
  id: "poly/format",
  name: "Format",
  shortDescription: { text: "The file is not formatted as poly fmt formats it." },
  fullDescription: {
    text: "The file's formatting differs from its language formatter's output under the repository's poly.toml.",
  },
  help: { text: "Run `poly fmt --fix` to rewrite the file, or `poly fmt` to see the difference." },
  properties: { engine: "poly" },
};

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
  const sarif = new SarifReport(sorted.kind, sorted.mode);
  const results: Record<string, unknown>[] = [];
  for (const r of sorted.results) results.push(...sarif.add(r));
  const { head, tail, index, extra } = sarif.finish(sorted, options);
  const rendered = [...results, ...extra].map((x) => JSON.stringify(withRuleIndex(x, index), null, 2));
  return rendered.length === 0
    ? `${head}]${tail}`
    : `${head}\n        ${rendered.map((x) => x.replaceAll("\n", "\n        ")).join(",\n        ")}\n      ]${tail}`;
}

/** A result as {@link SarifReport.add} gives it: its rule index is filled in once every rule is known. */
export function withRuleIndex(result: Record<string, unknown>, index: Map<string, number>): Record<string, unknown> {
  const { ruleId, level, message, locations } = result;
  return { ruleId, ruleIndex: index.get(ruleId as string), level, message, locations };
}

/**
 * The SARIF log made part by part: {@link SarifReport.add} for each result in
 * path order (diagnostics sorted) gives its SARIF results (without their rule
 * index: the rules are sorted by id once all are known), and
 * {@link SarifReport.finish} the document around them. It keeps the rules, not
 * the results: lib/report/stream.ts keeps those aside until the end.
 */
export class SarifReport {
  readonly #rules = new Map<string, SarifRule>();
  #drift = false;
  readonly #changed: string[] = [];

  constructor(readonly kind: Report["kind"], readonly mode: Report["mode"]) {}

  /** The SARIF results of one file's result (rule indexes left out). */
  add(r: FileResult): Record<string, unknown>[] {
    const out = (r.diagnostics ?? []).map((d) => this.#result(r.path, d));
    if (this.kind === "fmt" && this.mode === "check" && r.changed) {
      this.#drift = true;
      this.#changed.push(r.path);
    }
    return out;
  }

  #result(path: string, d: Diagnostic): Record<string, unknown> {
    const id = ruleId(d);
    const rule = this.#rules.get(id) ?? describeRule(d);
    if (!rule.helpUri && ruleHelpUri(d)) Object.assign(rule, helpFor(d, rule.shortDescription.text));
    this.#rules.set(id, rule);
    return {
      ruleId: id,
      level: LEVEL[d.severity],
      message: { text: d.description ? `${d.title}\n\n${d.description}` : d.title },
      locations: [location(path, d)],
    };
  }

  /**
   * The log around the results (`sorted`: the report sorted): `head` ends with
   * `"results": [`, `tail` follows the closing `]`; `index` gives each rule's
   * index; `extra` are the results after the files' (whole-project findings,
   * formatting drift).
   */
  finish(
    sorted: Report,
    options: SarifOptions,
  ): { head: string; tail: string; index: Map<string, number>; extra: Record<string, unknown>[] } {
    // A result without a location is rejected by some consumers (GitHub code scanning):
    // workspace findings without a file become notifications instead.
    const unplaced: Diagnostic[] = [];
    const extra: Record<string, unknown>[] = [];
    for (const job of sorted.workspace?.jobs ?? []) {
      for (const d of job.diagnostics ?? []) d.path ? extra.push(this.#result(d.path, d)) : unplaced.push(d);
    }
    if (this.#drift) this.#rules.set("poly/format", FORMAT_RULE);
    const ruleList = [...this.#rules.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const index = new Map(ruleList.map((r, i) => [r.id, i]));
    for (const path of this.#changed) {
      extra.push({
        ruleId: "poly/format",
        level: "error",
        message: { text: "The file is not formatted: run `poly fmt --fix` to rewrite it." },
        locations: [location(path)],
      });
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
        results: [],
        properties: {
          kind: sorted.kind,
          mode: sorted.mode,
          summary: sorted.summary,
          configs: sorted.configs,
          poly: sorted.poly,
        },
      }],
    };
    const whole = JSON.stringify(log, null, 2) + "\n";
    const marker = '\n      "results": [';
    const at = whole.indexOf(marker + "]");
    return { head: whole.slice(0, at + marker.length), tail: whole.slice(at + marker.length + 1), index, extra };
  }
}
