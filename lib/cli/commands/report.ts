/**
 * `poly report merge FILE... [--format json|sarif|toon|human|github]`: joins the
 * JSON reports of the shards of one `--shard i/n` run into the document a
 * single run would have produced, and exits as that run would have.
 *
 * @module
 */
import { argument, command, constant, message, multiple, object, string } from "../_optique.ts";
import { defineCommand } from "../command.ts";
import { REPORT_FORMATS } from "./_run_options.ts";
import { colorMode } from "../color.ts";
import { UsageError } from "../../errors/mod.ts";
import { resolve } from "node:path";
import { formatOption } from "../output.ts";

const merge = command(
  "merge",
  object({
    action: constant("merge" as const),
    files: multiple(argument(string({ metavar: "FILE" }), { description: message`Shard reports (--format json)` }), {
      min: 1,
    }),
    format: formatOption(REPORT_FORMATS, { default: "json", description: message`Output format (default: json)` }),
  }),
  { brief: message`Join the JSON reports of --shard runs into one report.` },
);

/** `poly report`. */
export const reportCommand = defineCommand({
  parser: command("report", merge, { brief: message`Work with report documents (merge shard reports).` }),
  async run(value: { action: "merge"; files: readonly string[]; format: typeof REPORT_FORMATS[number] }, io) {
    const { mergeReports, parseReport } = await import("../../report/merge.ts");
    const [{ encodeReport }, { exitCodeFor }] = await Promise.all([
      import("../../report/encode.ts"),
      import("../../report/exit.ts"),
    ]);
    const reports = [];
    for (const file of value.files) {
      let text: string;
      try {
        text = await Deno.readTextFile(resolve(io.cwd, file));
      } catch (error) {
        throw new UsageError(`cannot read report "${file}" (${(error as Error).message}): check the path`);
      }
      try {
        reports.push(parseReport(file, text));
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    }
    let merged;
    try {
      merged = mergeReports(reports);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const color = value.format === "human" && colorMode("auto", io.stdoutIsTerminal);
    await io.stdout(encodeReport(merged, value.format, { color, cwd: io.cwd }));
    return exitCodeFor(merged);
  },
});
