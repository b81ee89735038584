/**
 * Sessions: delegated sessions, newest first, with engine, model, level, tool,
 * the outcome of their latest call, time spent, characters returned and rating.
 * `/` filters (`engine:codex status:ok tool:explore`, `-field:value` excludes);
 * enter shows the prompt, the answer excerpt when stored, and the handle to
 * follow up with.
 *
 * @module
 */
import type { SessionLine } from "../data/types.ts";
import { PREVIEW_CHARS } from "../data/prompt.ts";
import { type FilterFields, matches } from "../filter.ts";
import { count, duration, oneLine, wrap } from "../format.ts";
import { BLANK, type Line, line, pairs, seg, table } from "../lines.ts";
import type { Tone } from "../theme.ts";
import { isLayout, longTime, noStateLines, sectionData, shortTime } from "./_common.ts";
import type { Layout, Pane, PaneProps } from "./types.ts";

/** The fields `/` filters sessions by. */
export const SESSION_FIELDS: FilterFields<SessionLine> = {
  engine: (s) => s.engine,
  model: (s) => s.model,
  level: (s) => s.level,
  tool: (s) => s.tool,
  status: (s) => s.status ?? "none",
  rating: (s) => s.rating,
  effort: (s) => s.effort,
  handle: (s) => s.handle,
  cwd: (s) => s.cwd,
  prompt: (s) => s.prompt,
};

function statusTone(status: string | null): Tone {
  if (status === null) return "dim";
  return status === "ok" ? "good" : "bad";
}

function visible(p: PaneProps): SessionLine[] {
  return (p.snapshot.fleet.data?.sessions ?? []).filter((s) => matches(s, p.filter, SESSION_FIELDS));
}

function layout(p: PaneProps): Layout {
  const got = sectionData(p.snapshot.fleet, p.clock, () => noStateLines(p.snapshot, "Sessions"));
  if (isLayout(got)) return got;
  const all = got.data.sessions;
  const shown = visible(p);
  const wide = p.width >= 110;
  const t = table(
    [
      { title: "ENGINE", width: 8 },
      { title: "MODEL", width: wide ? 16 : 12, flex: !wide },
      { title: "L", width: 1, align: "right" },
      { title: "TOOL", width: 13 },
      { title: "STATUS", width: 13 },
      { title: "TIME", width: 6, align: "right" },
      { title: "CHARS", width: 6, align: "right" },
      { title: "★", width: 1, align: "right" },
      { title: "UPDATED", width: 11 },
      ...(wide ? [{ title: "PROMPT", width: 10, flex: true }] : []),
    ],
    shown.map((s) => [
      s.engine,
      s.model ?? "default",
      s.level === null ? "–" : String(s.level),
      s.tool,
      seg(s.status ?? "–", statusTone(s.status)),
      s.calls ? duration(s.durationMs) : "–",
      s.calls ? count(s.outChars) : "–",
      s.rating === null ? "–" : String(s.rating),
      shortTime(p.clock, s.updated_at),
      s.prompt ? oneLine(s.prompt) : seg("not stored", "dim"),
    ]),
    p.width,
  );
  const summary = p.filter ? line(`${shown.length} of ${all.length} sessions match "${p.filter}"`, "accent") : line(
    `${all.length} ${all.length === 1 ? "session" : "sessions"}, newest first${
      p.interactive === false ? "" : " · / filters · enter shows one"
    }`,
  );
  return {
    head: [summary, ...got.stale, BLANK, t.header],
    rows: t.rows,
    mode: "select",
    empty: [
      p.filter
        ? line(`No session matches "${p.filter}" (fields: ${Object.keys(SESSION_FIELDS).join(", ")}).`, "dim")
        : line(
          "No sessions yet: a worker tool (delegate, explore, …) records one when its engine returns a session id.",
          "dim",
        ),
    ],
  };
}

/** The first part of a long answer, saying how much is left out. */
function excerpt(answer: string): string {
  const limit = 800;
  if (answer.length <= limit) return answer;
  return `${answer.slice(0, limit)}… (${answer.length - limit} more characters: poly sessions --format json has them)`;
}

function block(title: string, text: string, width: number): Line[] {
  return [line(title, "title", true), ...wrap(text, Math.max(10, width - 2)).map((l) => line(`  ${l}`))];
}

function promptBlock(s: SessionLine, width: number): Line[] {
  if (!s.prompt && s.promptFramed) {
    return [
      line("Prompt", "title", true),
      ...wrap(
        `not stored: the fleet keeps the first ${PREVIEW_CHARS} characters it sent the engine, and for ${s.tool} ` +
          "they are all poly's own instructions",
        Math.max(10, width - 2),
      ).map((l) => line(`  ${l}`, "dim")),
    ];
  }
  const title = s.promptFramed
    ? "Prompt (as stored, without poly's instructions and time budget)"
    : "Prompt (as stored)";
  return block(title, s.prompt || "(empty)", width);
}

function detail(p: PaneProps): Layout | undefined {
  const s = visible(p)[p.cursor];
  if (!s) return undefined;
  const facts = pairs([
    [
      "engine",
      `${s.engine} · model ${s.model ?? "default"} · effort ${s.effort ?? "default"} · level ${s.level ?? "–"}`,
    ],
    [
      "tool",
      `${s.tool} · ${s.read_only ? "read-only" : "read-write"} · web ${s.web ? "on" : "off"} · ${s.turns} ${
        s.turns === 1 ? "turn" : "turns"
      }`,
    ],
    ["directory", s.cwd],
    ["parent", s.parent ?? "–"],
    ["created", longTime(p.clock, s.created_at)],
    ["updated", longTime(p.clock, s.updated_at)],
    [
      "calls",
      s.calls
        ? [
          seg(`${s.calls} · latest `),
          seg(s.status ?? "–", statusTone(s.status)),
          seg(` · ${duration(s.durationMs)} · ${count(s.outChars)} characters returned`),
        ]
        : "no recorded call names this session",
    ],
    ["rating", s.rating === null ? "not rated" : `${s.rating}/5${s.note ? ` — ${oneLine(s.note)}` : ""}`],
  ]);
  const rows: Line[] = [
    ...facts,
    BLANK,
    ...promptBlock(s, p.width),
    BLANK,
    ...(s.answer !== null && s.answer !== ""
      ? block("Answer (latest, as stored)", excerpt(s.answer), p.width)
      : [line("Answer", "title", true), line("  none stored for this session", "dim")]),
    BLANK,
    line("Follow up", "title", true),
    line(`  MCP tool follow_up with session_id "${s.handle}"`),
    line(`  rate it: poly rate ${s.handle} <1-5>`),
  ];
  return { head: [line(`Session ${s.handle}`, "title", true), BLANK], rows, mode: "scroll" };
}

/** The Sessions pane. */
export const sessionsPane: Pane = {
  id: "sessions",
  title: "Sessions",
  layout,
  detail,
  keys: (p) => visible(p).map((s) => s.handle),
  filterHelp: `${
    Object.keys(SESSION_FIELDS).join(", ")
  } (field:value, -field:value excludes, other words match anywhere)`,
};
