/**
 * Pieces several panes share: the notice for a state database that does not
 * exist yet, a section's read error, and local times.
 *
 * @module
 */
import { type Clock, localStamp } from "../clock.ts";
import type { Section, Snapshot } from "../data/types.ts";
import { type Line, line } from "../lines.ts";
import type { Layout } from "./types.ts";

/** `iso` (or ms) as local `MM-DD HH:MM`, or `–`. */
export function shortTime(clock: Clock, at: string | number | undefined | null): string {
  if (at === undefined || at === null || at === "") return "–";
  const ms = typeof at === "number" ? at : Date.parse(at);
  return Number.isFinite(ms) ? localStamp(clock, ms).slice(5, 16) : String(at);
}

/** `iso` (or ms) as local `YYYY-MM-DD HH:MM:SS`, or `–`. */
export function longTime(clock: Clock, at: string | number | undefined | null): string {
  if (at === undefined || at === null || at === "") return "–";
  const ms = typeof at === "number" ? at : Date.parse(at);
  return Number.isFinite(ms) ? localStamp(clock, ms) : String(at);
}

/** Lines saying the state database does not exist yet. */
export function noStateLines(snapshot: Snapshot, what: string): Line[] {
  return [
    line(`No state database yet at ${snapshot.overview.statePath}.`, "warn"),
    line(`${what} appear here once poly records them; the dashboard picks the database up when it is created.`),
  ];
}

/** A layout that only says something. */
export function notice(lines: Line[]): Layout {
  return { head: [], rows: lines, mode: "scroll" };
}

/** A line saying a section's latest read failed (and from when its data is), or nothing. */
export function staleLines(clock: Clock, section: Section<unknown>): Line[] {
  if (!section.error) return [];
  const when = section.readAt ? `showing data from ${longTime(clock, section.readAt).slice(11)}` : "no data yet";
  return [line(`Not refreshed: ${section.error.message} (${when})`, "warn")];
}

/** The section's data, or a layout explaining why there is none (`missing`: what to say when it was never read). */
export function sectionData<T>(
  section: Section<T>,
  clock: Clock,
  missing: () => Line[],
): { data: T; stale: Line[] } | Layout {
  if (section.data !== undefined) return { data: section.data, stale: staleLines(clock, section) };
  if (section.error) return notice(staleLines(clock, section));
  return notice(missing());
}

/** Whether {@link sectionData} returned a layout. */
export function isLayout(v: unknown): v is Layout {
  return typeof v === "object" && v !== null && "mode" in v && "rows" in v;
}
