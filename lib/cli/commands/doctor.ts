/**
 * `poly doctor [--format human|json]`: what this repository needs (the engines
 * for the languages of its files, the whole-project jobs of its Cargo workspaces
 * and Go modules), which of it is missing here, and how to install it. Exit 1
 * when something it needs is missing.
 *
 * @module
 */
import { command, constant, message, object } from "../_optique.ts";
import { defineCommand } from "../command.ts";
import { ExitCode } from "../../errors/mod.ts";
import { formatOption, jsonText } from "../output.ts";

const FORMATS = ["human", "json"] as const;

const parser = command(
  "doctor",
  object({
    cmd: constant("doctor"),
    format: formatOption(FORMATS),
  }),
  {
    brief: message`Check that this repository's tools are installed.`,
    description:
      message`Find the languages of this repository's files and its Cargo workspaces and Go modules, then check that every engine and host program a run here would use is installed; say how to install what is missing. Exit 1 when something it needs is missing.`,
  },
);

/** `poly doctor`. */
export const doctorCommand = defineCommand<{ cmd: string; format: typeof FORMATS[number] }>({
  parser,
  async run(value, io) {
    const { doctor, renderDoctor } = await import("../../doctor/mod.ts");
    const doc = await doctor(io.cwd);
    await io.stdout(value.format === "json" ? jsonText(doc) : renderDoctor(doc));
    return doc.missing > 0 ? ExitCode.Findings : ExitCode.Clean;
  },
});
