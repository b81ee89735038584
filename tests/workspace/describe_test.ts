/**
 * The phase's outcome for people (stderr of `poly lint`), as an exit code, and
 * as the report the MCP workspace tools return.
 */
import assert from "node:assert/strict";
import { describeWorkspaceOutcome, workspaceExitCode, workspaceReport } from "../../lib/workspace/mod.ts";
import { Report, type WorkspaceOutcome } from "../../lib/report/schema.ts";

const poly = {
  version: "0.1.0",
  build_id: "dev",
  channel: "dev" as const,
  executable: "/x/poly",
  pid: 1,
  engines_digest: "0",
  engines: {},
};

const outcome: WorkspaceOutcome = {
  jobs: [
    {
      name: "clippy",
      status: "passed",
      cwd: ".",
      duration_ms: 2100,
      diagnostics: [
        {
          engine: "clippy",
          severity: "warning",
          title: "a",
          path: "src/main.rs",
          span: { start_line: 3, start_col: 1, end_line: 3, end_col: 2 },
        },
        { engine: "clippy", severity: "warning", title: "b", path: "src/lib.rs" },
      ],
    },
    {
      name: "go-vet:svc",
      status: "failed",
      cwd: "svc",
      duration_ms: 800,
      cached: true,
      diagnostics: [{ engine: "go-vet", severity: "error", title: "c", path: "svc/main.go" }],
    },
    { name: "cargo-deny", status: "skipped", cwd: ".", reason: "cargo-deny not found on PATH" },
    { name: "typecheck", status: "errored", cwd: "web", reason: "timed out after 300 s; its processes were stopped" },
  ],
};

Deno.test("describeWorkspaceOutcome() gives a verdict line and one line per job", () => {
  assert.equal(
    describeWorkspaceOutcome(outcome),
    [
      "workspace: incomplete (1 passed, 1 failed, 1 errored, 1 skipped)",
      "  passed   clippy (2.1 s, 2 warnings)",
      "  failed   go-vet:svc (0.8 s, cached, 1 error)",
      "  skipped  cargo-deny: cargo-deny not found on PATH",
      "  errored  typecheck: timed out after 300 s; its processes were stopped",
    ].join("\n"),
  );
  assert.match(describeWorkspaceOutcome({ jobs: [] }), /nothing to run/);
});

Deno.test("workspaceExitCode() is 2 for errored or cancelled, 1 for failed, else 0", () => {
  assert.equal(workspaceExitCode(outcome), 2);
  assert.equal(workspaceExitCode({ jobs: outcome.jobs.slice(0, 3) }), 1);
  assert.equal(workspaceExitCode({ jobs: [outcome.jobs[0], outcome.jobs[2]] }), 0, "a skip is not a failure");
  assert.equal(workspaceExitCode({ jobs: [{ name: "x", status: "cancelled" }] }), 2);
});

Deno.test("workspaceReport() maps jobs to results, errors, skips and a summary", () => {
  const report = workspaceReport(outcome, { mode: "check", config: { hash: "1/0123456789abcdef", sources: [] }, poly });
  assert.ok(Report.safeParse(report).success);
  assert.equal(report.kind, "workspace");
  assert.deepEqual(report.results.map((r) => [r.path, r.diagnostics?.length]), [
    ["src/lib.rs", 1],
    ["src/main.rs", 1],
    ["svc/main.go", 1],
  ]);
  assert.deepEqual(report.errors, [{
    path: "web",
    message: "typecheck: timed out after 300 s; its processes were stopped",
  }]);
  assert.deepEqual(report.skipped, [{ path: ".", reason: "cargo-deny: cargo-deny not found on PATH" }]);
  assert.deepEqual(report.summary, {
    checked: 2,
    skipped: 1,
    errored: 1,
    diagnostics: { error: 1, warning: 2, info: 0, hint: 0 },
  });
  assert.deepEqual(report.configs, [{ hash: "1/0123456789abcdef", sources: [] }]);
  assert.equal(report.workspace, outcome);
});
