/**
 * Template files, the one detector: every reason reads `template file (<what>):
 * left alone by <formatters | every engine>`.
 *
 * - A name ending in a template dialect's extension (`.j2`, `.tmpl`, ...) is left
 *   alone by every engine: discovery lists it as a skip on every walk
 *   ({@link templateExtensionSkip}).
 * - HTML with Jinja/Django/Liquid block tags and SQL with dbt/Jinja syntax are left
 *   alone by every engine: no linter or formatter reads them (discovery asks
 *   {@link detectTemplate} when it reads the file).
 * - A Jinja, Go-template or Helm file is not valid YAML/TOML/Markdown until
 *   rendered; formatting it as such corrupts it (a bug users of the original tool
 *   reported). The run pipeline asks {@link templateReason} before formatting and
 *   skips the file with the reason; linters still check it.
 *
 * @example
 * ```ts
 * templateReason("charts/app/templates/deploy.yaml", "kind: {{ .Values.kind }}");
 * // "template file (Helm chart template with {{ ... }}): left alone by formatters"
 * templateReason("config.yaml.j2", "a: 1"); // "template file (.j2): left alone by formatters"
 * templateReason("app.yaml", "a: 1"); // undefined
 * ```
 *
 * @module
 */
import type { Language } from "./types.ts";

/** Extensions of template dialects; a file ending in one of them is never formatted. */
export const TEMPLATE_EXTENSIONS: readonly string[] = [
  ".j2",
  ".jinja",
  ".jinja2",
  ".njk",
  ".tmpl",
  ".gotmpl",
  ".tpl",
  ".mustache",
  ".hbs",
  ".liquid",
  ".erb",
  ".ejs",
];

/** {@link TEMPLATE_EXTENSIONS} as one expression (lower-case paths). */
const TEMPLATE_EXTENSION = new RegExp(`(?:${TEMPLATE_EXTENSIONS.map((e) => e.replace(".", "\\.")).join("|")})$`);
const YAML_RE = /\.ya?ml$/i;
const TOML_RE = /\.toml$/i;
/** `{{ ... }}` (Go templates, Jinja expressions) or `{% ... %}` (Jinja statements). */
const TEMPLATE_SYNTAX = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/;
/** GitHub Actions expressions `${{ ... }}` are plain YAML scalars, not templates. */
const ACTIONS_EXPR = /\$\{\{[\s\S]*?\}\}/g;

/**
 * Whether template syntax appears outside quoted scalars and comments: `"{{ x }}"`
 * (Ansible style) is a valid YAML string a formatter keeps, while `key: {{ x }}`
 * parses as nested flow mappings a formatter would rewrite.
 */
export function hasBareTemplateSyntax(text: string): boolean {
  const stripped = text.replace(ACTIONS_EXPR, "");
  if (!TEMPLATE_SYNTAX.test(stripped)) return false;
  for (const line of stripped.split("\n")) {
    const bare = line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'/g, '""').replace(/(^|\s)#.*$/, "$1");
    if (/\{\{|\{%/.test(bare)) return true;
  }
  return false;
}

function reason(detail: string): string {
  return `template file (${detail}): left alone by formatters`;
}

/**
 * Why a file must not be formatted because it is a template, or undefined when it
 * is an ordinary file. `relPath` uses `/` separators.
 */
export function templateReason(relPath: string, text: string): string | undefined {
  const lower = relPath.toLowerCase();
  const ext = TEMPLATE_EXTENSION.exec(lower)?.[0];
  if (ext) return reason(ext);
  // Without `{{` or `{%` no rule below applies (the common case: no split, no scan).
  if (!text.includes("{{") && !text.includes("{%")) return undefined;
  const inTemplatesDir = lower.split("/").slice(0, -1).includes("templates");
  if (inTemplatesDir && TEMPLATE_SYNTAX.test(text.replace(ACTIONS_EXPR, ""))) {
    return reason(YAML_RE.test(lower) ? "Helm chart template with {{ ... }}" : "file under templates/ with {{ ... }}");
  }
  if ((YAML_RE.test(lower) || TOML_RE.test(lower)) && hasBareTemplateSyntax(text)) {
    return reason(`${YAML_RE.test(lower) ? "YAML" : "TOML"} with template syntax {{ ... }} or {% ... %}`);
  }
  return undefined;
}

function everyEngine(detail: string): string {
  return `template file (${detail}): left alone by every engine`;
}

/**
 * Why every engine leaves a file alone because its name ends in a template dialect's
 * extension ({@link TEMPLATE_EXTENSIONS}), or undefined.
 *
 * @example
 * ```ts
 * templateExtensionSkip("roles/web/config.yml.j2"); // "template file (.j2): left alone by every engine"
 * ```
 */
export function templateExtensionSkip(relPath: string): string | undefined {
  const ext = TEMPLATE_EXTENSION.exec(relPath.toLowerCase())?.[0];
  return ext ? everyEngine(ext) : undefined;
}

/** Jinja/Django/Liquid/Nunjucks block tags: `{% if %}`, `{%- for x in y %}`. */
const BLOCK_TAG = /\{%-?\s*[A-Za-z_]/;
/** dbt and Jinja expressions or statements in SQL. */
const SQL_TAG = /\{\{|\{%/;

/**
 * Why every engine leaves `text` (of the given language) alone because it is a
 * template dialect hidden behind an ordinary extension, or undefined. Only HTML and
 * SQL are judged here.
 *
 * @example
 * ```ts
 * detectTemplate("sql", "select * from {{ ref('orders') }}");
 * // 'template file (a dbt or Jinja template, "{{" at line 1): left alone by every engine'
 * ```
 */
export function detectTemplate(language: Language, text: string): string | undefined {
  let match: RegExpExecArray | null = null;
  let dialect = "";
  if (language === "html") {
    match = BLOCK_TAG.exec(text);
    dialect = "a Jinja, Django or Liquid template";
  } else if (language === "sql") {
    match = SQL_TAG.exec(text);
    dialect = "a dbt or Jinja template";
  }
  if (!match) return undefined;
  const tag = text.slice(match.index, match.index + 2);
  const line = text.slice(0, match.index).split("\n").length;
  return everyEngine(`${dialect}, "${tag}" at line ${line}`);
}
