import { equal } from "node:assert/strict";
import { exitCodeFor } from "../../lib/report/mod.ts";
import type { Diagnostic } from "../../lib/report/mod.ts";
import { fixtureReport, report } from "./_fixture.ts";

const error: Diagnostic = { engine: "ruff", code: "F821", severity: "error", title: "Undefined name" };
const warning: Diagnostic = { engine: "ruff", code: "E501", severity: "warning", title: "Line too long" };

Deno.test("exitCodeFor() is 0 for a clean run, warnings and skips included", () => {
  equal(exitCodeFor(report()), 0);
  equal(exitCodeFor(report({ results: [{ path: "a.py", diagnostics: [warning] }] })), 0);
  equal(
    exitCodeFor(
      report({ results: [{ path: "a.zig", skipped: "no engine" }], skipped: [{ path: "a.zig", reason: "no engine" }] }),
    ),
    0,
  );
});

Deno.test("exitCodeFor() is 1 for an error-severity diagnostic", () => {
  equal(exitCodeFor(report({ results: [{ path: "a.py", diagnostics: [warning, error] }] })), 1);
  const counted = report({
    summary: { checked: 1, skipped: 0, errored: 0, diagnostics: { error: 1, warning: 0, info: 0, hint: 0 } },
  });
  equal(exitCodeFor(counted), 1);
});

Deno.test("exitCodeFor() is 1 for formatting drift in check mode only", () => {
  const drift = report({ kind: "fmt", results: [{ path: "a.py", changed: true }] });
  equal(exitCodeFor(drift), 1);
  equal(exitCodeFor({ ...drift, mode: "fix" }), 0);
  equal(exitCodeFor(report({ kind: "fmt", summary: { checked: 3, skipped: 0, errored: 0, changed: 1 } })), 1);
});

Deno.test("exitCodeFor() is 2 when nothing was checked at all", () => {
  equal(exitCodeFor(report({ summary: { checked: 0, skipped: 0, errored: 0 } })), 2);
  const allSkipped = report({
    results: [{ path: "a.zig", skipped: "no engine" }],
    skipped: [{ path: "a.zig", reason: "no engine" }],
    summary: { checked: 0, skipped: 1, errored: 0 },
  });
  equal(exitCodeFor(allSkipped), 2);
});

Deno.test("exitCodeFor() is 2 for any errored file, and 2 wins over 1", () => {
  equal(exitCodeFor(report({ errors: [{ path: "a.py", message: "cannot read" }] })), 2);
  equal(exitCodeFor(report({ summary: { checked: 1, skipped: 0, errored: 1 } })), 2);
  equal(exitCodeFor(report({ results: [{ path: "a.py", error: "engine crashed" }] })), 2);
  const both = report({
    results: [{ path: "a.py", diagnostics: [error] }, { path: "b.py", error: "cannot read" }],
    errors: [{ path: "b.py", message: "cannot read" }],
  });
  equal(exitCodeFor(both), 2);
  equal(exitCodeFor(fixtureReport("lint")), 2);
  equal(exitCodeFor(fixtureReport("lint-fix")), 1);
});

Deno.test("exitCodeFor() reads the workspace phase", () => {
  const job = (status: "passed" | "failed" | "skipped" | "errored" | "cancelled") => ({
    workspace: { jobs: [{ name: "go vet", status }] },
  });
  equal(exitCodeFor(report(job("passed"))), 0);
  equal(exitCodeFor(report(job("skipped"))), 0);
  equal(exitCodeFor(report(job("failed"))), 1);
  equal(exitCodeFor(report(job("errored"))), 2);
  equal(exitCodeFor(report(job("cancelled"))), 2);
  const noFiles = { summary: { checked: 0, skipped: 0, errored: 0 } };
  equal(exitCodeFor(report({ kind: "workspace", ...noFiles, ...job("passed") })), 0);
  equal(exitCodeFor(report({ kind: "workspace", ...noFiles, ...job("skipped") })), 2);
  const withError = { workspace: { jobs: [{ name: "clippy", status: "passed" as const, diagnostics: [error] }] } };
  equal(exitCodeFor(report(withError)), 1);
});
