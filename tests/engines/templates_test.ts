import { equal } from "node:assert/strict";
import { templateReason } from "../../lib/engines/templates.ts";

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
