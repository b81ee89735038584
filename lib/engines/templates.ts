/**
 * Template files, the one detector. Every reason reads `template file (<what>): ...`
 * and says what poly leaves undone with the file.
 *
 * - A name ending in a template dialect's extension (`.j2`, `.tmpl`, ...) is left
 *   alone by every engine: discovery lists it as a skip on every walk
 *   ({@link templateExtensionSkip}).
 * - SQL with dbt/Jinja syntax is left alone by every engine: no linter or formatter
 *   reads it (discovery asks {@link detectTemplate} when it reads the file).
 * - A Jinja, Go-template or Helm file is not valid YAML/TOML/Markdown until
 *   rendered; formatting it as such corrupts it (a bug users of the original tool
 *   reported), and linting it reports its template syntax. The run pipeline asks
 *   {@link templateReason} before linting or formatting and skips the file with the
 *   reason, which says which of the two.
 * - A Jinja/Django/Liquid template named `.html` (`{% ... %}` block tags), or a Go
 *   (Hugo), Handlebars or Mustache one (`{{ range }}`, `{{- end -}}`, `{{#if}}`), is
 *   different: `biome lint` lints it as HTML (the tags are text to it), so poly lints
 *   it too; `biome format` leaves HTML alone and poly's HTML formatter would reflow
 *   the tags, so only formatting skips it. So with Markdown holding a Hugo shortcode
 *   or a Jekyll/Liquid tag in its prose (`{{< highlight >}}`, `{% include %}`).
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
const HTML_RE = /\.html?$/i;
/** Jinja/Django/Liquid/Nunjucks block tags: `{% if %}`, `{%- for x in y %}`. */
const BLOCK_TAG = /\{%-?\s*[A-Za-z_]/;
/**
 * Go template actions (Hugo's layouts: `{{ range }}`, `{{- partial "x" . -}}`, a `{{/*` comment, a trim marker)
 * and Handlebars or Mustache sections, partials and comments (`{{#if}}`, `{{/if}}`, `{{> card}}`, `{{! note}}`): not
 * an interpolation Angular's, Vue's or a Jinja expression's `{{ value }}` would also be.
 */
const ACTION_TAG =
  /\{\{-?\s*(?:if|else|range|with|end|define|block|template|partial|partialCached|return|break|continue)\b|\{\{-?\s*\/\*|\{\{-\s|\s-\}\}|\{\{[#/>!^]/;
const TOML_RE = /\.toml$/i;
const MARKDOWN_RE = /\.(?:md|markdown|mdown|mkd)$/i;
/**
 * A Hugo shortcode (`{{< figure >}}`, `{{% notice %}}`) or a Jekyll, Liquid or Jinja tag (`{% highlight go %}`,
 * `{% include x.html %}`) in Markdown's prose: what lies between such tags is the template's, not Markdown's (a
 * highlighted block's code, a shortcode's body), and Markdown's formatters reflow it as a paragraph.
 */
const MARKDOWN_TAG = /\{\{[<%]|\{%-?\s*[A-Za-z_]/;
/**
 * Code in whose syntax `{{ ... }}` is ordinary: a JSX attribute's object (`style={{ color: "red" }}`), a Go composite
 * literal (`[]T{{1}}`), a brace escaped in a Rust or Python format string. Under a `templates/` folder such a file is
 * a template only by its extension (a React app's `templates/` holds components, not Jinja).
 */
const BRACES_ARE_CODE = /\.(?:[cm]?[jt]sx?|go|rs|py|pyi|c|h|cc|cpp|cxx|hh|hpp|java|kt|kts|cs|swift)$/i;
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

/** The skip reason: what the file is, and what poly leaves undone with it for `kind`. */
function reason(detail: string, kind: "lint" | "fmt", language: string): string {
  return kind === "fmt"
    ? `template file (${detail}): left alone by formatters`
    : `template file (${detail}): not ${language} until rendered, so neither linted nor formatted`;
}

/** What a file is by its name, as the reasons say it. */
function languageOf(lower: string): string {
  return YAML_RE.test(lower) ? "YAML" : TOML_RE.test(lower) ? "TOML" : "its language";
}

/**
 * Why a file must not be linted (`kind` "lint") or formatted ("fmt", the default)
 * because it is a template, or undefined when it is an ordinary file (or, for
 * "lint", a template its linter reads as its engine's own command line does: an
 * HTML one). `relPath` uses `/` separators.
 */
export function templateReason(relPath: string, text: string, kind: "lint" | "fmt" = "fmt"): string | undefined {
  const lower = relPath.toLowerCase();
  const ext = TEMPLATE_EXTENSION.exec(lower)?.[0];
  if (ext) return reason(ext, kind, languageOf(lower.slice(0, -ext.length)));
  // Without `{{` or `{%` no rule below applies (the common case: no split, no scan).
  if (!text.includes("{{") && !text.includes("{%")) return undefined;
  if (HTML_RE.test(lower)) {
    // biome lint reads such a file as HTML, as poly's lint does; only formatting leaves it alone.
    if (kind !== "fmt") return undefined;
    const tag = BLOCK_TAG.exec(text);
    if (tag) {
      const line = lineAt(text, tag.index);
      return reason(`Jinja, Django or Liquid block tag "{%" at line ${line} of HTML`, kind, "HTML");
    }
    // HTML's formatter would join and split the actions (hugo-PaperMod: 23 of its 39 layouts).
    const action = ACTION_TAG.exec(text);
    if (!action) return undefined;
    const line = lineAt(text, action.index);
    const shown = text.slice(action.index).match(/^\{\{-?\s*\S{0,8}|^\s-\}\}/)![0].trim();
    return reason(`Go, Handlebars or Mustache template action "${shown}" at line ${line} of HTML`, kind, "HTML");
  }
  const inTemplatesDir = lower.split("/").slice(0, -1).includes("templates") && !BRACES_ARE_CODE.test(lower);
  if (inTemplatesDir && TEMPLATE_SYNTAX.test(text.replace(ACTIONS_EXPR, ""))) {
    return reason(
      YAML_RE.test(lower) ? "Helm chart template with {{ ... }}" : "file under templates/ with {{ ... }}",
      kind,
      languageOf(lower),
    );
  }
  if (MARKDOWN_RE.test(lower)) {
    // markdownlint-cli2 lints such a file as Markdown, as poly's lint does; only formatting leaves it alone.
    if (kind !== "fmt") return undefined;
    const tag = MARKDOWN_TAG.exec(proseOf(text));
    if (!tag) return undefined;
    const line = lineAt(text, tag.index);
    const [what, shown] = tag[0].startsWith("{{") ? ["Hugo shortcode", tag[0]] : ["Jekyll, Liquid or Jinja tag", "{%"];
    return reason(`${what} "${shown}" at line ${line} of Markdown`, kind, "Markdown");
  }
  if ((YAML_RE.test(lower) || TOML_RE.test(lower)) && hasBareTemplateSyntax(text)) {
    return reason(
      `${YAML_RE.test(lower) ? "YAML" : "TOML"} with template syntax {{ ... }} or {% ... %}`,
      kind,
      languageOf(lower),
    );
  }
  return undefined;
}

/**
 * `text` with its fenced code blocks and code spans blanked (the same length, line breaks kept): a tag shown in code is
 * an example, not the file's own template syntax.
 */
function proseOf(text: string): string {
  const blank = (part: string) => part.replace(/[^\n]/g, " ");
  let fence: string | undefined;
  return text.split(/(?<=\n)/).map((line) => {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined) {
      if (open) {
        fence = open;
        return blank(line);
      }
      return line.replace(/(`+)[^`]*?\1/g, blank);
    }
    if (open && open[0] === fence[0] && open.length >= fence.length && /^\s*[`~]+\s*$/.test(line)) fence = undefined;
    return blank(line);
  }).join("");
}

/** The line (from 1) of `text` holding the character at `index`. */
function lineAt(text: string, index: number): number {
  return text.slice(0, index).split("\n").length;
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

/** dbt and Jinja expressions or statements in SQL. */
const SQL_TAG = /\{\{|\{%/;

/**
 * Why every engine leaves `text` (of the given language) alone because it is a
 * template dialect hidden behind an ordinary extension, or undefined. Only SQL is
 * judged here (HTML templates are linted as HTML, as `biome lint` does, and
 * {@link templateReason} keeps formatters off them).
 *
 * @example
 * ```ts
 * detectTemplate("sql", "select * from {{ ref('orders') }}");
 * // 'template file (a dbt or Jinja template, "{{" at line 1): left alone by every engine'
 * ```
 */
export function detectTemplate(language: Language, text: string): string | undefined {
  if (language !== "sql") return undefined;
  const match = SQL_TAG.exec(text);
  if (!match) return undefined;
  const tag = text.slice(match.index, match.index + 2);
  const line = lineAt(text, match.index);
  return everyEngine(`a dbt or Jinja template, "${tag}" at line ${line}`);
}
