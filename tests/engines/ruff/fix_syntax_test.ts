/**
 * lib/engines/ruff/mod.ts: a text with syntax errors is fixed as `ruff check --fix` fixes it. The expected texts are
 * `ruff check --isolated --select F401,I001 --target-version py310 --fix` of parity/ruff-fix-version-syntax (ruff
 * 0.16.9, the version poly pins), recorded.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultSettings, engine } from "../_engine_harness.ts";
import { SourceSyntaxError } from "../../../lib/engines/types.ts";

const DIR = join(import.meta.dirname!, "../testdata/parity/ruff-fix-version-syntax");
const SETTINGS = { select: ["F401", "I001"], "target-version": "py310" };

async function file(name: string) {
  const path = join(DIR, name);
  return { path, relPath: name, language: "python" as const, text: await Deno.readTextFile(path) };
}

Deno.test("ruff fix(): a text that parses is fixed beside syntax of a newer Python or a semantic error", async () => {
  const ruff = await engine("ruff");
  for (const name of ["case", "semantic"]) {
    const out = await ruff.fix!(await file(`${name}.py`), defaultSettings(SETTINGS));
    assert.equal(out.text, await Deno.readTextFile(join(DIR, `${name}.fixed.py`)), name);
    assert.equal(out.fixed, 1, name);
  }
  // The fixed text is still reported with its syntax errors, as `ruff check` reports them.
  const fixed = await file("case.fixed.py");
  await assert.rejects(
    async () => await ruff.lint!(fixed, defaultSettings(SETTINGS)),
    (e: unknown) =>
      e instanceof SourceSyntaxError && e.diagnostics.length === 3 &&
      e.diagnostics.every((d) => d.code === "invalid-syntax" && /syntax was added in Python 3\.11/.test(d.title)),
  );
});

Deno.test("ruff fix(): a text that does not parse is not fixed; its syntax errors are its findings", async () => {
  const ruff = await engine("ruff");
  await assert.rejects(
    async () => await ruff.fix!(await file("broken.py"), defaultSettings(SETTINGS)),
    (e: unknown) => e instanceof SourceSyntaxError && e.diagnostics[0].title === "unexpected EOF while parsing",
  );
});
