/**
 * sqlfmt — SQL formatting, in-process (WebAssembly: `@wasm-fmt/sql_fmt`, the Rust
 * `sqlformat` crate).
 *
 * - Tier: in-process. Languages: SQL (format only).
 * - `[defaults] indent_width` → `indent_width` (default 2); `line_ending` and
 *   `final_newline` are applied to the output; `line_length` has no counterpart
 *   (the formatter breaks by clause, not by width).
 * - `[fmt.sql.sqlfmt]` keys (sqlformat's options): `uppercase`, `lines_between_queries`,
 *   `ignore_case_convert`, `inline`, `max_inline_block`, `max_inline_arguments`,
 *   `max_inline_top_level`, `joins_as_top_level`, `dialect` ("generic" |
 *   "postgresql" | "sqlserver"), `indent_style` ("space" | "tab").
 * - sqlformat tokenizes rather than parses: it does not reject malformed SQL.
 * - sqlformat is not always idempotent (a `VALUES` list moves on a second pass), so
 *   poly reformats its output until it is stable (at most 3 more passes).
 * - sqlformat's time grows with the square of a text's statements; a text over 64 KB is
 *   formatted in runs of whole statements, which give the same output (`_statements.ts`).
 *
 * Example: `select a,b from t where x=1` → `select\n  a,\n  b\nfrom\n  t\nwhere\n  x = 1`.
 *
 * @module
 */
import { finishText } from "../layout.ts";
import { messageOf, siblingUrls } from "../module.ts";
import { UNIFORM_KEYS } from "../settings.ts";
import { EngineError, type EngineInstance, type EngineSettings, type EngineSpec } from "../types.ts";
import { statementRuns } from "./_statements.ts";

const PACKAGE = "@wasm-fmt/sql_fmt";
const VERSION = "0.2.2";
const KNOWN = new Set([
  "uppercase",
  "lines_between_queries",
  "ignore_case_convert",
  "inline",
  "max_inline_block",
  "max_inline_arguments",
  "max_inline_top_level",
  "joins_as_top_level",
  "dialect",
  "indent_style",
  "indent_width",
]);

/** sqlformat's options for one file's settings. */
export function sqlOptions(settings: EngineSettings): Record<string, unknown> {
  const out: Record<string, unknown> = { indent_style: "space", indent_width: settings.defaults.indent_width ?? 2 };
  for (const [k, v] of Object.entries(settings.tool)) {
    if (UNIFORM_KEYS.has(k)) continue;
    if (!KNOWN.has(k)) {
      throw new EngineError(`unknown setting "${k}" in [fmt.sql.sqlfmt] (known: ${[...KNOWN].join(", ")})`);
    }
    out[k] = v;
  }
  return out;
}

/** Texts longer than this (characters) are formatted in runs of whole statements of about {@link RUN_SIZE}. */
const SPLIT_FROM = 64 * 1024;
const RUN_SIZE = 8 * 1024;

/**
 * Whether sqlformat under `options` formats runs of whole statements, joined by a line break, as it formats them
 * together: held on 89 real files of many statements each (cut after every statement) under its defaults and these
 * keys; `inline`, `max_inline_top_level` and `lines_between_queries` other than 1 put statements on shared lines.
 */
function cuttable(options: Record<string, unknown>): boolean {
  return options.inline !== true && options.max_inline_top_level === undefined &&
    (options.lines_between_queries === undefined || options.lines_between_queries === 1);
}

/** The sqlfmt engine. */
export const sqlfmt: EngineSpec = {
  id: "sqlfmt",
  tier: "in-process",
  lintLanguages: [],
  formatLanguages: ["sql"],
  capabilities: { lint: false, format: true, fix: false },
  upstream: `${PACKAGE} ${VERSION}`,
  defaultEnabled: true,
  moduleUrls() {
    return Promise.resolve(
      siblingUrls(import.meta.resolve(PACKAGE), ["sql_fmt.js", "sql_fmt_bg.js", "sql_fmt_bg.wasm"]),
    );
  },
  async load(): Promise<EngineInstance> {
    const mod = await import("@wasm-fmt/sql_fmt");
    type Options = Parameters<typeof mod.format>[1];
    const stable = (text: string, options: Options) => {
      let out = mod.format(text, options);
      // sqlformat is not always idempotent (a VALUES list moves on its second pass):
      // reformat until the output is stable, so formatting twice equals formatting once.
      for (let pass = 0; pass < 3; pass++) {
        const next = mod.format(out, options);
        if (next === out) break;
        out = next;
      }
      return out;
    };
    return {
      format(file, settings) {
        let out: string;
        try {
          const options = sqlOptions(settings);
          // A long text of many statements in runs of whole statements, each formatted alone (`_statements.ts`):
          // what sqlformat gives for the whole, in time that grows with the text rather than with its square.
          const runs = file.text.length > SPLIT_FROM && cuttable(options)
            ? statementRuns(file.text, RUN_SIZE)
            : [file.text];
          const parts = runs.map((run) => stable(run, options as Options));
          out = parts.map((part, i) => i < parts.length - 1 ? part.trimEnd() : part).join("\n");
        } catch (e) {
          if (e instanceof EngineError) throw e;
          throw new EngineError(messageOf(e));
        }
        return finishText(out, file.text, settings.defaults);
      },
    };
  },
};
