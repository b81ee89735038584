/**
 * Writing a report while the run goes (lib/report/stream.ts): whatever the
 * format, the bytes are those `encodeReport()` gives for the whole report; JSON
 * and GitHub annotations are written as the results come, and what SARIF and the
 * human report keep aside goes to a temporary file past a bound.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { type EncodeOptions, encodeReport, REPORT_FORMATS, reportWriter } from "../../lib/report/encode.ts";
import { keptResults, Spool } from "../../lib/report/stream.ts";
import type { FileResult, Report } from "../../lib/report/schema.ts";
import { fixtureReport, report, TREE } from "./_fixture.ts";

const decoder = new TextDecoder();
/** A writer's chunk as text (a writer writes UTF-8 bytes, each chunk whole characters). */
const textOf = (chunk: string | Uint8Array) => typeof chunk === "string" ? chunk : decoder.decode(chunk);

/** Writes `whole` through a writer, its results one by one (in path order, as a run passes them); what was written. */
async function streamed(
  whole: Report,
  format: typeof REPORT_FORMATS[number],
  options: EncodeOptions = { color: false, cwd: TREE },
): Promise<string> {
  let text = "";
  const writer = reportWriter(format, options, whole, (chunk) => {
    text += textOf(chunk);
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
      text += textOf(chunk);
      return Promise.resolve();
    });
    await writer.result(whole.results.find((r) => r.path === "src/app.py")!);
    await writer.finish({ ...whole, results: whole.results.filter((r) => r.path !== "src/app.py") });
    equal(text, encodeReport(whole, format, { color: false, cwd: TREE }));
  }
});

Deno.test("a JSON writer's kept text, resumed by another writer, writes the same document (a replayed run's)", async () => {
  for (const whole of [fixtureReport("lint"), fixtureReport("fmt"), report()]) {
    const ordered = [...whole.results].sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    for (const passed of new Set([ordered.length, Math.min(1, ordered.length), 0])) {
      const kept: string[] = [];
      const writer = reportWriter("json", { color: false, cwd: TREE }, whole, () => Promise.resolve(), (t) => {
        kept.push(textOf(t));
      });
      for (const r of ordered.slice(0, passed)) await writer.result(r);
      // Resumed from the text, and from its bytes as a replay reads them back (written as they are).
      for (const resumed of [kept.join(""), new TextEncoder().encode(kept.join(""))]) {
        let text = "";
        const again = reportWriter("json", { color: false, cwd: TREE }, whole, (chunk) => {
          text += textOf(chunk);
          return Promise.resolve();
        });
        await again.resume!(resumed, passed);
        await again.finish({ ...whole, results: ordered.slice(passed) });
        const label = `${whole.kind}, ${passed} passed, resumed from ${typeof resumed === "string" ? "text" : "bytes"}`;
        equal(text, encodeReport(whole, "json", { color: false, cwd: TREE }), label);
      }
    }
  }
});

Deno.test("a JSON writer's kept text splits into its results, each written again by encoded() as result() writes it", async () => {
  for (const whole of [fixtureReport("lint"), fixtureReport("fmt"), report()]) {
    const ordered = [...whole.results].sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    const kept: string[] = [];
    const writer = reportWriter("json", { color: false, cwd: TREE }, whole, () => Promise.resolve(), (t) => {
      kept.push(textOf(t));
    });
    for (const r of ordered) await writer.result(r);
    const parts = keptResults(new TextEncoder().encode(kept.join("")));
    deepEqual(parts.map((p) => p.path), ordered.map((r) => r.path));
    let text = "";
    const again = reportWriter("json", { color: false, cwd: TREE }, whole, (chunk) => {
      text += textOf(chunk);
      return Promise.resolve();
    });
    for (const part of parts) await again.encoded!(part.bytes);
    await again.finish({ ...whole, results: [] });
    equal(text, encodeReport(whole, "json", { color: false, cwd: TREE }), whole.kind);
  }
  deepEqual(keptResults(new Uint8Array()), []);
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
      text += textOf(chunk);
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
    // Each write but the last is a chunk full but for less than the result that did not fit.
    deepEqual(writes.slice(0, -1).every((n) => n > 63 * 1024 && n <= 64 * 1024), true);
  }
});

