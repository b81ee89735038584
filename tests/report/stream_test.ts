/**
 * Writing a report while the run goes (lib/report/stream.ts): whatever the
 * format, the bytes are those `encodeReport()` gives for the whole report, and
 * JSON and GitHub annotations are written as the results come, not at the end.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { encodeReport, REPORT_FORMATS, reportWriter } from "../../lib/report/encode.ts";
import type { FileResult, Report } from "../../lib/report/schema.ts";
import { fixtureReport, report, TREE } from "./_fixture.ts";

/** Writes `whole` through a writer, its results one by one (in path order, as a run passes them); what was written. */
async function streamed(whole: Report, format: typeof REPORT_FORMATS[number]): Promise<string> {
  let text = "";
  const writer = reportWriter(format, { color: false, cwd: TREE }, whole, (chunk) => {
    text += chunk;
    return Promise.resolve();
  });
  const ordered = [...whole.results].sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  for (const r of ordered) await writer.result(r);
  await writer.finish({ ...whole, results: [] });
  return text;
}

Deno.test("reportWriter() writes what encodeReport() gives for the whole report, in every format", async () => {
  const reports = [
    fixtureReport("lint"),
    fixtureReport("fmt"),
    fixtureReport("lint-fix"),
    report(),
    report({ kind: "fmt", summary: { checked: 0, skipped: 0, errored: 0, changed: 0 } }),
  ];
  for (const whole of reports) {
    for (const format of REPORT_FORMATS) {
      equal(
        await streamed(whole, format),
        encodeReport(whole, format, { color: false, cwd: TREE }),
        `${whole.kind} ${whole.mode} as ${format}`,
      );
    }
  }
});

Deno.test("reportWriter() finish() writes results it was not passed as well", async () => {
  const whole = fixtureReport("lint");
  for (const format of ["json", "github"] as const) {
    let text = "";
    const writer = reportWriter(format, { color: false, cwd: TREE }, whole, (chunk) => {
      text += chunk;
      return Promise.resolve();
    });
    await writer.result(whole.results.find((r) => r.path === "src/app.py")!);
    await writer.finish({ ...whole, results: whole.results.filter((r) => r.path !== "src/app.py") });
    equal(text, encodeReport(whole, format, { color: false, cwd: TREE }));
  }
});

Deno.test("reportWriter() json and github write results as they come: most of the document is out before finish()", async () => {
  const results: FileResult[] = Array.from({ length: 2000 }, (_, i) => ({
    path: `src/f${String(i).padStart(5, "0")}.py`,
    diagnostics: [{
      engine: "ruff",
      code: "F401",
      severity: "error",
      title: `\`m${i}\` imported but unused`,
      span: { start_line: 1, start_col: 8, end_line: 1, end_col: 10 },
    }],
  }));
  const whole = report({
    results,
    summary: { checked: 2000, skipped: 0, errored: 0, diagnostics: { error: 2000, warning: 0, info: 0, hint: 0 } },
  });
  for (const format of ["json", "github"] as const) {
    const writes: number[] = [];
    let text = "";
    const writer = reportWriter(format, { color: false, cwd: TREE }, whole, (chunk) => {
      writes.push(chunk.length);
      text += chunk;
      return Promise.resolve();
    });
    for (const r of results) await writer.result(r);
    const before = text.length;
    await writer.finish({ ...whole, results: [] });
    const expected = encodeReport(whole, format, { color: false, cwd: TREE });
    equal(text, expected);
    // Written in several pieces while the results came; only a bounded tail is left for finish().
    ok(writes.length > 2, `${format}: ${writes.length} writes`);
    ok(expected.length - before <= 64 * 1024 + 4096, `${format}: ${expected.length - before} bytes left for finish()`);
    deepEqual(writes.slice(0, -1).every((n) => n >= 64 * 1024), true);
  }
});
