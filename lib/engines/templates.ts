/**
 * Template files formatters must leave alone. A Jinja, Go-template or Helm file is
 * not valid YAML/TOML/Markdown until rendered; formatting it as such corrupts it
 * (a bug users of the original tool reported). The run pipeline asks
 * {@link templateReason} before formatting and skips the file with the reason.
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
