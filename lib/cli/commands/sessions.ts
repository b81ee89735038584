/**
 * `poly sessions [--limit N] [--format table|json|toon]`: recent fleet sessions
 * (handle, tool, engine, model, turns, rating, directory, prompt preview).
 *
 * @module
 */
import { command, integer, message, object, option, withDefault } from "../_optique.ts";
import { defineCommand } from "../command.ts";
import type { SessionRecord } from "../../fleet/store.ts";
import { formatOption, writeDocument } from "../output.ts";

const FORMATS = ["table", "json", "toon"] as const;

const parser = command(
  "sessions",
  object({
    limit: withDefault(
      option("--limit", integer({ min: 1, max: 10000, metavar: "N" }), {
        description: message`At most N sessions`,
      }),
      50,
    ),
    format: formatOption(FORMATS),
  }),
  { brief: message`List recent fleet sessions, newest first.` },
);

/** Renders sessions as a table. */
export function renderSessions(rows: SessionRecord[]): string {
  if (!rows.length) return "no sessions yet\n";
  const lines = rows.map((s) => [
    s.handle,
    s.tool,
    s.model ?? "-",
    String(s.turns),
    s.rating === null ? "-" : String(s.rating),
    s.read_only ? "ro" : "rw",
    s.updated_at.slice(0, 19).replace("T", " "),
    s.preview.replace(/\s+/g, " ").slice(0, 50),
  ]);
  const head = ["SESSION", "TOOL", "MODEL", "TURNS", "RATING", "ACCESS", "UPDATED", "PROMPT"];
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cols: string[]) =>
    cols.map((c, i) => (i === cols.length - 1 ? c : c.padEnd(widths[i]))).join("  ").trimEnd();
  return [fmt(head), ...lines.map(fmt)].join("\n") + "\n";
}

/** `poly sessions`. */
export const sessionsCommand = defineCommand<{ limit: number; format: typeof FORMATS[number] }>({
  parser,
  async run(v, io) {
    const { openFleet } = await import("../../fleet/context.ts");
    const ctx = await openFleet({ root: io.cwd });
    const rows = ctx.store.sessions(v.limit);
    if (v.format === "json" || v.format === "toon") await writeDocument(io, { sessions: rows }, v.format);
    else await io.stdout(renderSessions(rows));
    return 0;
  },
});
