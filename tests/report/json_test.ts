import { deepEqual, equal } from "node:assert/strict";
import { decode } from "@toon-format/toon";
import { encodeJson, encodeToon } from "../../lib/report/mod.ts";
import { fixtureReport, report } from "./_fixture.ts";

Deno.test("encodeJson() writes keys in schema order whatever order they were built in", () => {
  const scrambled = {
    poly: report().poly,
    summary: { errored: 0, skipped: 0, checked: 1 },
    configs: [],
    skipped: [],
    errors: [],
    results: [{ diagnostics: [{ title: "t", severity: "warning" as const, engine: "ruff" }], path: "a.py" }],
    mode: "check" as const,
    kind: "lint" as const,
  };
  const doc = JSON.parse(encodeJson(scrambled));
  deepEqual(Object.keys(doc), ["kind", "mode", "results", "errors", "skipped", "summary", "configs", "poly"]);
  deepEqual(Object.keys(doc.summary), ["checked", "skipped", "errored"]);
  deepEqual(Object.keys(doc.results[0].diagnostics[0]), ["engine", "severity", "title"]);
});

Deno.test("encodeJson() is two-space JSON with a final newline that parses back to the sorted report", () => {
  const text = encodeJson(fixtureReport("lint"));
  equal(text.endsWith("}\n"), true);
  equal(text.split("\n")[1], '  "kind": "lint",');
  const doc = JSON.parse(text);
  deepEqual(doc.results.map((r: { path: string }) => r.path), [
    "src/app.py",
    "src/broken.py",
    "src/escape.py",
    "src/generated.py",
    "src/long.js",
    "src/web/main.ts",
    "vendor/main.zig",
  ]);
});

Deno.test("encodeToon() decodes to the same document encodeJson() prints", () => {
  for (const name of ["lint", "fmt", "lint-fix"]) {
    const r = fixtureReport(name);
    deepEqual(decode(encodeToon(r)), JSON.parse(encodeJson(r)), name);
  }
});

Deno.test("encodeToon() is shorter than the JSON it mirrors", () => {
  const r = fixtureReport("lint");
  equal(encodeToon(r).length < encodeJson(r).length, true);
});
