import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { Ajv } from "ajv";
import { encodeSarif, ruleId } from "../../lib/report/mod.ts";
import { fixtureReport, report, TREE } from "./_fixture.ts";

const schema = JSON.parse(
  Deno.readTextFileSync(join(import.meta.dirname!, "testdata", "sarif-2.1.0-subset.schema.json")),
);
const validate = new Ajv({ allErrors: true }).compile(schema);

// deno-lint-ignore no-explicit-any
type Json = any;

function sarif(r = fixtureReport("lint")): Json {
  return JSON.parse(encodeSarif(r, { cwd: TREE }));
}

Deno.test("encodeSarif() meets the key requirements of the SARIF 2.1.0 schema", () => {
  for (const name of ["lint", "fmt", "lint-fix"]) {
    const log = sarif(fixtureReport(name));
    equal(validate(log), true, `${name}: ${JSON.stringify(validate.errors, null, 2)}`);
    equal(log.version, "2.1.0");
    equal(log.runs[0].tool.driver.name, "poly");
  }
});

Deno.test("encodeSarif() gives every result a rule that its ruleIndex points at", () => {
  const run = sarif().runs[0];
  equal(run.results.length, 9);
  for (const result of run.results) equal(run.tool.driver.rules[result.ruleIndex].id, result.ruleId);
  deepEqual(run.tool.driver.rules.map((r: Json) => r.id), [
    "ast-grep",
    "biome/lint/style/useTemplate",
    "biome/lint/suspicious/noDoubleEquals",
    "cargo clippy/clippy::needless_return",
    "ruff/E501",
    "ruff/E999",
    "ruff/F401",
    "ruff/F821",
  ]);
});

Deno.test("encodeSarif() maps severities to levels and spans to regions", () => {
  const results = sarif().runs[0].results;
  const first = results[0];
  equal(first.ruleId, "ruff/F401");
  equal(first.level, "error");
  deepEqual(first.locations[0].physicalLocation, {
    artifactLocation: { uri: "src/app.py", uriBaseId: "%SRCROOT%" },
    region: { startLine: 1, startColumn: 8, endLine: 1, endColumn: 10 },
  });
  deepEqual([...new Set(results.map((r: Json) => r.level))].sort(), ["error", "note", "warning"]);
});

Deno.test("encodeSarif() reports errored files as failed tool execution notifications", () => {
  const invocation = sarif().runs[0].invocations[0];
  equal(invocation.executionSuccessful, false);
  equal(invocation.exitCode, 2);
  const errors = invocation.toolExecutionNotifications.filter((n: Json) => n.level === "error");
  equal(errors[0].message.text, "poly could not process this file: could not parse: Expected an expression at 3:5");
  equal(errors[0].locations[0].physicalLocation.artifactLocation.uri, "src/broken.py");
  const clean = JSON.parse(encodeSarif(report(), { cwd: TREE })).runs[0];
  deepEqual(clean.results, []);
  equal(clean.invocations[0].executionSuccessful, true);
});

Deno.test("encodeSarif() encodes paths as URIs and formatting drift as results", () => {
  const log = sarif(report({ kind: "fmt", results: [{ path: "my dir/a#b.py", changed: true }] }));
  const result = log.runs[0].results[0];
  equal(result.ruleId, "poly/format");
  equal(result.locations[0].physicalLocation.artifactLocation.uri, "my%20dir/a%23b.py");
  equal(ruleId({ engine: "ruff" }), "ruff");
});

Deno.test("encodeSarif() turns a workspace finding without a file into a notification", () => {
  const r = report({
    workspace: {
      jobs: [{
        name: "deny",
        status: "failed",
        diagnostics: [{ engine: "cargo-deny", code: "A001", severity: "error", title: "advisory" }],
      }],
    },
  });
  const run = sarif(r).runs[0];
  deepEqual(run.results, []);
  equal(run.invocations[0].toolExecutionNotifications[0].message.text, "cargo-deny/A001: advisory");
  equal(validate(sarif(r)), true);
});

Deno.test("encodeSarif() describes every rule: Pascal-case name, short and full description, help; a help URI from the engines' metadata", () => {
  const log = JSON.parse(encodeSarif(
    report({
      results: [{
        path: "a.py",
        diagnostics: [
          { engine: "ruff", code: "F401", severity: "error", title: "`os` imported but unused" },
          {
            engine: "biome",
            code: "lint/suspicious/noDoubleEquals",
            severity: "error",
            title: "Use === instead of ==",
          },
          {
            engine: "markdownlint",
            code: "MD013/line-length",
            severity: "error",
            title: "Line length [Expected: 80; Actual: 99]",
            url: "https://github.com/DavidAnson/markdownlint/blob/v0.42.1/doc/md013.md",
          },
          { engine: "ruff", code: "XYZ999", severity: "error", title: "From a newer ruff" },
        ],
      }],
    }),
    { cwd: "/w" },
  ));
  const rules = log.runs[0].tool.driver.rules as Record<string, unknown>[];
  for (const rule of rules) {
    for (const key of ["name", "shortDescription", "fullDescription", "help"]) ok(rule[key], `${rule.id} has ${key}`);
    match(rule.name as string, /^[A-Z][A-Za-z0-9]*$/);
  }
  const byId = Object.fromEntries(rules.map((r) => [r.id, r]));
  equal(byId["ruff/F401"].helpUri, "https://docs.astral.sh/ruff/rules/unused-import/");
  equal(byId["ruff/F401"].name, "UnusedImport");
  deepEqual(byId["ruff/F401"].shortDescription, { text: "Unused import." });
  equal(byId["biome/lint/suspicious/noDoubleEquals"].helpUri, "https://biomejs.dev/linter/rules/no-double-equals/");
  deepEqual(byId["markdownlint/MD013/line-length"].shortDescription, { text: "Line length." });
  equal(byId["markdownlint/MD013/line-length"].name, "LineLength");
  equal(byId["ruff/XYZ999"].helpUri, undefined, "a code the table does not know has no page");
});
