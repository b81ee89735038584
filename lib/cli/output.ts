/**
 * One place for a command's `--format` option and its document output: every
 * command declares `--format` with {@link formatOption} and writes a JSON or
 * TOON document with {@link writeDocument} (JSON indented by two spaces, each
 * ending with a newline), so the choices, their help line and the bytes
 * printed are the same everywhere.
 *
 * @example
 * ```ts
 * const parser = object({ format: formatOption(["human", "json", "toon"]) });
 * // in run(): if (value.format !== "human") return await writeDocument(io, doc, value.format), 0;
 * ```
 *
 * @module
 */
import { choice, type Message, message, option, withDefault } from "./_optique.ts";
import type { CommandIO } from "../io/mod.ts";

/** Options of {@link formatOption}. */
export interface FormatOptionOptions<T extends string> {
  /** The value without `--format` (default: the first of the choices). */
  default?: T;
  /** The help line (default: "Output format"). */
  description?: Message;
}

/** `--format FORMAT`, one of `formats`, defaulting to the first of them (or `options.default`). */
export function formatOption<const F extends string>(
  formats: readonly [F, ...F[]],
  options: FormatOptionOptions<F> = {},
) {
  return withDefault(
    option("--format", choice<F>(formats, { metavar: "FORMAT" }), {
      description: options.description ?? message`Output format`,
    }),
    options.default ?? formats[0],
  );
}

/** `value` as a JSON document: indented by two spaces, ending with a newline. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/** Writes `doc` to stdout as JSON ({@link jsonText}) or TOON (ending with a newline). */
export async function writeDocument(
  io: Pick<CommandIO, "stdout">,
  doc: unknown,
  format: "json" | "toon",
): Promise<void> {
  if (format === "json") return await io.stdout(jsonText(doc));
  const { encode } = await import("../report/toon.ts");
  await io.stdout(encode(doc) + "\n");
}
