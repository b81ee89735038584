/**
 * The human encoder: findings grouped under each file's path with a source
 * excerpt and carets under each span, fixable ones marked `[*]`, skipped and
 * errored files named plainly, counts per engine and rule, a closing summary
 * line and how many findings `--fix` would fix (as ruff ends its output).
 *
 * @module
 */
import { type Paint, paint } from "./_ansi.ts";
import { excerpt, sanitize, SourceCache } from "./_excerpt.ts";
import type { Diagnostic, FileResult, Report, RunSkip, WorkspaceOutcome } from "./schema.ts";
import { sortReport } from "./sort.ts";
import { count, type ResultTally, summaryLine, tallyResults } from "./summary.ts";
import { exitCodeFor } from "./exit.ts";

/** Options of the human encoder. */
export interface HumanOptions {
  /** ANSI colour; callers pass what `--color` decided (a terminal, `NO_COLOR` unset, or `FORCE_COLOR`). */
  color: boolean;
  /** The directory report paths are relative to (for reading excerpts). */
  cwd: string;
  /** Counts per rule (`poly lint --statistics`, as `ruff check --statistics`) instead of each finding. */
  statistics?: boolean;
  /** Print at most this many findings (biome's `--max-diagnostics`); the rest are counted, not shown. */
  maxDiagnostics?: number;
}

interface Ctx {
  p: Paint;
  src: SourceCache;
  /** Whether findings are listed (not with `statistics`). */
  list: boolean;
  /** Findings still to print under `maxDiagnostics`. */
  budget: number;
  /** Findings listed, and left out for the cap. */
  hidden: number;
  /** Whether fixable findings are marked (`[*]`): only when `--fix` was not given. */
  markFixable: boolean;
  statistics: boolean;
  maxDiagnostics?: number;
  mode: Report["mode"];
}

/** The marker of a finding `poly lint --fix` can fix (ruff's). */
export const FIXABLE = "[*]";

/**
 * Renders a report for a person. Ends with a newline.
 *
 * Layout: one block per file (its path; then what happened to it: errored,
 * skipped, fixed, would be reformatted; then its findings, `line:col severity
 * code [*] title [engine]` with the source line under each; then its diff), the
 * whole-project jobs, the findings counted per engine and rule, the summary line,
 * and how many findings `--fix` would fix.
 */
export function encodeHuman(report: Report, options: HumanOptions): string {
  const sorted = sortReport(report);
  const human = new HumanReport(options, sorted.mode);
  const blocks = sorted.results.map((r) => human.block(r));
  const end = human.finish(sorted);
  const kept = [...blocks.filter((b) => !(end.summarise && b.skipOnly)), ...end.blocks];
  kept.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return [...kept.map((b) => b.text).filter((s) => s !== ""), ...end.sections].join("\n\n") + "\n";
}

/** One file's block of the human report. */
export interface HumanBlock {
  path: string;
  /** Its lines ("" when it has nothing to say). */
  text: string;
  /** A file that was only skipped: left out when the skips are summarised. */
  skipOnly: boolean;
}

/**
 * The human report made part by part: {@link HumanReport.block} for each result
 * in path order (diagnostics sorted), then {@link HumanReport.finish} with the
 * rest of the report. It keeps counts, not results: what `encodeHuman` prints
 * whole, lib/report/stream.ts writes as the run goes.
 */
export class HumanReport {
  readonly #ctx: Ctx;
  /** Findings per engine and rule (the counts under the blocks). */
  readonly #engines = new Map<string, Map<string, number>>();
  /** `--statistics` rows by engine and rule, in the order their first finding came. */
  readonly #rows = new Map<string, { engine: string; rule: string; n: number; fixable: boolean; title: string }>();
  #found = 0;
  #fixable = 0;
  /** What the summary line counts from the results (see {@link ResultTally}). */
  readonly #tally: ResultTally = tallyResults([]);
  /** Skip-only files per reason: how many, and the first paths. */
  readonly #skips = new Map<string, { n: number; paths: string[] }>();
  #skipCount = 0;
  /** The errors and skips the results said (the report's own lists repeat them). */
  readonly #said = new Set<string>();

