/**
 * lib/engines/ruff/_selectors.ts: ruff's rule selectors (a linter's prefix, then a prefix of its codes), as its
 * `per-file-ignores` are read. The verdicts are `ruff check`'s (ruff 0.16.9), recorded.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ruffSelects } from "../../../lib/engines/ruff/_selectors.ts";
import { tempDir } from "../../_helpers/temp.ts";
import { runPoly } from "../../_helpers/cli.ts";

Deno.test("ruffSelects(): a linter's prefix selects its rules only, not another linter's that starts alike", () => {
  const yes: [string, string][] = [
    ["D", "D100"],
    ["D1", "D103"],
    ["T", "T201"],
    ["T", "T100"],
    ["T20", "T201"],
    ["C", "C416"],
    ["C", "C901"],
    ["C4", "C416"],
    ["E", "E401"],
    ["E4", "E401"],
    ["PL", "PLC0414"],
    ["PLC", "PLC0414"],
    ["FA", "FA100"],
    ["ALL", "RUF100"],
    ["TCH", "TC002"],
    ["TCH004", "TC004"],
    ["T1", "T100"],
    ["R", "RET505"],
    ["U", "UP006"],
    ["M", "RUF100"],
  ];
  for (const [selector, code] of yes) assert.ok(ruffSelects(selector, code), `${selector} selects ${code}`);
  const no: [string, string][] = [
    ["D", "DTZ005"],
    ["D", "DOC201"],
    ["T", "TD002"],
    ["T", "TRY003"],
    ["T", "TC002"],
    ["C", "COM812"],
    ["C", "CPY001"],
    ["E", "EM101"],
    ["E", "EXE002"],
    ["E", "ERA001"],
    ["F", "FURB167"],
    ["F", "FBT001"],
    ["FA", "FAST001"],
    ["I", "INP001"],
    ["S", "SIM114"],
    ["B", "BLE001"],
    ["A", "ANN201"],
    ["N", "NPY002"],
    ["PLC", "PLR0913"],
    ["PT", "PTH100"],
    ["D100", "D103"],
  ];
  for (const [selector, code] of no) assert.ok(!ruffSelects(selector, code), `${selector} does not select ${code}`);
});

/**
 * pydantic's `'docs/*' = ['D']` and `"docs/**\/*.py" = ['T']`: `ruff check` still reports `DTZ005`, `TD002`,
 * `TRY003` and `COM819` there, where poly had silenced every code starting with those letters (its parity run under
 * `select = ["ALL"]`: 67 `DTZ001`, 51 `TRY003`, 13 `TD002`, ... only native; parity/ruff-per-file-ignores-linter).
 * Native codes (`ruff check --output-format concise d/m.py`, ruff 0.16.9), recorded: without the table `ANN001 ANN201
 * C416 COM819 CPY001 D100 D103 DTZ005 E401 EM101 F401 FIX002 I001 INP001 S101 T100 T201 TD002 TD003 TD004 TRY003`; with
 * it, the same without `C416`, `D100`, `D103`, `E401`, `T100`, `T201`.
 */
Deno.test("poly lint: ruff's per-file-ignores silence what ruff check silences, by linter", async () => {
  const dir = await tempDir({ prefix: "poly-ruff-selectors-" });
  await Deno.mkdir(join(dir, ".git"));
  await Deno.mkdir(join(dir, "d"));
  await Deno.writeTextFile(
    join(dir, "d", "m.py"),
    "import datetime\nimport os, sys\nx = datetime.datetime.now()\nprint([i for i in [1]])\ndef f(a=1,):\n" +
      '    assert a\n    raise ValueError("a long message here for TRY003 yes")\n# TODO fix\nbreakpoint()\n',
  );
  const codes = async (table: string) => {
    await Deno.writeTextFile(
      join(dir, "pyproject.toml"),
      `[tool.ruff.lint]\nselect = ["ALL"]\n${table}`,
    );
    const run = await runPoly(["lint", "--no-workspace", "--format", "json", "."], { cwd: dir });
    const doc = JSON.parse(run.stdout) as { results: { diagnostics?: { engine: string; code: string }[] }[] };
    return [
      ...new Set(doc.results.flatMap((r) => r.diagnostics ?? []).filter((d) => d.engine === "ruff").map((d) => d.code)),
    ]
      .sort();
  };
  const all = "ANN001 ANN201 C416 COM819 CPY001 D100 D103 DTZ005 E401 EM101 F401 FIX002 I001 INP001 S101 T100 T201 " +
    "TD002 TD003 TD004 TRY003";
  assert.deepEqual((await codes("")).join(" "), all);
  const silenced = new Set(["C416", "D100", "D103", "E401", "T100", "T201"]);
  assert.deepEqual(
    (await codes('[tool.ruff.lint.per-file-ignores]\n"d/*" = ["D", "T", "C", "E", "PL", "TCH", "R"]\n')).join(" "),
    all.split(" ").filter((c) => !silenced.has(c)).join(" "),
  );
});
