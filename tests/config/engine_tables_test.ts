/**
 * biome's settings in poly.toml checked against biome's own schema at load
 * (`_engine_tables.ts`, `_biome_schema.ts`); the CLI's messages are in
 * fixtures/config/invalid/biome-* (invalid_test.ts).
 */
import { deepEqual, equal, match } from "node:assert/strict";
import { engineTableProblems } from "../../lib/config/_engine_tables.ts";

Deno.test("engineTableProblems() accepts biome settings biome's schema accepts", async () => {
  const raw = {
    lint: {
      typescript: {
        biome: {
          enabled: true,
          ignore: ["noDebugger"],
          rules: { noDoubleEquals: { level: "warning" } },
          configuration: {
            linter: { rules: { style: { noDefaultExport: "error", useConst: { level: "warn", fix: "safe" } } } },
            overrides: [{ includes: ["**/*.test.ts"], linter: { rules: { suspicious: { noExplicitAny: "off" } } } }],
            files: { maxSize: 4_000_000 },
          },
        },
      },
    },
    fmt: {
      javascript: {
        biome: {
          indentStyle: "tab",
          lineWidth: 100,
          configuration: { javascript: { formatter: { quoteStyle: "single" } } },
        },
      },
    },
  };
  deepEqual(await engineTableProblems(raw), []);
  deepEqual(await engineTableProblems({ lint: { python: { ruff: { select: ["E"] } } } }), []);
});

Deno.test("engineTableProblems() names the key: a misspelt rule in an override, a wrong type, a key out of place", async () => {
  const [rule] = await engineTableProblems({
    lint: {
      javascript: {
        biome: { configuration: { overrides: [{}, { linter: { rules: { suspicious: { noDebuger: "off" } } } }] } },
      },
    },
  });
  deepEqual(rule.path, [
    "lint",
    "javascript",
    "biome",
    "configuration",
    "overrides",
    1,
    "linter",
    "rules",
    "suspicious",
    "noDebuger",
  ]);
  match(rule.detail, /\(did you mean "noDebugger"\?\)$/);
  const [width] = await engineTableProblems({ fmt: { css: { biome: { lineWidth: "wide" } } } });
  equal(width.detail, 'invalid value for "fmt.css.biome.lineWidth": biome expects an integer, got a string ("wide")');
  const [quote] = await engineTableProblems({ fmt: { json: { biome: { trailingCommas: "none" } } } });
  match(quote.detail, /biome reads it from its JSON formatter options: configuration = \{ json = \{ formatter/);
  const [lint] = await engineTableProblems({ lint: { css: { biome: { indentStyle: "tab" } } } });
  match(lint.detail, /^unknown key "lint\.css\.biome\.indentStyle" \(expected one of: "enabled", /);
});

Deno.test("engineTableProblems() hands [lint.python.ruff] to ruff's own settings parser: selectors, settings, values", async () => {
  deepEqual(
    await engineTableProblems({
      lint: { python: { ruff: { select: ["E", "F"], ignore: ["E501"], "target-version": "py311" } } },
    }),
    [],
  );
  const [ignore] = await engineTableProblems({ lint: { python: { ruff: { ignore: ["E501", "XYZ9"] } } } });
  deepEqual(ignore.path, ["lint", "python", "ruff", "ignore", 1]);
  match(ignore.detail, /ruff does not know the rule selector "XYZ9"$/);
  const [version] = await engineTableProblems({ lint: { python: { ruff: { "target-version": "py2" } } } });
  deepEqual(version.path, ["lint", "python", "ruff", "target-version"]);
  match(version.detail, /ruff says: unknown variant `py2`, expected one of `py37`/);
});

Deno.test("engineTableProblems() refuses biome's project domain in a configuration, at that key", async () => {
  const problems = await engineTableProblems({
    lint: {
      typescript: {
        biome: { configuration: { linter: { rules: { suspicious: { noImportCycles: "error" } } } } },
      },
    },
  });
  equal(problems.length, 1, JSON.stringify(problems));
  deepEqual(problems[0].path, ["lint", "typescript", "biome", "configuration"]);
  match(problems[0].detail, /biome key "linter\.rules\.suspicious\.noImportCycles" cannot be honoured by poly/);
});

Deno.test("engineTableProblems() refuses biome's pnpm catalogs in a configuration, at that key", async () => {
  const problems = await engineTableProblems({
    lint: {
      javascript: {
        biome: { configuration: { javascript: { resolver: { experimentalPnpmCatalogs: true } } } },
      },
    },
  });
  equal(problems.length, 1, JSON.stringify(problems));
  match(
    problems[0].detail,
    /biome key "javascript\.resolver\.experimentalPnpmCatalogs" cannot be honoured by poly: biome then reads/,
  );
});
