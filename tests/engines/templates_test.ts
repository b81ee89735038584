import { equal, match } from "node:assert/strict";
import { detectTemplate, templateExtensionSkip, templateReason } from "../../lib/engines/templates.ts";

Deno.test("templateReason() flags Jinja and Go template extensions", () => {
  for (
    const p of [
      "deploy/config.yaml.j2",
      "a.jinja",
      "b.jinja2",
      "site/page.tmpl",
      "x.gotmpl",
      "chart/templates/_helpers.tpl",
    ]
  ) {
    equal(typeof templateReason(p, "a: 1"), "string", p);
  }
});

Deno.test("templateReason() flags a Helm chart template", () => {
  const reason = templateReason(
    "charts/app/templates/deployment.yaml",
    "kind: Deployment\nreplicas: {{ .Values.replicas }}\n",
  );
  equal(reason?.includes("Helm"), true, reason);
});

Deno.test("templateReason() flags bare {{ }} and {% %} in YAML and TOML", () => {
  equal(typeof templateReason("vars.yml", "name: {{ name }}\n"), "string");
  equal(typeof templateReason("a.yaml", "{% if x %}\na: 1\n{% endif %}\n"), "string");
  equal(typeof templateReason("a.toml", "name = {{ name }}\n"), "string");
});

Deno.test("templateReason() leaves ordinary files, quoted Ansible strings and GitHub expressions alone", () => {
  equal(templateReason("app.yaml", "a: 1\n"), undefined);
  equal(templateReason("playbook.yml", 'msg: "{{ greeting }}"\n'), undefined);
  equal(templateReason(".github/workflows/ci.yml", "run: echo ${{ github.sha }}\n"), undefined);
  equal(templateReason("docs/templates/guide.md", "no braces here"), undefined);
  equal(templateReason("web/index.html", "<p>{{ vue }}</p>"), undefined);
  equal(templateReason("a.yaml", "# {{ in a comment }}\na: 1\n"), undefined);
});

Deno.test("templateReason() leaves code under templates/ whose syntax has {{ }} alone: JSX, Go, Rust, Python", () => {
  // A React app's invoice templates (midday): components whose JSX passes objects to attributes.
  const tsx = 'export const Logo = () => <img style={{ width: 40, height: 40 }} alt="" />;\n';
  equal(templateReason("packages/invoice/src/templates/html/components/logo.tsx", tsx, "lint"), undefined);
  equal(templateReason("src/templates/pdf/index.jsx", "const a = <p style={{ a: 1 }} />;\n"), undefined);
  equal(templateReason("internal/templates/grid.go", "var g = [][]int{{1, 2}, {3, 4}}\n"), undefined);
  equal(templateReason("src/templates/mod.rs", 'format!("{{}} {}", a);\n'), undefined);
  equal(templateReason("app/templates/render.py", 'f"{{literal}} {x}"\n'), undefined);
  // Other files under templates/ with {{ }} still are templates: Markdown, YAML.
  equal(typeof templateReason("chart/templates/NOTES.md", "Get {{ .Release.Name }}\n", "lint"), "string");
  equal(typeof templateReason("chart/templates/svc.yaml", "port: {{ .Values.port }}\n", "lint"), "string");
});

Deno.test("templateExtensionSkip() names the extension of a template dialect, whatever the case", () => {
  equal(templateExtensionSkip("roles/web/config.yml.j2"), "template file (.j2): left alone by every engine");
  equal(templateExtensionSkip("site/PAGE.TMPL"), "template file (.tmpl): left alone by every engine");
  equal(templateExtensionSkip("x.jinja2"), "template file (.jinja2): left alone by every engine");
  equal(templateExtensionSkip("app.yaml"), undefined);
});

Deno.test("detectTemplate() judges SQL templates (HTML ones are linted as HTML), and names the first tag's line", () => {
  equal(detectTemplate("html", "<ul>\n{% for x in items %}<li>{{ x }}</li>{% endfor %}\n</ul>\n"), undefined);
  equal(detectTemplate("html", "<p>{{ angular }}</p>\n"), undefined);
  equal(
    detectTemplate("sql", "select *\nfrom {{ ref('orders') }}\n"),
    'template file (a dbt or Jinja template, "{{" at line 2): left alone by every engine',
  );
  equal(detectTemplate("python", "x = '{%'"), undefined);
});

Deno.test("every template reason has one wording: template file (<what>): what poly leaves undone", () => {
  const wording =
    /^template file \(.+\): (left alone by (formatters|every engine)|not \w+ until rendered, so neither linted nor formatted)$/;
  for (
    const reason of [
      templateReason("charts/app/templates/deploy.yaml", "kind: {{ .Values.kind }}\n"),
      templateReason("vars.yml", "name: {{ name }}\n"),
      templateExtensionSkip("a.njk"),
      templateReason("vars.yml", "name: {{ name }}\n", "lint"),
      templateReason("page.html", "{% block x %}", "fmt"),
      detectTemplate("sql", "select {{ x }}"),
    ]
  ) match(reason ?? "", wording);
});

