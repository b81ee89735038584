import { equal } from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { encodeReport, REPORT_FORMATS, type ReportFormat } from "../../lib/report/mod.ts";
import { assertGolden } from "../_helpers/cli.ts";
import { validateReport } from "../_helpers/report_schema.ts";
import { fixtureReport, GOLDEN, TREE } from "./_fixture.ts";

const EXTENSION: Record<ReportFormat, string> = {
  human: "human.txt",
  json: "json",
  toon: "toon",
  sarif: "sarif.json",
  github: "github.txt",
};

/** SARIF names the cwd as a file URL; the golden file must not depend on the checkout's location. */
function portable(text: string): string {
  return text.replaceAll(pathToFileURL(TREE + "/").href, "file:///CWD/");
}

for (const name of ["lint", "fmt"]) {
  Deno.test(`the ${name} fixture report is valid against the committed schema`, () => {
    equal(validateReport(fixtureReport(name)).join("\n"), "");
  });
  for (const format of REPORT_FORMATS) {
    Deno.test(`encodeReport() renders the ${name} fixture as ${format} (golden)`, async () => {
      const text = encodeReport(fixtureReport(name), format, { color: false, cwd: TREE });
      await assertGolden(join(GOLDEN, `${name}.${EXTENSION[format]}`), portable(text));
    });
  }
}

Deno.test("encodeReport() renders the lint fixture as coloured human text (golden)", async () => {
  const text = encodeReport(fixtureReport("lint"), "human", { color: true, cwd: TREE });
  await assertGolden(join(GOLDEN, "lint.human-color.txt"), text);
});

Deno.test("encodeReport() renders a lint --fix report as human text (golden)", async () => {
  equal(validateReport(fixtureReport("lint-fix")).join("\n"), "");
  const text = encodeReport(fixtureReport("lint-fix"), "human", { color: false, cwd: TREE });
  await assertGolden(join(GOLDEN, "lint-fix.human.txt"), text);
});

Deno.test("encodeReport() output is identical for shuffled input", () => {
  const base = fixtureReport("lint");
  const shuffled = {
    ...base,
    results: [...base.results].reverse().map((r) =>
      r.diagnostics ? { ...r, diagnostics: [...r.diagnostics].reverse() } : r
    ),
  };
  for (const format of REPORT_FORMATS) {
    equal(
      encodeReport(shuffled, format, { color: false, cwd: TREE }),
      encodeReport(base, format, { color: false, cwd: TREE }),
      format,
    );
  }
});
