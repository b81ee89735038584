import { equal, notEqual } from "node:assert/strict";
import { summaryLine } from "../../lib/report/mod.ts";
import { report } from "./_fixture.ts";

const counts = (error = 0, warning = 0, info = 0, hint = 0) => ({ error, warning, info, hint });

Deno.test("summaryLine() states coverage and findings of a lint check", () => {
  const s = { checked: 12, skipped: 1, errored: 0, diagnostics: counts(3, 2) };
  equal(summaryLine(report({ summary: s })), "12 files checked, 1 skipped, 0 errored: 3 errors, 2 warnings");
  equal(
    summaryLine(report({ summary: { checked: 1, skipped: 0, errored: 0 } })),
    "1 file checked, 0 skipped, 0 errored: no issues found",
  );
});

Deno.test("summaryLine() never calls a run clean when nothing was checked or a file errored", () => {
  equal(
    summaryLine(report({ summary: { checked: 0, skipped: 3, errored: 0 } })),
    "0 files checked, 3 skipped, 0 errored: nothing was checked",
  );
  equal(
    summaryLine(report({ summary: { checked: 2, skipped: 0, errored: 1 } })),
    "2 files checked, 0 skipped, 1 errored: no issues found in the files checked, but not every file could be",
  );
});

Deno.test("summaryLine() after --fix never says no issues when files were rewritten", () => {
  const fixedAll = report({
    mode: "fix",
    results: [{ path: "a.py", fixed: 2 }, { path: "b.py", fixed: 2 }],
    summary: { checked: 2, skipped: 0, errored: 0, fixed: 4, diagnostics: counts() },
  });
  equal(summaryLine(fixedAll), "2 files checked, 0 skipped, 0 errored: fixed 4 issues in 2 files; none remaining");
  notEqual(summaryLine(fixedAll).includes("no issues"), true);
  // Only the summary knows about the fixes: still reported.
  const summaryOnly = report({ mode: "fix", summary: { checked: 2, skipped: 0, errored: 0, fixed: 1 } });
  equal(summaryLine(summaryOnly), "2 files checked, 0 skipped, 0 errored: fixed 1 issue; none remaining");
  // Only the records know: still reported.
  const recordsOnly = report({
    mode: "fix",
    results: [{ path: "a.py", fixed: 1, diagnostics: [{ engine: "ruff", severity: "warning", title: "x" }] }],
  });
  equal(
    summaryLine(recordsOnly),
    "1 file checked, 0 skipped, 0 errored: fixed 1 issue in 1 file; 1 remaining (1 warning)",
  );
  const nothingFixed = report({
    mode: "fix",
    summary: { checked: 1, skipped: 0, errored: 0, fixed: 0, diagnostics: counts(1) },
  });
  equal(summaryLine(nothingFixed), "1 file checked, 0 skipped, 0 errored: no fixes applied; 1 remaining (1 error)");
});

Deno.test("summaryLine() counts formatting drift and rewrites", () => {
  const check = report({ kind: "fmt", summary: { checked: 10, skipped: 0, errored: 0, changed: 2 } });
  equal(
    summaryLine(check),
    "10 files checked, 0 skipped, 0 errored: 2 files would be reformatted, 8 already formatted",
  );
  equal(
    summaryLine({ ...check, mode: "fix" }),
    "10 files checked, 0 skipped, 0 errored: 2 files reformatted, 8 already formatted",
  );
  equal(summaryLine(report({ kind: "fmt" })), "1 file checked, 0 skipped, 0 errored: all files already formatted");
});

Deno.test("summaryLine() of a format check names the files whose syntax errors kept them from being formatted", () => {
  const syntax = {
    path: "bad.py",
    diagnostics: [{ engine: "ruff", code: "invalid-syntax", severity: "error" as const, title: "bad" }],
  };
  const only = report({ kind: "fmt", results: [syntax], summary: { checked: 1, skipped: 0, errored: 0, changed: 0 } });
  equal(summaryLine(only), "1 file checked, 0 skipped, 0 errored: 1 file with syntax errors");
  const mixed = report({
    kind: "fmt",
    results: [syntax, { path: "a.py", changed: true }],
    summary: { checked: 10, skipped: 0, errored: 0, changed: 1 },
  });
  equal(
    summaryLine(mixed),
    "10 files checked, 0 skipped, 0 errored: 1 file would be reformatted, 8 already formatted, 1 file with syntax errors",
  );
});

Deno.test("summaryLine() adds the workspace phase", () => {
  const jobs = [{ name: "clippy", status: "failed" as const }, { name: "deny", status: "skipped" as const }, {
    name: "vet",
    status: "passed" as const,
  }];
  equal(
    summaryLine(report({ workspace: { jobs } })),
    "1 file checked, 0 skipped, 0 errored: no issues found; workspace: 3 jobs, 1 failed, 1 passed, 1 skipped",
  );
  equal(
    summaryLine(report({ kind: "workspace", workspace: { jobs } })),
    "workspace: 3 jobs, 1 failed, 1 passed, 1 skipped",
  );
});
