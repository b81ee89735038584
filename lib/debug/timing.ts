/**
 * Where a run's wall time goes: named spans kept only when `POLY_DEBUG=timing`
 * (or any `POLY_DEBUG` list naming `timing`), printed on stderr as the process
 * exits, in milliseconds since the process's clock started. Off, every call is
 * one boolean test and records nothing.
 *
 * Spans of one name add up (an engine's batches, each file's read): the table
 * shows the first start, the last end, the summed time and the count. Spans
 * overlap where work overlaps (engines run while files are read), so the rows
 * do not sum to the wall time; the timeline does. A `cpu` row closes the table:
 * the CPU time (user + system) of this process's own threads, the engines'
 * processes not counted — on a machine with few cores, what poly's own work
 * takes from theirs.
 *
 * @example
 * ```ts
 * import { span, timed } from "./timing.ts";
 * const done = span("config");
 * // ... load the configuration ...
 * done();
 * const files = await timed("discovery", () => Promise.resolve([]));
 * ```
 *
 * @module
 */
import { debugging } from "./flags.ts";

/** Whether timers are kept in this process (`POLY_DEBUG=timing`). */
export const TIMING: boolean = debugging("timing");

/** One name's spans. */
interface Row {
  first: number;
  last: number;
  total: number;
  count: number;
}

const rows = new Map<string, Row>();
/** This process's CPU time (µs, user and system) when its table started: the process's start, or the last reset. */
let cpuAtStart = { user: 0, system: 0 };
/** What {@link span} returns while timers are off. */
const NOOP = () => {};

/** Starts a span named `name`; call what it returns to end it. Does nothing unless {@link TIMING}. */
export function span(name: string): () => void {
  if (!TIMING) return NOOP;
  const start = performance.now();
  return () => record(name, start, performance.now());
}

/** Runs `fn` inside a span named `name`. */
export async function timed<T>(name: string, fn: () => Promise<T>): Promise<T> {
  if (!TIMING) return await fn();
  const end = span(name);
  try {
    return await fn();
  } finally {
    end();
  }
}

/** Records an instant (a span of zero length), e.g. "main" when the command line starts. */
export function mark(name: string): void {
  if (TIMING) record(name, performance.now(), performance.now());
}

/** Forgets every span (a resident process starting one request's table). */
export function resetTiming(): void {
  rows.clear();
  if (TIMING) cpuAtStart = cpuUsage();
}

function record(name: string, start: number, end: number): void {
  const row = rows.get(name);
  if (!row) rows.set(name, { first: start, last: end, total: end - start, count: 1 });
  else {
    row.first = Math.min(row.first, start);
    row.last = Math.max(row.last, end);
    row.total += end - start;
    row.count++;
  }
}

/**
 * The table of spans, by first start: `name  start → end  total ms  ×count`,
 * closed by an `exit` row at the moment it is made. `title` names whose table it is.
 */
export function timingTable(title = "poly timing"): string {
  const lines = [`${title} (ms since the process's clock started):`];
  const sorted = [...rows].sort((a, b) => a[1].first - b[1].first);
  const width = Math.max(12, ...sorted.map(([name]) => name.length));
  for (const [name, row] of sorted) {
    lines.push(
      `  ${name.padEnd(width)} ${fixed(row.first)} → ${fixed(row.last)} ${fixed(row.total)} ms` +
        (row.count > 1 ? ` ×${row.count}` : ""),
    );
  }
  lines.push(`  ${"exit".padEnd(width)} ${fixed(performance.now())}`);
  const { user, system } = cpuUsage();
  const [u, s] = [(user - cpuAtStart.user) / 1000, (system - cpuAtStart.system) / 1000];
  lines.push(
    `  ${"cpu".padEnd(width)} ${fixed(u + s)} ms of this process (user ${u.toFixed(1)}, system ${s.toFixed(1)}; ` +
      "its child processes not counted)",
  );
  return lines.join("\n") + "\n";
}

/**
 * This process's CPU time so far (µs, user and system, its threads but not its child processes): Deno's own call
 * behind Node's `process.cpuUsage` where this Deno has it (a daemon's client starts none of the Node layer), else
 * that one.
 */
function cpuUsage(): { user: number; system: number } {
  const own = (Deno as unknown as { cpuUsage?: () => { user: number; system: number } }).cpuUsage;
  return typeof own === "function" ? own() : process.cpuUsage();
}

function fixed(ms: number): string {
  return ms.toFixed(1).padStart(8);
}

if (TIMING) {
  // Printed as the process ends (Deno.exit dispatches "unload"): no command has to remember to.
  globalThis.addEventListener("unload", () => {
    try {
      Deno.stderr.writeSync(new TextEncoder().encode(timingTable()));
    } catch {
      // stderr closed: nothing to say it on
    }
  });
}
