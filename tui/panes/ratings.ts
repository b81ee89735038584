/**
 * Ratings: how many sessions were rated, the mean, and the distribution of
 * scores 1–5 — overall, by engine, by level and by tool.
 *
 * @module
 */
import type { RatingGroup } from "../data/types.ts";
import { bar, mean, spark } from "../format.ts";
import { BLANK, type Line, line, seg, table } from "../lines.ts";
import { isLayout, noStateLines, sectionData } from "./_common.ts";
import type { Layout, Pane, PaneProps } from "./types.ts";

function groupLines(title: string, key: string, groups: RatingGroup[], width: number): Line[] {
  if (groups.length === 0) return [line(title, "title", true), line("  no ratings", "dim")];
  const t = table(
    [
      { title: key, width: 14 },
      { title: "RATED", width: 5, align: "right" },
      { title: "MEAN", width: 5, align: "right" },
      { title: "1", width: 4, align: "right" },
      { title: "2", width: 4, align: "right" },
      { title: "3", width: 4, align: "right" },
      { title: "4", width: 4, align: "right" },
      { title: "5", width: 4, align: "right" },
      { title: "1…5", width: 5 },
      { title: "MEAN OF 5", width: 9, flex: true },
    ],
    groups.map((g) => [
      g.key,
      String(g.count),
      seg(mean(g.mean), g.mean === null ? "dim" : g.mean >= 4 ? "good" : g.mean < 2.5 ? "bad" : undefined),
      ...g.distribution.map(String),
      seg(spark(g.distribution), "accent"),
      (w: number) => seg(bar(g.mean ?? 0, 5, Math.min(w, 30)), "accent"),
    ]),
    width,
  );
  return [line(title, "title", true), t.header, ...t.rows];
}

function layout(p: PaneProps): Layout {
  const got = sectionData(p.snapshot.fleet, p.clock, () => noStateLines(p.snapshot, "Ratings"));
  if (isLayout(got)) return got;
  const r = got.data.ratings;
  if (r.total.count === 0) {
    return {
      head: [...got.stale],
      rows: [line("No ratings yet: rate a session with poly rate <handle> <1-5> or the MCP tool rate.", "dim")],
      mode: "scroll",
    };
  }
  const d = r.total.distribution;
  const summary: Line = [
    seg(`${r.total.count} rated sessions · mean ${mean(r.total.mean)} · `),
    ...d.flatMap((n, i) => [seg(`${i + 1}★ ${n}`), seg(i < 4 ? " · " : "")]),
    seg("  "),
    seg(spark(d), "accent"),
  ];
  return {
    head: [summary, ...got.stale, BLANK],
    rows: [
      ...groupLines("By engine", "ENGINE", r.byEngine, p.width),
      BLANK,
      ...groupLines("By level", "LEVEL", r.byLevel, p.width),
      BLANK,
      ...groupLines("By tool", "TOOL", r.byTool, p.width),
    ],
    mode: "scroll",
  };
}

/** The Ratings pane. */
export const ratingsPane: Pane = { id: "ratings", title: "Ratings", layout };
