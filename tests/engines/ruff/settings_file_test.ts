/**
 * lib/engines/ruff/_settings_file.ts: `RUF201` in ruff's settings files, which ruff's WebAssembly build does not lint,
 * and rule names in ruff's selectors (lib/engines/ruff/codes.ts). The expected findings and fixed texts are `ruff
 * check`'s on parity/ruff-settings-file-codes and parity/ruff-selector-names (ruff 0.16.9), recorded here.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { codesInSelectors } from "../../../lib/engines/ruff/_settings_file.ts";
import { selectorCode } from "../../../lib/engines/ruff/codes.ts";
import { runPoly } from "../../_helpers/cli.ts";
import { parityCopy, ruffFindings } from "./_parity.ts";

Deno.test("poly lint: RUF201 in pyproject.toml and ruff.toml as ruff check reports it, and --fix writes the names", async () => {
  const dir = await parityCopy("ruff-settings-file-codes");
  const rule = "RUF201 Rule code used instead of name in";
  assert.deepEqual(await ruffFindings(dir, { ends: true, fixes: true }), [
    "a.py:1:8-1:10 F401 `os` imported but unused | ",
    `pyproject.toml:10:17-10:21 ${rule} \`lint.select\` | line-too-long`,
    `pyproject.toml:10:25-10:31 ${rule} \`lint.select\` | rule-codes-in-selectors`,
    `pyproject.toml:10:54-10:60 ${rule} \`lint.select\` | typing-only-first-party-import`,
    `pyproject.toml:11:12-11:16 ${rule} \`lint.ignore\` | trailing-whitespace`,
    `pyproject.toml:12:36-12:40 ${rule} \`lint.per-file-ignores\` | assert`,
    `pyproject.toml:15:14-15:20 ${rule} \`lint.extend-per-file-ignores\` | implicit-namespace-package`,
    `pyproject.toml:6:19-6:23 ${rule} \`extend-select\` | unused-import`,
    `sub/ruff.toml:3:12-3:18 ${rule} \`lint.select\` | rule-codes-in-selectors`,
    `sub/ruff.toml:4:15-4:19 ${rule} \`lint.unfixable\` | unused-variable`,
  ]);
  await runPoly(["lint", "--no-workspace", "--fix", "."], { cwd: dir });
  // `ruff check --fix`'s texts (a.py's import deleted too).
  assert.equal(
    await Deno.readTextFile(join(dir, "pyproject.toml")),
    '[project]\nname = "demo"\nversion = "0.1.0"\n\n[tool.ruff]\nextend-select = ["unused-import"]\n\n[tool.ruff.lint]\n' +
      'preview = true\nselect = ["E", "line-too-long", "rule-codes-in-selectors", "unused-variable", ' +
      '"typing-only-first-party-import"]\nignore = [\'trailing-whitespace\']\nper-file-ignores = { "tests/*" = ["assert"] }\n' +
      '\n[tool.ruff.lint.extend-per-file-ignores]\n"docs/*" = ["implicit-namespace-package", "D"]\n',
  );
  assert.equal(
    await Deno.readTextFile(join(dir, "sub/ruff.toml")),
    '[lint]\npreview = true\nselect = ["rule-codes-in-selectors", "F"]\nunfixable = ["unused-variable"]\n',
  );
  assert.equal(await Deno.readTextFile(join(dir, "other.toml")), '[package]\nselect = ["E501"]\n');
  assert.equal(await Deno.readTextFile(join(dir, "a.py")), "");
  // The names it wrote are read as the codes were: nothing left to report in the settings files.
  assert.deepEqual(await ruffFindings(dir), []);
});

Deno.test("poly lint: rules named by name in ruff's selectors, across an extend chain and per-file ignores", async () => {
  const dir = await parityCopy("ruff-selector-names");
  const lines = await ruffFindings(dir);
  assert.deepEqual(lines, [
    "docs/d.py:1:1 INP001 File `docs/d.py` is part of an implicit namespace package. Add an `__init__.py`.",
    "long.py:1:89 E501 Line too long (106 > 88)",
    "m.py:2:1 S101 Use of `assert` detected",
    "tests/t.py:1:1 INP001 File `tests/t.py` is part of an implicit namespace package. Add an `__init__.py`.",
  ]);
});

Deno.test("codesInSelectors(): whole codes only, at the code between any quotes; nothing outside the ruff table", () => {
  const names = new Map([["F401", "unused-import"], ["TC001", "typing-only-first-party-import"]]);
  const text = '[tool.black]\nselect = ["F401"]\n[tool.ruff.lint]\nselect = [\'F401\', "F", "TCH001", """F401"""]\n';
  assert.deepEqual(
    codesInSelectors("/x/pyproject.toml", text, names).map((f) => [f.start, f.end, f.name]),
    [
      [{ line: 4, column: 12 }, { line: 4, column: 16 }, "unused-import"],
      [{ line: 4, column: 25 }, { line: 4, column: 31 }, "typing-only-first-party-import"],
      [{ line: 4, column: 37 }, { line: 4, column: 41 }, "unused-import"],
    ],
  );
  assert.deepEqual(codesInSelectors("/x/setup.toml", text, names), [], "no settings file");
  assert.deepEqual(codesInSelectors("/x/pyproject.toml", "[tool.ruff\n", names), [], "a text that does not parse");
  assert.equal(selectorCode("line-too-long"), "E501");
  assert.equal(selectorCode("E5"), "E5");
  assert.equal(selectorCode("toString"), "toString", "no property of an object is a rule");
});
