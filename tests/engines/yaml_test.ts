import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { assertGolden } from "../_helpers/cli.ts";
import { yaml } from "../../lib/engines/yaml/mod.ts";
import type { Diagnostic } from "../../lib/report/schema.ts";
import { diagnosticsJson, fixture, GOLDEN, settings } from "./_harness.ts";

Deno.test("yaml lint() matches the golden diagnostics (duplicate key, bad indentation)", async () => {
  const out = await (await yaml.load()).lint!(await fixture("yaml/bad.yaml", "yaml"), settings());
  await assertGolden(join(GOLDEN, "yaml", "bad.yaml.json"), diagnosticsJson(out.diagnostics));
});

Deno.test("yaml lint() checks every document of a stream and honours unique_keys", async () => {
  const engine = await yaml.load();
  const file = { path: "/x/a.yaml", relPath: "a.yaml", language: "yaml" as const, text: "a: 1\n---\nb: 1\nb: 2\n" };
  const out = await engine.lint!(file, settings());
  equal(out.diagnostics.length, 1);
  equal(out.diagnostics[0].code, "duplicate-key");
  equal(out.diagnostics[0].span?.start_line, 4);
  equal((await engine.lint!(file, settings({ unique_keys: false }))).diagnostics.length, 0);
});

/** The parity fixture of application tags and merge keys (its README gives yamllint's and PyYAML's verdicts). */
const PARITY = "../../tests/engines/testdata/parity/yaml-tags-merge-keys";

Deno.test("yaml lint() accepts application tags: mkdocs, CloudFormation, GitLab CI, Home Assistant (parity/yaml-tags-merge-keys)", async () => {
  const engine = await yaml.load();
  for (const name of ["mkdocs.yml", "template.yaml", ".gitlab-ci.yml", "configuration.yaml"]) {
    const out = await engine.lint!(await fixture(`${PARITY}/${name}`, "yaml"), settings());
    deepEqual(out.diagnostics, [], name);
  }
  for (const version of ["1.1", "1.2"]) {
    const text = [
      "%TAG !e! tag:example.com,2000:app/",
      "---",
      "a: !e!thing 1",
      "b: !<tag:example.com,2000:other> {x: 1}",
      "!Ref c: !Ref [d]",
      "",
    ].join("\n");
    deepEqual(codes(await engine.lint!(yamlFile(text), settings({ version }))), [], version);
  }
});

Deno.test("yaml lint() allows several YAML 1.1 merge keys in one mapping, in both versions", async () => {
  const engine = await yaml.load();
  const text = "a: &a {x: 1}\nb: &b {y: 2}\nc:\n  <<: *a\n  <<: *b\n  z: 3\n";
  for (const version of ["1.1", "1.2"]) {
    deepEqual(codes(await engine.lint!(yamlFile(text), settings({ version }))), [], version);
  }
});

Deno.test("yaml lint() still reports a duplicated ordinary key and genuine errors beside tags and merge keys", async () => {
  const engine = await yaml.load();
  deepEqual(codes(await engine.lint!(await fixture(`${PARITY}/duplicate.yaml`, "yaml"), settings())), [
    "2:1 error duplicate-key",
  ]);
  const merged = "a: &a {x: 1}\nb:\n  <<: *a\n  <<: *a\n  k: 1\n  k: !Ref 2\n";
  deepEqual(codes(await engine.lint!(yamlFile(merged), settings())), ["6:3 error duplicate-key"]);
  // A quoted "<<" is an ordinary key, not a merge key.
  deepEqual(codes(await engine.lint!(yamlFile('a:\n  "<<": 1\n  "<<": 2\n'), settings())), ["3:3 error duplicate-key"]);
  // A syntax error and an undeclared tag handle stay errors; a YAML tag on the wrong kind of node stays a warning.
  deepEqual(codes(await engine.lint!(yamlFile("a: !Ref x\nb: [\n"), settings())), ["3:1 error bad-indent"]);
  deepEqual(codes(await engine.lint!(yamlFile("a: !e!x 1\n"), settings())), ["1:4 error tag-resolve-failed"]);
  deepEqual(codes(await engine.lint!(yamlFile("a: !!str {b: 1}\n"), settings())), ["1:4 warning tag-resolve-failed"]);
});

function yamlFile(text: string) {
  return { path: "/x/a.yaml", relPath: "a.yaml", language: "yaml" as const, text };
}

function codes(out: { diagnostics: Diagnostic[] }): string[] {
  return out.diagnostics.map((d) => `${d.span?.start_line}:${d.span?.start_col} ${d.severity} ${d.code}`);
}
