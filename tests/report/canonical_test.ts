/**
 * The hand-written canonical form of a report (lib/report/_canonical.ts) gives
 * exactly what the schema gives, and steps aside for anything it does not fit.
 */
import assert from "node:assert/strict";
import { canonicalDocument } from "../../lib/report/_canonical.ts";
import { canonicalReport, encodeJson, encodeToon } from "../../lib/report/json.ts";
import { FileResult, Report, RunError, RunSkip } from "../../lib/report/schema.ts";
import { z } from "zod";
import { encode } from "@toon-format/toon";

const RESULTS: unknown[] = [
  { path: "a.py" },
  { error: "cannot read", path: "b.py", config: 2 },
  {
    unknown_key: 1,
    path: "c.ts",
    diagnostics: [
      { title: "t", severity: "error", engine: "biome", code: "lint/x", extra: true },
      {
        fix: [{ replacement: "y", end_byte: 3, start_byte: 1 }],
        url: "https://x",
        span: { end_col: 4, end_line: 1, start_col: 2, start_line: 1 },
        description: "d",
        title: "u",
        severity: "hint",
        engine: "ast-grep",
      },
    ],
    fixed: 0,
  },
  { changed: true, diff: "--- a\n+++ b\n", path: "d.go" },
  { skipped: "no lint engine for C", path: "e.c" },
];

/** canonicalDocument()'s form of one list, in a document that fits the schema otherwise. */
function canonicalPart(key: "results" | "errors" | "skipped", list: unknown): unknown {
  return canonicalDocument({ ...FULL, [key]: list } as unknown as Report)?.[key];
}
const canonicalResults = (list: unknown) => canonicalPart("results", list);
const canonicalErrors = (list: unknown) => canonicalPart("errors", list);
const canonicalSkips = (list: unknown) => canonicalPart("skipped", list);

Deno.test("canonicalDocument() gives the schema's per-file records: key order, unknown keys dropped", () => {
  const fast = canonicalResults(RESULTS);
  const slow = z.array(FileResult).parse(RESULTS);
  assert.equal(JSON.stringify(fast), JSON.stringify(slow));
  assert.deepEqual(fast, slow);
});

Deno.test("canonicalDocument() steps aside for a per-file record the schema refuses", () => {
  for (
    const bad of [
      [{ path: 1 }],
      [{ path: "a", config: 0 }],
      [{ path: "a", diagnostics: [{ engine: "x", severity: "fatal", title: "t" }] }],
      [{ path: "a", diagnostics: [{ engine: "x", severity: "error", title: "t", span: { start_line: 0 } }] }],
      [{ path: "a", changed: "yes" }],
      [{ path: "a", diagnostics: [{ engine: "x", severity: "error", title: "t", fix: [{ start_byte: -1 }] }] }],
      [null],
    ]
  ) {
    assert.equal(canonicalResults(bad), undefined, JSON.stringify(bad));
    assert.equal(z.array(FileResult).safeParse(bad).success, false, JSON.stringify(bad));
  }
});

Deno.test("canonicalReport() gives the schema's document, in JSON and TOON", () => {
  const report = {
    kind: "lint",
    mode: "check",
    results: RESULTS,
    errors: [{ message: "cannot read", path: "b.py" }],
    skipped: [{ reason: "no lint engine for C", path: "e.c" }],
    summary: { checked: 3, skipped: 1, errored: 1, diagnostics: { error: 1, warning: 0, info: 0, hint: 1 } },
    configs: [{ sources: ["poly.toml"], hash: "1/0123456789abcdef" }],
    poly: {
      version: "0.1.0",
      build_id: "dev",
      channel: "dev",
      executable: "/x",
      pid: 1,
      engines_digest: "0123456789abcdef",
      engines: {},
    },
  } as unknown as Report;
  const viaSchema = Report.safeParse(report);
  assert.ok(viaSchema.success, JSON.stringify(viaSchema.error?.issues));
  assert.deepEqual(canonicalReport(report), viaSchema.data);
  assert.equal(encodeJson(report), JSON.stringify(viaSchema.data, null, 2) + "\n");
  assert.equal(encodeToon(report), encode(viaSchema.data) + "\n");
});

