/**
 * `poly dash [--once [--width N]] [--interval MS]`: the terminal dashboard —
 * Overview, Cache, Sessions, Ratings, Calls and Gateway panes, refreshed live
 * from the state database. Without a terminal it says so and exits 2, unless
 * `--once` asks for one plain-text snapshot of every pane.
 *
 * @module
 */
import { command, integer, message, object, option, optional, withDefault } from "../_optique.ts";
import { defineCommand } from "../command.ts";

const parser = command(
  "dash",
  object({
    once: option("--once", { description: message`Print one plain-text snapshot of every pane and exit` }),
    width: optional(
      option("--width", integer({ min: 40, max: 1000, metavar: "N" }), {
        description: message`Line width of --once (default: the terminal's, else 80)`,
      }),
    ),
    interval: withDefault(
      option("--interval", integer({ min: 250, max: 60000, metavar: "MS" }), {
        description: message`Milliseconds between refreshes`,
      }),
      1500,
    ),
  }),
  { brief: message`Terminal dashboard: cache, sessions, ratings, calls, upstream servers and grants.` },
);

/** `poly dash`. */
export const dashCommand = defineCommand<{ once: boolean; width?: number; interval: number }>({
  parser,
  async run(v, io) {
    const { runDash } = await import("../../../tui/mod.ts");
    return await runDash({ once: v.once, width: v.width, intervalMs: v.interval, io });
  },
});