  constructor(options: HumanOptions, mode: Report["mode"]) {
    this.#ctx = {
      p: paint(options.color),
      src: new SourceCache(options.cwd),
      list: !options.statistics,
      budget: options.maxDiagnostics ?? Infinity,
      hidden: 0,
      markFixable: mode === "check",
      statistics: options.statistics ?? false,
      maxDiagnostics: options.maxDiagnostics,
      mode,
    };
  }

  /** The block of one result (its diagnostics sorted; results come in path order). */
  block(r: FileResult): HumanBlock {
    if (r.error !== undefined) this.#said.add(`e\0${r.path}\0${r.error}`);
    if (r.skipped !== undefined) this.#said.add(`s\0${r.path}\0${r.skipped}`);
    for (const d of r.diagnostics ?? []) this.#count(d);
    tallyResults([r], this.#tally);
    const skipOnly = r.skipped !== undefined && r.error === undefined && !r.changed && !r.fixed &&
      !r.diagnostics?.length;
    if (skipOnly) this.#skip({ path: r.path, reason: r.skipped! });
    const text = fileBlock(r, this.#ctx).join("\n");
    // Excerpts come from this file alone: its lines are not kept for the next.
    this.#ctx.src.forget(r.path);
    return { path: r.path, text, skipOnly };
  }

  /**
   * The end of the report (`sorted`: the report sorted, results already passed
   * to {@link HumanReport.block} or not at all): whether skip-only blocks are
   * summarised, the blocks of run errors and skips the results did not say (to
   * sort among the others), and the sections after the blocks.
   */
  finish(sorted: Report): { summarise: boolean; blocks: HumanBlock[]; sections: string[] } {
    const ctx = this.#ctx;
    const runSkips = sorted.skipped.filter((s) => !this.#said.has(`s\0${s.path}\0${s.reason}`));
    for (const s of runSkips) this.#skip(s, true);
    const summarise = this.#skipCount > SKIPS_LISTED;
    const blocks: HumanBlock[] = [];
    for (const e of sorted.errors) {
      if (!this.#said.has(`e\0${e.path}\0${e.message}`)) {
        blocks.push({ path: e.path, text: status(e.path, ctx.p.red("error:"), e.message), skipOnly: false });
      }
    }
    if (!summarise) {
      for (const s of runSkips) {
        blocks.push({ path: s.path, text: status(s.path, ctx.p.yellow("skipped:"), s.reason), skipOnly: false });
      }
    }
    const sections: string[] = [];
    if (summarise) sections.push(skipSummary(this.#skipCount, this.#skips, ctx).join("\n"));
    if (sorted.workspace && sorted.workspace.jobs.length > 0) {
      for (const job of sorted.workspace.jobs) for (const d of job.diagnostics ?? []) this.#count(d);
      sections.push(workspaceBlock(sorted.workspace, ctx).join("\n"));
    }
    if (ctx.statistics) {
      if (this.#found > 0) sections.push(statisticsTable([...this.#rows.values()], ctx).join("\n"));
    } else {
      const tail: string[] = [];
      if (ctx.hidden > 0) {
        tail.push(ctx.p.yellow(
          `${
            count(ctx.hidden, "finding")
          } not shown (--max-diagnostics ${ctx.maxDiagnostics}); --statistics counts every one per rule`,
        ));
      }
      if (this.#found > 0) tail.push(...engineCounts(this.#engines, ctx));
      if (tail.length > 0) sections.push(tail.join("\n"));
    }
    const code = exitCodeFor(sorted);
    const tone = code === 0 ? ctx.p.green : code === 2 ? ctx.p.red : ctx.p.yellow;
    const closing = [ctx.p.bold(tone(summaryLine(sorted, this.#tally)))];
    if (this.#fixable > 0) closing.push(`${ctx.p.cyan(FIXABLE)} ${this.#fixable} fixable with --fix`);
    sections.push(closing.join("\n"));
    return { summarise, blocks, sections };
  }

  #count(d: Diagnostic): void {
    this.#found++;
    if (this.#ctx.markFixable && isFixable(d)) this.#fixable++;
    const rules = this.#engines.get(d.engine) ?? new Map<string, number>();
    rules.set(ruleOf(d), (rules.get(ruleOf(d)) ?? 0) + 1);
    this.#engines.set(d.engine, rules);
    const key = `${d.engine}\0${ruleOf(d)}`;
    const row = this.#rows.get(key) ??
      { engine: d.engine, rule: ruleOf(d), n: 0, fixable: false, title: d.title.replace(/ \[[^\]]*\]$/, "") };
    row.n++;
    row.fixable ||= isFixable(d);
    this.#rows.set(key, row);
  }

  /** Notes one skip-only file (`late`: a run skip after the results: its path may sort before theirs). */
  #skip(s: RunSkip, late = false): void {
    this.#skipCount++;
    const group = this.#skips.get(s.reason) ?? { n: 0, paths: [] };
    group.n++;
    group.paths.push(s.path);
    if (late) group.paths.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    // More than three are shown as "…": a fourth path says there are more.
    if (group.paths.length > 4) group.paths.length = 4;
    this.#skips.set(s.reason, group);
  }
}

/** Skipped files listed one per line up to this many; more are summarised per reason. */
export const SKIPS_LISTED = 10;

/** `skipped 229 files:` then one line per reason: its count and the first three paths. */
function skipSummary(total: number, byReason: Map<string, { n: number; paths: string[] }>, ctx: Ctx): string[] {
  const groups = [...byReason].sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1));
  return [
    `${ctx.p.yellow("skipped")} ${count(total, "file")} (--format json lists each):`,
    ...groups.map(([reason, { n, paths }]) => {
      const shown = paths.slice(0, 3).map(sanitize).join(", ") + (n > 3 ? ", …" : "");
      return `  ${sanitize(reason)}: ${count(n, "file")} (${shown})`;
    }),
  ];
}

/** Whether `poly lint --fix` applies a fix of this finding (the engine attached its edits). */
export function isFixable(d: Diagnostic): boolean {
  return (d.fix?.length ?? 0) > 0;
}

function ruleOf(d: Diagnostic): string {
  return d.code ?? "(no code)";
}

/** One line per engine: `  ruff  12  F401 7, E711 5` (its five commonest rules, then how many more). */
function engineCounts(engines: Map<string, Map<string, number>>, ctx: Ctx): string[] {
  const rows = [...engines].map(([engine, rules]) => {
    const total = [...rules.values()].reduce((a, b) => a + b, 0);
    const top = [...rules].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const shown = top.slice(0, 5).map(([rule, n]) => `${sanitize(rule)} ${n}`);
    if (top.length > 5) shown.push(`${top.length - 5} more rules (--statistics)`);
    return { engine: sanitize(engine), total, text: shown.join(", ") };
  }).sort((a, b) => b.total - a.total || (a.engine < b.engine ? -1 : a.engine > b.engine ? 1 : 0));
  const ew = Math.max(...rows.map((r) => r.engine.length));
  const nw = Math.max(...rows.map((r) => String(r.total).length));
  return rows.map((r) => `  ${ctx.p.bold(r.engine.padEnd(ew))}  ${String(r.total).padStart(nw)}  ${r.text}`);
}

/**
 * `--statistics`: one row per engine and rule, commonest first, as ruff's:
 * `count  rule  [*]  engine  title` (the title of its first finding, without detail).
 */
function statisticsTable(
  rows: { engine: string; rule: string; n: number; fixable: boolean; title: string }[],
  ctx: Ctx,
): string[] {
  const list = [...rows].sort((a, b) =>
    b.n - a.n || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : a.engine < b.engine ? -1 : 1)
  );
  const nw = Math.max(...list.map((r) => String(r.n).length));
  const rw = Math.max(...list.map((r) => sanitize(r.rule).length));
  const ew = Math.max(...list.map((r) => sanitize(r.engine).length));
  return list.map((r) => {
    const mark = ctx.markFixable && r.fixable ? ctx.p.cyan(FIXABLE) : " ".repeat(FIXABLE.length);
    const engine = ctx.p.dim(sanitize(r.engine).padEnd(ew));
    return `${String(r.n).padStart(nw)}  ${ctx.p.bold(sanitize(r.rule).padEnd(rw))}  ${mark}  ${engine}  ${
      sanitize(r.title)
    }`.trimEnd();
  });
}

function status(path: string, label: string, text: string): string {
  return `${path ? `${sanitize(path)}  ` : ""}${label} ${sanitize(text)}`;
}

/**
 * One file's block: its status lines (`path  error: ...`, `path  would be
 * reformatted`), its findings under its path, then its diff. Each part is its own
 * run of lines, so another section (a diff) can be added per file.
 */
function fileBlock(r: FileResult, ctx: Ctx): string[] {
  const { p } = ctx;
  const path = p.bold(sanitize(r.path));
  const lines: string[] = [];
  if (r.error !== undefined) lines.push(`${path}  ${p.red("error:")} ${sanitize(r.error)}`);
  if (r.skipped !== undefined) lines.push(`${path}  ${p.yellow("skipped:")} ${sanitize(r.skipped)}`);
  if ((r.fixed ?? 0) > 0) lines.push(`${path}  ${p.green(`fixed ${count(r.fixed!, "issue")}`)}`);
  if (r.changed) {
    lines.push(`${path}  ${ctx.mode === "check" ? p.yellow("would be reformatted") : p.green("reformatted")}`);
  }
  const findings = findingLines(r.path, r.diagnostics ?? [], ctx);
  if (findings.length > 0 && lines.length === 0) lines.push(path);
  lines.push(...findings);
  if (r.changed && r.diff) lines.push(...diff(r.diff, p));
  return lines;
}

/** A file's findings, grouped under its path: `  line:col  severity  code [*]  title  [engine]` and the excerpt. */
function findingLines(path: string, diagnostics: Diagnostic[], ctx: Ctx): string[] {
  if (!ctx.list) return [];
  const shown = diagnostics.slice(0, Math.max(0, ctx.budget));
  ctx.hidden += diagnostics.length - shown.length;
  ctx.budget -= shown.length;
  const where = (d: Diagnostic) => (d.span ? `${d.span.start_line}:${d.span.start_col}` : "");
  const width = Math.max(0, ...shown.map((d) => where(d).length));
  return shown.flatMap((d) => {
    const { p } = ctx;
    const sev = p.severity(d.severity)(d.severity.padEnd(7));
    const mark = ctx.markFixable && isFixable(d) ? ` ${p.cyan(FIXABLE)}` : "";
    const code = d.code ? `${p.bold(sanitize(d.code))}${mark}  ` : mark ? `${mark.trimStart()}  ` : "";
    const lines = [
      `  ${where(d).padEnd(width)}  ${sev}  ${code}${sanitize(d.title)}  ${p.dim(`[${sanitize(d.engine)}]`)}`,
    ];
    if (d.span && path) {
      const source = ctx.src.line(path, d.span.start_line);
      if (source !== undefined) lines.push(...excerpt(source, d.span, p, p.severity(d.severity)).map((l) => `  ${l}`));
    }
    return lines;
  });
}

/** `path:line:col  severity  code  title  [engine]`, then the excerpt when the file can be read. */
function diagnostic(path: string, d: Diagnostic, ctx: Ctx): string[] {
  const { p } = ctx;
  const where = d.span ? `${path}:${d.span.start_line}:${d.span.start_col}` : path;
  const sev = p.severity(d.severity)(d.severity.padEnd(7));
  const mark = ctx.markFixable && isFixable(d) ? ` ${p.cyan(FIXABLE)}` : "";
  const code = d.code ? `${p.bold(sanitize(d.code))}${mark}  ` : "";
  const lines = [
    `${p.bold(sanitize(where))}  ${sev}  ${code}${sanitize(d.title)}  ${p.dim(`[${sanitize(d.engine)}]`)}`,
  ];
  if (d.span && path) {
    const source = ctx.src.line(path, d.span.start_line);
    if (source !== undefined) lines.push(...excerpt(source, d.span, p, p.severity(d.severity)));
  }
  return lines;
}

function diff(text: string, p: Paint): string[] {
  return text.replace(/\n$/, "").split("\n").map((line) => {
    const safe = sanitize(line);
    if (line.startsWith("+++") || line.startsWith("---")) return p.bold(safe);
    if (line.startsWith("+")) return p.green(safe);
    if (line.startsWith("-")) return p.red(safe);
    if (line.startsWith("@@")) return p.cyan(safe);
    return safe;
  });
}

function duration(ms: number | undefined): string {
  if (ms === undefined) return "";
  return ms < 1000 ? ` (${Math.round(ms)} ms)` : ` (${(ms / 1000).toFixed(1)} s)`;
}

function workspaceBlock(workspace: WorkspaceOutcome, ctx: Ctx): string[] {
  const { p } = ctx;
  const tones = { passed: p.green, failed: p.red, errored: p.red, cancelled: p.yellow, skipped: p.yellow };
  const lines: string[] = [];
  for (const job of workspace.jobs) {
    const reason = job.reason ? `: ${sanitize(job.reason)}` : "";
    const where = job.cwd && job.cwd !== "." ? ` in ${sanitize(job.cwd)}` : "";
    const cached = job.cached ? p.dim(" [cached]") : "";
    const head = `${p.bold("workspace")}  ${p.bold(sanitize(job.name))}${where}  ${tones[job.status](job.status)}`;
    lines.push(`${head}${duration(job.duration_ms)}${cached}${reason}`);
    const all = ctx.list ? job.diagnostics ?? [] : [];
    const shown = all.slice(0, Math.max(0, ctx.budget));
    ctx.hidden += all.length - shown.length;
    ctx.budget -= shown.length;
    for (const d of shown) {
      lines.push(...diagnostic(d.path ?? "", d, ctx).map((l) => (d.path ? l : l.trimStart())));
    }
    if (job.output && !job.diagnostics?.length && (job.status === "failed" || job.status === "errored")) {
      const tail = job.output.replace(/\n$/, "").split("\n").slice(-20);
      lines.push(...tail.map((l) => `    ${sanitize(l)}`));
    }
  }
  return lines;
}
