/**
 * The human encoder: grouped per file, a source excerpt with carets under each
 * span, skipped and errored files named plainly, a closing summary line.
 *
 * @module
 */
import { type Paint, paint } from "./_ansi.ts";
import { excerpt, sanitize, SourceCache } from "./_excerpt.ts";
import type { Diagnostic, FileResult, Report, WorkspaceOutcome } from "./schema.ts";
import { sortReport } from "./sort.ts";
import { count, summaryLine } from "./summary.ts";
import { exitCodeFor } from "./exit.ts";

/** Options of the human encoder. */
export interface HumanOptions {
  /** ANSI colour; callers pass true only on a terminal with NO_COLOR unset. */
  color: boolean;
  /** The directory report paths are relative to (for reading excerpts). */
  cwd: string;
}

interface Ctx {
  p: Paint;
  src: SourceCache;
}

/** Renders a report for a person. Ends with a newline. */
export function encodeHuman(report: Report, options: HumanOptions): string {
  const sorted = sortReport(report);
  const ctx: Ctx = { p: paint(options.color), src: new SourceCache(options.cwd) };
  const blocks: { path: string; lines: string[] }[] = sorted.results.map((r) => ({
    path: r.path,
    lines: fileBlock(r, sorted, ctx),
  }));
  const said = new Set(sorted.results.flatMap((r) => [`e\0${r.path}\0${r.error}`, `s\0${r.path}\0${r.skipped}`]));
  for (const e of sorted.errors) {
    if (!said.has(`e\0${e.path}\0${e.message}`)) {
      blocks.push({ path: e.path, lines: [status(e.path, ctx.p.red("error:"), e.message)] });
    }
  }
  for (const s of sorted.skipped) {
    if (!said.has(`s\0${s.path}\0${s.reason}`)) {
      blocks.push({ path: s.path, lines: [status(s.path, ctx.p.yellow("skipped:"), s.reason)] });
    }
  }
  blocks.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const sections = blocks.map((b) => b.lines.join("\n")).filter((s) => s !== "");
  if (sorted.workspace && sorted.workspace.jobs.length > 0) {
    sections.push(workspaceBlock(sorted.workspace, ctx).join("\n"));
  }
  const code = exitCodeFor(sorted);
  const tone = code === 0 ? ctx.p.green : code === 2 ? ctx.p.red : ctx.p.yellow;
  sections.push(ctx.p.bold(tone(summaryLine(sorted))));
  return sections.join("\n\n") + "\n";
}

function status(path: string, label: string, text: string): string {
  return `${path ? `${sanitize(path)}  ` : ""}${label} ${sanitize(text)}`;
}

function fileBlock(r: FileResult, report: Report, ctx: Ctx): string[] {
  const { p } = ctx;
  const path = p.bold(sanitize(r.path));
  const lines: string[] = [];
  if (r.error !== undefined) lines.push(`${path}  ${p.red("error:")} ${sanitize(r.error)}`);
  if (r.skipped !== undefined) lines.push(`${path}  ${p.yellow("skipped:")} ${sanitize(r.skipped)}`);
  if ((r.fixed ?? 0) > 0) lines.push(`${path}  ${p.green(`fixed ${count(r.fixed!, "issue")}`)}`);
  if (r.changed) {
    lines.push(`${path}  ${report.mode === "check" ? p.yellow("would be reformatted") : p.green("reformatted")}`);
  }
  for (const d of r.diagnostics ?? []) lines.push(...diagnostic(r.path, d, ctx));
  if (r.changed && r.diff) lines.push(...diff(r.diff, p));
  return lines;
}

/** `path:line:col  severity  code  title  [engine]`, then the excerpt when the file can be read. */
function diagnostic(path: string, d: Diagnostic, ctx: Ctx): string[] {
  const { p } = ctx;
  const where = d.span ? `${path}:${d.span.start_line}:${d.span.start_col}` : path;
  const sev = p.severity(d.severity)(d.severity.padEnd(7));
  const code = d.code ? `${p.bold(sanitize(d.code))}  ` : "";
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
    for (const d of job.diagnostics ?? []) {
      lines.push(...diagnostic(d.path ?? "", d, ctx).map((l) => (d.path ? l : l.trimStart())));
    }
    if (job.output && !job.diagnostics?.length && (job.status === "failed" || job.status === "errored")) {
      const tail = job.output.replace(/\n$/, "").split("\n").slice(-20);
      lines.push(...tail.map((l) => `    ${sanitize(l)}`));
    }
  }
  return lines;
}
