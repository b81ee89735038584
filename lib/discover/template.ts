/**
 * Template dialects hidden behind ordinary extensions, where no engine can read
 * the file at all: dbt/Jinja in SQL. A formatter reading it as plain SQL
 * corrupts it, and a linter reports noise, so {@link readCandidate} skips it
 * with a reason.
 *
 * Jinja/Django/Liquid HTML templates (biome lints them as HTML, as `biome lint`
 * does; formatting leaves them alone), YAML and TOML templates (Helm charts,
 * `.j2` files): see `templateReason` in `lib/engines/templates.ts`.
 *
 * @module
 */
import type { Language } from "../engines/types.ts";

/** dbt and Jinja expressions or statements in SQL. */
const SQL_TAG = /\{\{|\{%/;

/**
 * The skip reason when `text` (of the given language) is a template rather than
 * plain source, or undefined. Only SQL is judged here.
 *
 * @example
 * ```ts
 * detectTemplate("sql", "select * from {{ ref('orders') }}");
 * // 'template syntax ("{{" at line 1): a dbt or Jinja template, which no engine formats or lints safely'
 * ```
 */
export function detectTemplate(language: Language, text: string): string | undefined {
  let match: RegExpExecArray | null = null;
  let dialect = "";
  if (language === "sql") {
    match = SQL_TAG.exec(text);
    dialect = "a dbt or Jinja template";
  }
  if (!match) return undefined;
  const tag = text.slice(match.index, match.index + 2);
  const line = text.slice(0, match.index).split("\n").length;
  return `template syntax ("${tag}" at line ${line}): ${dialect}, which no engine formats or lints safely`;
}
