/**
 * One file's outcome (lib/run/file.ts): a lint check whose engine results the
 * pre-pass already has is answered at once by `knownLintOutcome`, with exactly
 * the outcome `processFile` gives for the same task.
 */
import assert from "node:assert/strict";
import type { EnginePlan } from "../../lib/run/plan.ts";
import { type FileTask, type Known, knownError, knownLintOutcome, processFile } from "../../lib/run/file.ts";
import {
  EngineError,
  EngineRefusal,
  SharedFailure,
  SourceSyntaxError,
  syntaxDiagnostic,
} from "../../lib/engines/types.ts";
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
  {
    name: "a syntax error (a cached verdict) is a finding of a checked file, not an error",
    task: task(["ruff", "ast-grep"]),
    known: {
      ruff: knownError(
        new SourceSyntaxError([syntaxDiagnostic("ruff", "invalid-syntax", "bad", { line: 1, column: 3 })]),
      ),
      "ast-grep": { value: { diagnostics: [] } },
    },
  },
  {
    name: "an engine's refusal is a skip with its reason; a module's failure a skip and one shared error",
    task: task(["ruff", "ast-grep"]),
    known: {
      ruff: knownError(new EngineRefusal("ruff ignores this file")),
      "ast-grep": knownError(new SharedFailure("/nowhere/go.mod", "go.mod requires go 9", "see go.mod")),
    },
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

Deno.test("knownLintOutcome: a syntax error is a diagnostic, and a file checked by any engine is not 'no lint engine'", () => {
  const syntax = knownError(
    new SourceSyntaxError([syntaxDiagnostic("ruff", "invalid-syntax", "bad", { line: 1, column: 3 })]),
  );
  const out = knownLintOutcome(task(["ruff"]), { ruff: syntax })!;
  assert.equal(out.checked, true);
  assert.equal(out.error, undefined);
  assert.deepEqual(out.record?.diagnostics?.map((d) => [d.code, d.severity]), [["invalid-syntax", "error"]]);
  const rules = knownLintOutcome(task(["ast-grep"], { noEngine: "no lint engine for Rust" }), {
    "ast-grep": { value: { diagnostics: [] } },
  })!;
  assert.deepEqual([rules.checked, rules.skip, rules.record], [true, undefined, undefined]);
  const shared = knownLintOutcome(task(["ruff"]), {
    ruff: knownError(new SharedFailure("/m/go.mod", "go.mod requires go 9: install it", "see its go.mod")),
  })!;
  assert.deepEqual([shared.skip, shared.error, shared.shared], [
    "see its go.mod",
    undefined,
    [{ path: "/m/go.mod", message: "go.mod requires go 9: install it" }],
  ]);
});

Deno.test("knownError() never gives an errored record an empty reason", () => {
  for (const error of [new Error(""), new EngineError(""), "", new TypeError("")]) {
    const known = knownError(error);
    assert.ok("error" in known && known.error.trim().length > "engine crashed:".length, JSON.stringify(known));
  }
  assert.deepEqual(knownError(new TypeError("")), { error: "engine crashed: TypeError" });
  assert.deepEqual(knownError(new Error("")), { error: "engine crashed: it gave no reason" });
});
