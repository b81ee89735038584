/**
 * `poly rate SESSION SCORE [--note TEXT] [--format text|json]`: the CLI mirror
 * of the `rate` tool.
 *
 * @module
 */
import { argument, command, integer, message, object, option, optional, string } from "../_optique.ts";
import { defineCommand } from "../command.ts";
import { formatOption, writeDocument } from "../output.ts";

const parser = command(
  "rate",
  object({
    session: argument(string({ metavar: "SESSION" }), { description: message`Session handle engine:id` }),
    score: argument(integer({ min: 1, max: 5, metavar: "SCORE" }), {
      description: message`1 (useless) to 5 (excellent)`,
    }),
    note: optional(option("--note", string({ metavar: "TEXT" }), { description: message`Why` })),
    format: formatOption(["text", "json"]),
  }),
  { brief: message`Rate a fleet session's result from 1 to 5.` },
);

/** `poly rate`. */
export const rateCommand = defineCommand<{ session: string; score: number; note?: string; format: "text" | "json" }>({
  parser,
  async run(v, io) {
    const { openFleet } = await import("../../fleet/context.ts");
    const { rate } = await import("../../fleet/ops/sessions.ts");
    const ctx = await openFleet({ root: io.cwd });
    const out = await rate(ctx, { session_id: v.session, score: v.score, note: v.note });
    if (v.format === "json") await writeDocument(io, out, "json");
    else {
      const was = out.replaced !== undefined ? ` (was ${out.replaced})` : "";
      await io.stdout(`rated ${out.session_id} (${out.tool}, ${out.engine}): ${out.score}${was}\n`);
    }
    return 0;
  },
});
