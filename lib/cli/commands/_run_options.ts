/**
 * The options `poly lint` and `poly fmt` share: their parser and its value. What
 * a parsed command does with them is in `_check_run.ts`, which loads no parser
 * (a replayed run never parses).
 *
 * @module
 */
import {
  argument,
  choice,
  constant,
  integer,
  message,
  multiple,
  object,
  option,
  optional,
  string,
  withDefault,
} from "../_optique.ts";
import { pathValue } from "../_path.ts";
import { COLOR_MODES, type ColorMode } from "../color.ts";
import { formatOption } from "../output.ts";
import type { REPORT_FORMATS as ENCODED_FORMATS } from "../../report/encode.ts";

/**
 * Report formats the CLI can print: exactly the encoders' list (lib/report/encode.ts),
 * which `satisfies` holds at compile time; imported as a type, so parsing loads no encoder.
 */
export const REPORT_FORMATS = ["human", "json", "toon", "sarif", "github"] as const satisfies typeof ENCODED_FORMATS;

/** The options every run command takes. */
export function runOptions<K extends string>(cmd: K) {
  return object({
    cmd: constant(cmd),
    paths: multiple(argument(pathValue("PATH"), { description: message`Files or directories (default: .)` })),
    format: formatOption(REPORT_FORMATS),
    exclude: multiple(
      option("--exclude", string({ metavar: "GLOB" }), {
        description: message`Gitignore-style exclude, added to [discovery] exclude (repeatable)`,
      }),
    ),
    config: optional(option("--config", pathValue("PATH"), { description: message`Use this poly.toml` })),
    noCache: option("--no-cache", { description: message`Bypass the result cache` }),
    jobs: optional(
      option("--jobs", integer({ min: 1, metavar: "N" }), {
        description: message`Parallel workers (default: CPU count)`,
      }),
    ),
    color: withDefault(
      option("--color", choice(COLOR_MODES, { metavar: "WHEN" }), {
        description:
          message`When to colour the human report (auto: on a terminal; FORCE_COLOR and NO_COLOR decide first)`,
      }),
      "auto" as const,
    ),
    shard: optional(
      option("--shard", string({ metavar: "I/N" }), {
        description: message`Only shard I of N (by path, balanced by size; run-wide checks on shard 1)`,
      }),
    ),
  });
}

/** Parsed shared options. */
export interface RunOptionValues {
  paths: readonly string[];
  format: typeof REPORT_FORMATS[number];
  exclude: readonly string[];
  config?: string;
  noCache: boolean;
  jobs?: number;
  color: ColorMode;
  /** `--shard I/N` as given. */
  shard?: string;
}
