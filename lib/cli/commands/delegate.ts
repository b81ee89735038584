/**
 * `poly delegate --level N [--engine E] [--model M] [--effort E] [--agent NAME]
 * [--cwd DIR] [--format text|json|toon] PROMPT`: the CLI mirror of the
 * `delegate` tool. Text output prints the answer on stdout and the session
 * handle on stderr; json/toon print the tool's document.
 *
 * @module
 */
import { argument, choice, command, integer, message, object, option, optional, string } from "../_optique.ts";
import { pathValue } from "../_path.ts";
import { defineCommand } from "../command.ts";
import { formatOption, writeDocument } from "../output.ts";
import { ENGINES } from "../../fleet/types.ts";

const FORMATS = ["text", "json", "toon"] as const;

const parser = command(
  "delegate",
  object({
    level: option("--level", "-l", integer({ min: 1, max: 5, metavar: "N" }), {
      description: message`Difficulty level 1–5 (1–3 codex, 4–5 claude by default; see [fleet.levels])`,
    }),
    engine: optional(option("--engine", choice(ENGINES), { description: message`Engine instead of the level's` })),
    model: optional(option("--model", string({ metavar: "MODEL" }), { description: message`Model override` })),
    effort: optional(option("--effort", string({ metavar: "EFFORT" }), { description: message`Effort override` })),
    agent: optional(option("--agent", string({ metavar: "NAME" }), { description: message`Named persona` })),
    cwd: optional(
      option("--cwd", pathValue("DIR", "directory"), { description: message`Working directory (inside this one)` }),
    ),
    format: formatOption(FORMATS),
    prompt: argument(string({ metavar: "PROMPT" }), { description: message`The task` }),
  }),
  { brief: message`Delegate a task to a coding agent in poly's sandbox.` },
);

type Value = {
  level: number;
  engine?: typeof ENGINES[number];
  model?: string;
  effort?: string;
  agent?: string;
  cwd?: string;
  format: typeof FORMATS[number];
  prompt: string;
};

/** `poly delegate`. */
export const delegateCommand = defineCommand<Value>({
  parser,
  async run(v, io) {
    const { openFleet } = await import("../../fleet/context.ts");
    const { delegate } = await import("../../fleet/ops/delegate.ts");
    const ctx = await openFleet({ root: io.cwd });
    const out = await delegate(ctx, {
      prompt: v.prompt,
      level: v.level as 1,
      engine: v.engine,
      model: v.model,
      effort: v.effort,
      agent: v.agent,
      cwd: v.cwd,
    });
    if (v.format === "json" || v.format === "toon") await writeDocument(io, out, v.format);
    else {
      await io.stdout(out.answer.endsWith("\n") ? out.answer : out.answer + "\n");
      const what = [out.engine, out.model, out.effort].filter(Boolean).join(", ");
      await io.stderr(`session: ${out.session_id ?? "(none reported)"} (${what}, ${out.latency_ms} ms)\n`);
    }
    return 0;
  },
});
