/**
 * Under `preview`, ruff 0.16.9's WebAssembly build names each finding by its rule (`none-comparison`) where `ruff check`
 * reports its code (`E711`): lib/engines/ruff/_codes.json gives the code back. The native verdict on
 * parity/ruff-preview-names (`ruff check .`, ruff 0.16.9) is recorded below.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultSettings, engine, memoryFile } from "../_engine_harness.ts";
import { RUFF_VERSION } from "../../../lib/engines/ruff/mod.ts";
import ruleCodes from "../../../lib/engines/ruff/_codes.json" with { type: "json" };
import { runPoly } from "../../_helpers/cli.ts";
import { tempDir } from "../../_helpers/temp.ts";

const DIR = join(import.meta.dirname!, "../testdata/parity/ruff-preview-names");

Deno.test("the table of ruff's rule names and codes is ruff's at poly's pin", () => {
  assert.equal(ruleCodes.version, RUFF_VERSION, "run scripts/gen-ruff-codes.ts after moving ruff's pin");
  assert.equal(ruleCodes.codes["none-comparison"], "E711");
  assert.ok(Object.keys(ruleCodes.codes).length > 900);
});

Deno.test("ruff lint() under preview reports each finding's code, as without it", async () => {
  const ruff = await engine("ruff");
  const text = "import os as os\nimport sys\n\nx = 1\nprint(x == None, y)\n__all__ = ['missing']\n";
  const codes = async (preview: boolean) =>
    (await ruff.lint!(memoryFile("m.py", "python", text), defaultSettings({ select: ["E", "F", "PLC"], preview })))
      .diagnostics.map((d) => `${d.span!.start_line}:${d.span!.start_col} ${d.code}`).sort();
  const stable = await codes(false);
  assert.ok(stable.length >= 5, stable.join(", "));
  assert.deepEqual(await codes(true), stable);
});

Deno.test("poly lint under ruff's preview: codes, the repository's per-file ignores, and the fixes, as ruff check", async () => {
  const dir = await tempDir({ prefix: "poly-ruff-preview-" });
  await Deno.mkdir(join(dir, ".git"));
  for (const name of ["a.py", "b.py", "pyproject.toml"]) await Deno.copyFile(join(DIR, name), join(dir, name));
  const run = await runPoly(["lint", "--no-workspace", "--format", "json", "."], { cwd: dir });
  const doc = JSON.parse(run.stdout) as {
    results: { path: string; diagnostics?: { engine: string; code: string; fix?: unknown }[] }[];
  };
  const found = doc.results.flatMap((r) =>
    (r.diagnostics ?? []).filter((d) => d.engine === "ruff").map((d) => `${r.path} ${d.code}${d.fix ? " fix" : ""}`)
  ).sort();
  assert.deepEqual(found, ["a.py F401 fix", "b.py E711", "b.py F401 fix"]);
});