Deno.test("canonicalDocument() gives the schema's run-level errors and skips, and steps aside for what it refuses", () => {
  const errors = [{ message: "m", extra: 1, path: "a" }, { path: "b", message: "n" }];
  const skipped = [{ reason: "r", path: "c" }];
  assert.equal(JSON.stringify(canonicalErrors(errors)), JSON.stringify(z.array(RunError).parse(errors)));
  assert.equal(JSON.stringify(canonicalSkips(skipped)), JSON.stringify(z.array(RunSkip).parse(skipped)));
  for (const bad of [[{ path: 1, message: "m" }], [{ path: "a" }], [null], "x"]) {
    assert.equal(canonicalErrors(bad), undefined, JSON.stringify(bad));
    assert.equal(canonicalSkips(bad), undefined, JSON.stringify(bad));
  }
});

/** Every part of the document the schema names, each with keys out of order and some it does not name. */
const FULL = {
  extra: "dropped",
  poly: {
    engines: { biome: { digest: "d1", version: "2.5.14", extra: 1 }, ruff: { version: "0.17.3", digest: "d2" } },
    engines_digest: "0123456789abcdef",
    pid: 42,
    executable: "/usr/bin/poly",
    channel: "release",
    build_id: "b",
    version: "1.0.0",
    extra: true,
  },
  workspace: {
    jobs: [
      {
        cached: false,
        command: ["cargo", "clippy"],
        cwd: "crates/a",
        output: "warning: x",
        diagnostics: [{ path: "src/lib.rs", title: "x", severity: "warning", engine: "clippy", extra: 1 }],
        duration_ms: 12.5,
        reason: "r",
        status: "failed",
        name: "clippy",
        extra: 1,
      },
      { status: "passed", name: "vet" },
    ],
    extra: 1,
  },
  configs: [{ hash: "1/0123456789abcdef" }, { sources: ["a/poly.toml", "b"], hash: "1/fedcba9876543210", x: 1 }],
  summary: {
    cache: { misses: 2, hits: 1, extra: 0 },
    changed: 0,
    fixed: 3,
    diagnostics: { hint: 0, info: 0, warning: 1, error: 2 },
    errored: 1,
    skipped: 1,
    checked: 2,
    extra: 1,
  },
  skipped: [{ reason: "no lint engine for C", path: "e.c" }],
  errors: [{ message: "cannot read", path: "b.py" }],
  results: RESULTS,
  mode: "fix",
  kind: "lint",
};

Deno.test("canonicalDocument() equals the schema's parse of a whole report, and steps aside for what it refuses", () => {
  assert.equal(JSON.stringify(canonicalDocument(FULL as unknown as Report)), JSON.stringify(Report.parse(FULL)));
  const minimal = { ...FULL, workspace: undefined, summary: { checked: 0, skipped: 0, errored: 0 } };
  assert.equal(JSON.stringify(canonicalDocument(minimal as unknown as Report)), JSON.stringify(Report.parse(minimal)));
  const bad: Record<string, unknown>[] = [
    { ...FULL, kind: "other" },
    { ...FULL, summary: { ...FULL.summary, checked: -1 } },
    { ...FULL, configs: [{ hash: "1/xyz" }] },
    { ...FULL, poly: { ...FULL.poly, channel: "beta" } },
    { ...FULL, poly: { ...FULL.poly, pid: 1.5 } },
    { ...FULL, workspace: { jobs: [{ name: "a", status: "late" }] } },
    { ...FULL, workspace: { jobs: [{ name: "a", status: "passed", duration_ms: -1 }] } },
    { ...FULL, results: [{ path: 1 }] },
    { ...FULL, errors: "x" },
  ];
  for (const doc of bad) {
    assert.equal(canonicalDocument(doc as unknown as Report), undefined, JSON.stringify(doc).slice(0, 120));
    assert.equal(Report.safeParse(doc).success, false, JSON.stringify(doc).slice(0, 120));
  }
});
