/**
 * Calls: the bridge statistics — calls, failures and characters returned per
 * tool against the raw engine output they replaced, calls and characters per day
 * over the last 30 days, and each engine's health over the last 24 hours.
 * Enter shows one tool day by day.
 *
 * @module
 */
import { dayLabel } from "../clock.ts";
import type { CallStats, DayCalls, HealthLine, ToolLine } from "../data/types.ts";
import { bar, count, duration, percent, spark } from "../format.ts";
import { BLANK, type Line, line, seg, table } from "../lines.ts";
import { isLayout, noStateLines, sectionData } from "./_common.ts";
import type { Layout, Pane, PaneProps } from "./types.ts";

/** Characters returned for engine output and that output's size. */
interface Chars {
  engine_out_chars: number;
  raw_chars: number;
}

/** The share of raw engine output kept out of the caller's context: `none` when more came back than the engine wrote. */
function kept(t: Chars): string {
  if (t.raw_chars <= 0) return "–";
  if (t.engine_out_chars >= t.raw_chars) return "none";
  return percent(t.raw_chars - t.engine_out_chars, t.raw_chars);
}

/** What became of the raw engine output, in words that stay true when more came back than the engine wrote. */
function engineWords(t: Chars & { engine_calls: number }): string {
  if (t.raw_chars <= 0) return "no call recorded raw engine output";
  const calls = `${t.engine_calls} engine ${t.engine_calls === 1 ? "call" : "calls"}`;
  const what = `${calls}: ${count(t.raw_chars)} raw chars in, ${count(t.engine_out_chars)} out`;
  return t.engine_out_chars >= t.raw_chars
    ? `${what} (none kept out: more out than in)`
    : `${what} (${kept(t)} kept out of context)`;
}

/** The last days that fit in `cells` cells of sparkline. */
function lastDays(days: DayCalls[], cells: number): DayCalls[] {
  return days.slice(Math.max(0, days.length - Math.max(1, cells)));
}

function sparkLine(label: string, days: DayCalls[], pick: (d: DayCalls) => number, unit: string, width: number): Line {
  const head = `${label.padEnd(14)}`;
  // Label, first day, sparkline, last day, totals.
  const room = width - head.length - 6 - 6 - 24;
  const shown = lastDays(days, room);
  if (shown.length === 0) return line(head);
  const values = shown.map(pick);
  const total = values.reduce((a, b) => a + b, 0);
  return [
    seg(head, "dim"),
    seg(`${dayLabel(shown[0].day)} `, "dim"),
    seg(spark(values), "accent"),
    seg(` ${dayLabel(shown[shown.length - 1].day)}`, "dim"),
    seg(`  ${count(total)} ${unit}, max ${count(Math.max(...values))}/day`),
  ];
}

function medianWords(h: HealthLine): string {
  if (h.okMedianMs === null) return h.samples ? " · no successful run to time" : "";
  // The fleet orders engines by this median from 3 successful runs on.
  const few = h.okRuns < 3 ? ` (${h.okRuns} ok ${h.okRuns === 1 ? "run" : "runs"})` : "";
  return ` · median ${duration(h.okMedianMs)}${few}`;
}

function healthLine(h: HealthLine): Line {
  const rate = h.successRate === null ? "no completed run" : `${Math.round(h.successRate * 100)}% ok`;
  return [
    seg(`  ${h.engine.padEnd(10)}`),
    seg(`${h.samples} ${h.samples === 1 ? "run" : "runs"} · ${rate}`, h.unhealthy ? "bad" : "good"),
    seg(medianWords(h)),
    ...(h.quotaExhausted ? [seg(" · quota exhausted", "bad")] : []),
    ...(h.unhealthy ? [seg(" · unhealthy", "bad")] : []),
  ];
}

function visible(c: CallStats): ToolLine[] {
  return [...c.tools].sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool));
}