Deno.test("reportWriter() matches encodeReport() with summarised skips, run errors among the files, and the human options", async () => {
  const results: FileResult[] = [];
  for (let i = 0; i < 40; i++) {
    const path = `d${i % 4}/f${String(i).padStart(2, "0")}.py`;
    if (i % 3 === 0) results.push({ path, skipped: i % 2 ? "binary file" : "no engine lints Zig" });
    else {
      results.push({
        path,
        diagnostics: [
          { engine: "ruff", code: i % 2 ? "F401" : "E711", severity: "error", title: `finding ${i}` },
          {
            engine: "biome",
            code: "lint/x",
            severity: "warning",
            title: "w",
            fix: [{ start_byte: 0, end_byte: 1, replacement: "" }],
          },
        ],
      });
    }
  }
  const skipped = results.filter((r) => r.skipped).map((r) => ({ path: r.path, reason: r.skipped! }));
  const whole = report({
    results,
    // Run-level problems whose paths sort among the files' (and one skip with no file record).
    errors: [{ path: "d1/rules.yml", message: "bad rule" }, { path: "", message: "no path" }],
    skipped: [...skipped, { path: "d2/a.zig", reason: "no engine lints Zig" }],
    summary: { checked: 26, skipped: 15, errored: 2, diagnostics: { error: 26, warning: 26, info: 0, hint: 0 } },
  });
  const variants: EncodeOptions[] = [
    { color: false, cwd: TREE },
    { color: true, cwd: TREE },
    { color: false, cwd: TREE, statistics: true },
    { color: false, cwd: TREE, maxDiagnostics: 7 },
  ];
  for (const options of variants) {
    for (const format of REPORT_FORMATS) {
      equal(
        await streamed(whole, format, options),
        encodeReport(whole, format, options),
        `${format} ${JSON.stringify(options)}`,
      );
    }
  }
  // Few skips are listed one by one, each in its place among the files.
  const few = report({ ...whole, results: results.slice(0, 8), skipped: skipped.slice(0, 3) });
  for (const format of REPORT_FORMATS) {
    equal(await streamed(few, format), encodeReport(few, format, { color: false, cwd: TREE }), format);
  }
});

Deno.test("Spool keeps lines in memory up to its bound, then in a temporary file it removes once read", async () => {
  const spool = new Spool(100);
  const lines = Array.from({ length: 500 }, (_, i) => JSON.stringify([`p${i}`, "é\n😀", i]));
  for (const line of lines) await spool.add(line);
  equal(spool.spilled, true);
  const back: string[] = [];
  for await (const line of spool.lines()) back.push(line);
  deepEqual(back, lines);
  equal(spool.spilled, false);
  const small = new Spool();
  await small.add("one");
  equal(small.spilled, false);
  const out: string[] = [];
  for await (const line of small.lines()) out.push(line);
  deepEqual(out, ["one"]);
});

Deno.test("a JSON writer's end made again for a report that differs from the last one anywhere in it", async () => {
  const results: FileResult[] = [{ path: "a.py", skipped: "binary file" }, { path: "b.ts" }];
  const base = report({
    results,
    skipped: [{ path: "a.py", reason: "binary file" }],
    configs: [{ hash: "1/0123456789abcdef", sources: ["poly.toml"] }],
    summary: { checked: 1, skipped: 1, errored: 0 },
  });
  const variants: Report[] = [
    base,
    base, // the same again: the kept end
    { ...base, skipped: [{ path: "a.py", reason: "file too large" }] },
    { ...base, skipped: [{ path: "a.pyi", reason: "file too large" }] },
    { ...base, errors: [{ path: "b.ts", message: "unreadable" }] },
    { ...base, configs: [{ hash: "1/0123456789abcdef", sources: ["poly.local.toml"] }] },
    { ...base, configs: [{ hash: "1/0123456789abcdef" }] },
    { ...base, summary: { checked: 2, skipped: 1, errored: 0 } },
    { ...base, mode: "fix" },
    { ...base, results: [] }, // no result before the end: the whole document
    base,
  ];
  for (const [i, whole] of variants.entries()) {
    equal(await streamed(whole, "json"), encodeReport(whole, "json", { color: false, cwd: TREE }), `variant ${i}`);
  }
  // A report changed in place after it was written is not mistaken for the one written.
  const changing = report({ skipped: [{ path: "x", reason: "one" }] });
  equal(await streamed(changing, "json"), encodeReport(changing, "json", { color: false, cwd: TREE }));
  changing.skipped[0].reason = "two";
  equal(await streamed(changing, "json"), encodeReport(changing, "json", { color: false, cwd: TREE }));
});