Deno.test("templateReason() keeps a Jinja/Django/Liquid HTML template from formatters, not from linters", () => {
  const page = '{% extends "base.html" %}\n{% block content %}<p>{{ x }}</p>{% endblock %}\n';
  const fmt = templateReason("docs/overrides/main.html", page, "fmt");
  equal(fmt, 'template file (Jinja, Django or Liquid block tag "{%" at line 1 of HTML): left alone by formatters');
  equal(templateReason("docs/overrides/main.html", page, "lint"), undefined);
  equal(templateReason("web/index.html", "<p>{{ vue }}</p>", "fmt"), undefined);
});

Deno.test("templateReason() keeps Go, Handlebars and Mustache HTML templates from formatters, not interpolations", () => {
  const hugo = '<main>\n  {{- range .Pages }}\n  <a href="{{ .Permalink }}">{{ .Title }}</a>\n  {{ end -}}\n</main>\n';
  equal(
    templateReason("layouts/_default/list.html", hugo, "fmt"),
    'template file (Go, Handlebars or Mustache template action "{{- range" at line 2 of HTML): left alone by formatters',
  );
  equal(templateReason("layouts/_default/list.html", hugo, "lint"), undefined);
  match(templateReason("layouts/partials/x.html", '{{ partial "head.html" . }}', "fmt")!, /"\{\{ partial" at line 1/);
  match(templateReason("layouts/partials/c.html", "{{/* a note */}}\n<p></p>", "fmt")!, /"\{\{\/\*" at line 1/);
  match(templateReason("layouts/a.html", "<p>{{ .Title -}}</p>", "fmt")!, /"-\}\}" at line 1/);
  match(templateReason("views/card.html", "{{#if user}}<b>{{name}}</b>{{/if}}", "fmt")!, /"\{\{#if" at line 1/);
  match(templateReason("views/page.html", "<div>{{> header}}</div>", "fmt")!, /"\{\{>" at line 1/);
  // Interpolations alone (Angular's, Vue's, a Jinja expression's) are formatted.
  equal(
    templateReason("src/app/app.component.html", "<h1>{{ title }}</h1>\n<p>{{ user.name | uppercase }}</p>"),
    undefined,
  );
  equal(templateReason("src/app/x.html", '<p [class.end]="done">{{ ending }}</p>'), undefined);
});

Deno.test("templateReason() says a skipped template is left alone by linters too when it is not the language until rendered", () => {
  const helm = templateReason("charts/app/templates/deploy.yaml", "replicas: {{ .Values.n }}\n", "lint");
  equal(
    helm,
    "template file (Helm chart template with {{ ... }}): not YAML until rendered, so neither linted nor formatted",
  );
  equal(
    templateReason("charts/app/templates/deploy.yaml", "replicas: {{ .Values.n }}\n", "fmt"),
    "template file (Helm chart template with {{ ... }}): left alone by formatters",
  );
});

Deno.test("templateReason() keeps Markdown with Hugo shortcodes or Liquid tags in its prose from formatters", () => {
  const hugo = "# Post\n\n{{% notice info %}}\n* item\n{{% /notice %}}\n";
  equal(
    templateReason("content/posts/a.md", hugo, "fmt"),
    'template file (Hugo shortcode "{{%" at line 3 of Markdown): left alone by formatters',
  );
  equal(templateReason("content/posts/a.md", hugo, "lint"), undefined);
  match(templateReason("content/b.markdown", 'Text {{< ref "x.md" >}}.\n')!, /Hugo shortcode "\{\{<" at line 1/);
  equal(
    templateReason(
      "_posts/2020-01-01-x.md",
      "Intro\n\n{% highlight go %}\nfunc main() {   x() }\n{% endhighlight %}\n",
    ),
    'template file (Jekyll, Liquid or Jinja tag "{%" at line 3 of Markdown): left alone by formatters',
  );
  // Shown in code (a fence, a code span), a tag is an example: the file is formatted.
  const docs =
    "# Jinja\n\nUse `{% if x %}` or:\n\n```jinja\n{% for x in y %}\n{{< not a shortcode >}}\n```\n\n~~~\n{% raw %}\n~~~\n";
  equal(templateReason("docs/jinja.md", docs, "fmt"), undefined);
  // After the fence closes, a tag counts again (its line as the file has it).
  match(templateReason("docs/jinja.md", `${docs}\n{% include footer.html %}\n`)!, /"\{%" at line 14 of Markdown/);
  // An interpolation alone, `{{ site.title }}`, is formatted (Markdown keeps it as text).
  equal(templateReason("index.md", "# {{ site.title }}\n"), undefined);
});