function layout(p: PaneProps): Layout {
  const got = sectionData(p.snapshot.fleet, p.clock, () => noStateLines(p.snapshot, "Calls"));
  if (isLayout(got)) return got;
  const c = got.data.calls;
  const tools = visible(c);
  const total = tools.reduce(
    (a, t) => ({
      calls: a.calls + t.calls,
      failures: a.failures + t.failures,
      out_chars: a.out_chars + t.out_chars,
      raw_chars: a.raw_chars + t.raw_chars,
      engine_out_chars: a.engine_out_chars + t.engine_out_chars,
      engine_calls: a.engine_calls + t.engine_calls,
    }),
    { calls: 0, failures: 0, out_chars: 0, raw_chars: 0, engine_out_chars: 0, engine_calls: 0 },
  );
  const wide = p.width >= 110;
  const t = table(
    [
      { title: "TOOL", width: 14 },
      { title: "CALLS", width: 6, align: "right" },
      { title: "FAILED", width: 6, align: "right" },
      { title: "RETURNED", width: 9, align: "right" },
      { title: "RAW", width: 9, align: "right" },
      { title: "KEPT OUT", width: 8, align: "right" },
      { title: "RATED", width: 5, align: "right" },
      ...(wide ? [{ title: "LAST 14 DAYS", width: 14 }] : []),
      { title: "SHARE", width: 5, flex: true },
    ],
    tools.map((s) => [
      s.tool,
      String(s.calls),
      seg(String(s.failures), s.failures ? "bad" : undefined),
      count(s.out_chars),
      count(s.raw_chars),
      kept(s),
      s.ratings.count ? String(s.ratings.count) : "–",
      ...(wide
        ? [seg(spark((c.daysByTool[s.tool] ?? []).slice(-14).map((d) => d.calls)).padEnd(14, "·"), "accent")]
        : []),
      (w: number) => seg(bar(s.calls, total.calls, Math.min(w, 30)), "accent"),
    ]),
    p.width,
  );
  const head: Line[] = [
    line(`${total.calls} calls · ${total.failures} failed · ${count(total.out_chars)} chars returned`),
    line(engineWords(total)),
    ...got.stale,
    sparkLine("calls per day", c.days, (d) => d.calls, "calls", p.width),
    sparkLine("chars per day", c.days, (d) => d.outChars, "chars", p.width),
    line("Engine health, last 24 h", "title", true),
    ...(c.health.length ? c.health.map(healthLine) : [line("  no engine runs in the last 24 hours", "dim")]),
    BLANK,
    t.header,
  ];
  return {
    head,
    rows: t.rows,
    mode: "select",
    empty: [line("No calls recorded yet: every fleet tool call is counted here.", "dim")],
  };
}

function detail(p: PaneProps): Layout | undefined {
  const c = p.snapshot.fleet.data?.calls;
  const s = c ? visible(c)[p.cursor] : undefined;
  if (!c || !s) return undefined;
  const days = (c.daysByTool[s.tool] ?? []).filter((d) => d.calls > 0).reverse();
  const t = table(
    [
      { title: "DAY", width: 6 },
      { title: "CALLS", width: 6, align: "right" },
      { title: "FAILED", width: 6, align: "right" },
      { title: "RETURNED", width: 9, align: "right" },
    ],
    days.map((d) => [dayLabel(d.day), String(d.calls), String(d.failures), count(d.outChars)]),
    p.width,
  );
  const r = s.ratings;
  return {
    head: [line(`Tool ${s.tool}`, "title", true), BLANK],
    rows: [
      line(`${s.calls} calls · ${s.failures} failed · ${count(s.out_chars)} chars returned`),
      line(engineWords(s)),
      line(
        r.count
          ? `${r.count} rated · mean ${r.mean} · 1★ ${r.distribution["1"]} · 2★ ${r.distribution["2"]} · 3★ ${
            r.distribution["3"]
          } · 4★ ${r.distribution["4"]} · 5★ ${r.distribution["5"]}`
          : "not rated",
      ),
      BLANK,
      line("Day by day, last 30 days, newest first", "title", true),
      ...(days.length ? [t.header, ...t.rows] : [line("  no calls in the last 30 days", "dim")]),
    ],
    mode: "scroll",
  };
}

/** The Calls pane. */
export const callsPane: Pane = {
  id: "calls",
  title: "Calls",
  layout,
  detail,
  keys: (p) => (p.snapshot.fleet.data ? visible(p.snapshot.fleet.data.calls).map((t) => t.tool) : []),
};
