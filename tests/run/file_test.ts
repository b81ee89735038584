/**
 * One file's outcome (lib/run/file.ts): a lint check whose engine results the
 * pre-pass already has is answered at once by `knownLintOutcome`, with exactly
 * the outcome `processFile` gives for the same task.
 */
import assert from "node:assert/strict";
import type { EnginePlan } from "../../lib/run/plan.ts";
import { type FileTask, type Known, knownLintOutcome, processFile } from "../../lib/run/file.ts";
import type { Diagnostic } from "../../lib/report/schema.ts";

const diagnostic = (code: string, line: number): Diagnostic => ({
  engine: "ast-grep",
  code,
  severity: "warning",
  title: `${code} here`,
  span: { start_line: line, start_col: 1, end_line: line, end_col: 4 },
});

function task(engines: string[], extra: Partial<FileTask> = {}): FileTask {
  return {
    path: "/nowhere/a.py",
    relPath: "a.py",
    language: "python",
    kind: "lint",
    fix: false,
    engines: engines.map((id) => ({ id, settings: {} }) as unknown as EnginePlan),
    ignoreCodes: [],
    maxSize: 1 << 20,
    lineEnding: "auto",
    text: "x = 1\n",
    ...extra,
  };
}

const CASES: { name: string; task: FileTask; known: Record<string, Known> }[] = [
  {
    name: "findings, one code silenced by [per-file-ignores], a config index",
    task: task(["ruff", "ast-grep"], { ignoreCodes: ["py-print"], config: 2 }),
    known: {
      ruff: { value: { diagnostics: [diagnostic("E711", 1)] } },
      "ast-grep": { value: { diagnostics: [diagnostic("py-print", 2), diagnostic("py-compare-none", 3)] } },
    },
  },
  {
    name: "clean",
    task: task(["ruff", "ast-grep"]),
    known: { ruff: { value: { diagnostics: [] } }, "ast-grep": { value: { diagnostics: [] } } },
  },
  {
    name: "one engine failed, one unavailable: an error and a skip, not clean",
    task: task(["ruff", "ast-grep"]),
    known: { ruff: { error: "engine crashed: boom" }, "ast-grep": { unavailable: "ast-grep is not installed" } },
  },
  {
    name: "no lint engine of the language: a skip beside the rules' findings",
    task: task(["ast-grep"], { noEngine: "no lint engine for Python" }),
    known: { "ast-grep": { value: { diagnostics: [diagnostic("py-compare-none", 1)] } } },
  },
];

for (const { name, task: t, known } of CASES) {
  Deno.test(`knownLintOutcome gives processFile's outcome: ${name}`, async () => {
    const now = knownLintOutcome(t, known);
    assert.ok(now, "every result is known: answered at once");
    assert.deepEqual(now, await processFile({ ...t, known }));
  });
}

Deno.test("knownLintOutcome leaves a task with an engine still to run, and a fix, to processFile", () => {
  const t = task(["ruff", "ast-grep"]);
  assert.equal(knownLintOutcome(t, { ruff: { value: { diagnostics: [] } } }), undefined);
  const all: Record<string, Known> = {
    ruff: { value: { diagnostics: [] } },
    "ast-grep": { value: { diagnostics: [] } },
  };
  assert.equal(knownLintOutcome({ ...t, fix: true }, all), undefined);
  assert.equal(knownLintOutcome({ ...t, kind: "fmt" }, all), undefined);
});
